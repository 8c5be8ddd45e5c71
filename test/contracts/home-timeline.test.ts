import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryContentStore, InMemoryPostEngagementRepository, InMemoryPostRepository } from '@plaza/domain/content/testing';
import { homeTimelineContract, InMemoryHomeTimelineRepository } from '@plaza/domain/timeline/testing';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPostEngagementRepository, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlFollowRepository } from '@plaza/adapters-mysql/social';
import { SqlHomeTimelineRepository } from '@plaza/adapters-mysql/timeline';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

homeTimelineContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  return {
    users,
    follows,
    posts: new InMemoryPostRepository(store),
    engagement: new InMemoryPostEngagementRepository(store),
    timelines: new InMemoryHomeTimelineRepository(store),
    setPrivate: (id) => users.setPrivacy(id, { is_private: true }),
  };
});

homeTimelineContract(`sql (${TEST_DIALECT})`, async () => {
  const users = new SqlUserRepository(database().db);
  return {
    users,
    follows: new SqlFollowRepository(database().db),
    posts: new SqlPostRepository(database().db),
    engagement: new SqlPostEngagementRepository(database().db, database().dialect),
    timelines: new SqlHomeTimelineRepository(database().db, database().dialect),
    setPrivate: (id) => users.setPrivacy(id, { is_private: true }),
  };
});
