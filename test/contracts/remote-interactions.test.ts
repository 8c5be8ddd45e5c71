import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryCommentRepository, InMemoryContentStore, InMemoryPostRepository } from '@plaza/domain/content/testing';
import {
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
  InMemoryRemoteInteractionRepository,
  InMemoryRemotePostRepository,
  remoteInteractionsContract,
} from '@plaza/domain/federation/testing';
import { InMemoryFollowRepository } from '@plaza/domain/social/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCommentRepository, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { SqlRemoteActorRepository, SqlRemoteFollowRepository, SqlRemoteInteractionRepository } from '@plaza/adapters-mysql/federation';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

remoteInteractionsContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const store = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const actors = new InMemoryRemoteActorRepository();
  const follows = new InMemoryRemoteFollowRepository(actors);
  return {
    users,
    posts: new InMemoryPostRepository(store),
    comments: new InMemoryCommentRepository(store),
    actors,
    follows,
    remote: new InMemoryRemoteInteractionRepository(store, actors, follows, new InMemoryRemotePostRepository(follows)),
  };
});

remoteInteractionsContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    posts: new SqlPostRepository(db),
    comments: new SqlCommentRepository(db, dialect),
    actors: new SqlRemoteActorRepository(db, dialect),
    follows: new SqlRemoteFollowRepository(db),
    remote: new SqlRemoteInteractionRepository(db, dialect),
  };
});
