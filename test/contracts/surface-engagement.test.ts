import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import {
  InMemoryContentStore,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
  InMemorySurfaceEngagementRepository,
  surfaceEngagementContract,
} from '@plaza/domain/content/testing';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPostEngagementRepository, SqlPostRepository, SqlSurfaceEngagementRepository } from '@plaza/adapters-mysql/content';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';
import { inMemorySurfacePublisher, publishSurfacePost } from '../support/surface-posts.js';

const database = useTestDatabase();

surfaceEngagementContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const store = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const surfaces = new InMemorySurfaceEngagementRepository(store);
  return {
    users,
    posts: new InMemoryPostRepository(store),
    engagement: new InMemoryPostEngagementRepository(store),
    surfaces,
    publish: inMemorySurfacePublisher(surfaces.posts),
  };
});

surfaceEngagementContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    posts: new SqlPostRepository(db),
    engagement: new SqlPostEngagementRepository(db, dialect),
    surfaces: new SqlSurfaceEngagementRepository(db),
    publish: (type, authorId, o) => publishSurfacePost(db, type, authorId, o),
  };
});
