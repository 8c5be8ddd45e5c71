import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { type InMemorySurfacePost, InMemoryContentStore, InMemoryPostRepository } from '@plaza/domain/content/testing';
import { InMemorySearchIndex, searchIndexContract } from '@plaza/domain/discovery/testing';
import { InMemoryFollowRepository, InMemoryFriendRequestRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlSearchIndex } from '@plaza/adapters-mysql/discovery';
import { SqlFollowRepository, SqlFriendRequestRepository } from '@plaza/adapters-mysql/social';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';
import { inMemorySurfacePublisher, publishSurfacePost } from '../support/surface-posts.js';

const database = useTestDatabase();

searchIndexContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const friends = new InMemoryFriendRequestRepository();
  const store = new InMemoryContentStore(users, follows);
  const surfaces = new Map<string, InMemorySurfacePost>();
  return {
    search: new InMemorySearchIndex(users, store, follows, friends, surfaces),
    publish: inMemorySurfacePublisher(surfaces),
    users,
    posts: new InMemoryPostRepository(store),
    follows,
    friends,
  };
});

searchIndexContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    search: new SqlSearchIndex(db, dialect),
    users: new SqlUserRepository(db),
    posts: new SqlPostRepository(db),
    follows: new SqlFollowRepository(db),
    friends: new SqlFriendRequestRepository(db, dialect),
    publish: (type, authorId, o) => publishSurfacePost(db, type, authorId, o),
  };
});
