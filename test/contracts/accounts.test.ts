import {
  accountDataContract,
  accountSettingsContract,
  InMemoryDeletionRequestRepository,
  InMemoryMailOutbox,
  InMemoryNotificationPreferenceRepository,
  InMemoryRecoveryCodeRepository,
  InMemoryUserRepository,
} from '@plaza/domain/accounts/testing';
import {
  SqlAccessTokenRepository,
  SqlAccountDataReader,
  SqlAccountEraser,
  SqlDeletionRequestRepository,
  SqlMailOutbox,
  SqlNotificationPreferenceRepository,
  SqlRecoveryCodeRepository,
  SqlUserRepository,
} from '@plaza/adapters-mysql/accounts';
import { SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlFollowRepository } from '@plaza/adapters-mysql/social';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

accountSettingsContract('in-memory', async () => ({
  users: new InMemoryUserRepository(),
  recovery: new InMemoryRecoveryCodeRepository(),
  outbox: new InMemoryMailOutbox(),
  preferences: new InMemoryNotificationPreferenceRepository(),
  deletions: new InMemoryDeletionRequestRepository(),
}));
accountSettingsContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  recovery: new SqlRecoveryCodeRepository(database().db),
  outbox: new SqlMailOutbox(database().db),
  preferences: new SqlNotificationPreferenceRepository(database().db, database().dialect),
  deletions: new SqlDeletionRequestRepository(database().db),
}));

// Cross-context by nature (docs/decisions/0090): SQL only; the services' unit tests use accounts-only fakes.
accountDataContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  tokens: new SqlAccessTokenRepository(database().db),
  follows: new SqlFollowRepository(database().db),
  posts: new SqlPostRepository(database().db),
  reader: new SqlAccountDataReader(database().db),
  eraser: new SqlAccountEraser(database().db, database().dialect),
}));
