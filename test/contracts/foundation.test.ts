import { InMemoryRateLimitStore } from '@plaza/domain';
import {
  InMemoryAccessTokenRepository,
  InMemoryPasswordResetRepository,
  InMemoryProfileStatsReader,
  InMemoryUserRepository,
  accountsContract,
  profileStatsContract,
} from '@plaza/domain/accounts/testing';
import { InMemoryContentStore, InMemoryPostRepository } from '@plaza/domain/content/testing';
import { rateLimitStoreContract } from '@plaza/domain/limits/testing';
import { InMemoryNotificationRepository, notificationRepositoryContract } from '@plaza/domain/notifications/testing';
import { InMemoryFollowRepository, InMemoryFriendRequestRepository, followRepositoryContract } from '@plaza/domain/social/testing';
import {
  SqlAccessTokenRepository,
  SqlPasswordResetRepository,
  SqlProfileStatsReader,
  SqlUserRepository,
} from '@plaza/adapters-mysql/accounts';
import { SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlRemoteFollowRepository } from '@plaza/adapters-mysql/federation';
import { InMemoryRemoteActorRepository, InMemoryRemoteFollowRepository } from '@plaza/domain/federation/testing';
import { SqlRateLimitStore } from '@plaza/adapters-mysql/limits';
import { SqlNotificationRepository } from '@plaza/adapters-mysql/notifications';
import { SqlFollowRepository, SqlFriendRequestRepository } from '@plaza/adapters-mysql/social';
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
followRepositoryContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  follows: new SqlFollowRepository(database().db),
}));

notificationRepositoryContract('in-memory', async () => ({
  users: new InMemoryUserRepository(),
  notifications: new InMemoryNotificationRepository(),
}));
notificationRepositoryContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  notifications: new SqlNotificationRepository(database().db),
}));

profileStatsContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const friends = new InMemoryFriendRequestRepository();
  const content = new InMemoryContentStore(users, follows);
  const remote = new InMemoryRemoteFollowRepository(new InMemoryRemoteActorRepository());
  return {
    users,
    follows,
    friends,
    remote,
    posts: new InMemoryPostRepository(content),
    stats: new InMemoryProfileStatsReader(users, follows, friends, content, remote),
  };
});
profileStatsContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  follows: new SqlFollowRepository(database().db),
  friends: new SqlFriendRequestRepository(database().db, database().dialect),
  posts: new SqlPostRepository(database().db),
  remote: new SqlRemoteFollowRepository(database().db),
  stats: new SqlProfileStatsReader(database().db),
}));
