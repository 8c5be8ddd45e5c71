import {
  accountDataContract,
  accountSettingsContract,
  InMemoryDeletionRequestRepository,
  InMemoryMailOutbox,
  InMemoryNotificationPreferenceRepository,
  InMemoryAccessTokenRepository,
  InMemoryReauthenticationAttempts,
  InMemoryRecoveryCodeRepository,
  InMemoryUserRepository,
  reauthenticationContract,
} from '@plaza/domain/accounts/testing';
import {
  SqlAccessTokenRepository,
  SqlAccountsAccountData,
  SqlAccountEraser,
  SqlDeletionRequestRepository,
  SqlMailOutbox,
  SqlNotificationPreferenceRepository,
  SqlReauthenticationAttempts,
  SqlRecoveryCodeRepository,
  SqlUserRepository,
} from '@plaza/adapters-mysql/accounts';
import { AccountDataFromParts } from '@plaza/domain/accounts';
import { SqlContentAccountData, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlMessagingAccountData } from '@plaza/adapters-mysql/messaging';
import { SqlNotificationsAccountData } from '@plaza/adapters-mysql/notifications';
import { SqlFollowRepository, SqlSocialAccountData } from '@plaza/adapters-mysql/social';
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

// Cross-context by nature (docs/decisions/0090, 0093): SQL only, with the parts of the platform's core
// contexts; each other context's part is covered by its own end-to-end deletion and export tests.
accountDataContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  const content = new SqlContentAccountData(db);
  const parts = [
    new SqlAccountsAccountData(db),
    new SqlNotificationsAccountData(db),
    new SqlSocialAccountData(db),
    new SqlMessagingAccountData(db),
    content,
  ];
  return {
    users: new SqlUserRepository(db),
    tokens: new SqlAccessTokenRepository(db),
    follows: new SqlFollowRepository(db),
    posts: new SqlPostRepository(db),
    reader: new AccountDataFromParts(parts, content),
    eraser: new SqlAccountEraser(db, dialect, parts),
  };
});

reauthenticationContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  return { users, tokens: new InMemoryAccessTokenRepository(users), attempts: new InMemoryReauthenticationAttempts() };
});
reauthenticationContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  tokens: new SqlAccessTokenRepository(database().db),
  attempts: new SqlReauthenticationAttempts(database().db),
}));
