import { InMemoryRateLimitStore } from '@plaza/domain';
import {
  accountsContract,
  followRepositoryContract,
  InMemoryAccessTokenRepository,
  InMemoryFollowRepository,
  InMemoryNotificationRepository,
  InMemoryPasswordResetRepository,
  InMemoryUserRepository,
  notificationRepositoryContract,
  rateLimitStoreContract,
} from '@plaza/domain/testing';
import {
  SqlAccessTokenRepository,
  SqlFollowRepository,
  SqlNotificationRepository,
  SqlPasswordResetRepository,
  SqlRateLimitStore,
  SqlUserRepository,
} from '@plaza/adapters-mysql';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

accountsContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  return { users, tokens: new InMemoryAccessTokenRepository(users), resets: new InMemoryPasswordResetRepository() };
});
accountsContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  tokens: new SqlAccessTokenRepository(database().db),
  resets: new SqlPasswordResetRepository(database().db),
}));

rateLimitStoreContract('in-memory', async () => new InMemoryRateLimitStore());
rateLimitStoreContract(`sql (${TEST_DIALECT})`, async () => new SqlRateLimitStore(database().db, database().dialect));

followRepositoryContract('in-memory', async () => ({ users: new InMemoryUserRepository(), follows: new InMemoryFollowRepository() }));
followRepositoryContract(`sql (${TEST_DIALECT})`, async () => ({ users: new SqlUserRepository(database().db), follows: new SqlFollowRepository(database().db) }));

notificationRepositoryContract('in-memory', async () => ({ users: new InMemoryUserRepository(), notifications: new InMemoryNotificationRepository() }));
notificationRepositoryContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  notifications: new SqlNotificationRepository(database().db),
}));
