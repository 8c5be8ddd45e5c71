import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import {
  federationContract,
  InMemoryActorKeyRepository,
  InMemoryDomainBlockRepository,
  InMemoryFederationKeyValues,
  InMemoryFederationQueue,
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
  InMemoryRemotePostRepository,
} from '@plaza/domain/federation/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import {
  SqlActorKeyRepository,
  SqlDomainBlockRepository,
  SqlFederationKeyValues,
  SqlFederationQueue,
  SqlRemoteActorRepository,
  SqlRemoteFollowRepository,
  SqlRemotePostRepository,
} from '@plaza/adapters-mysql/federation';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

federationContract('in-memory', async () => {
  const actors = new InMemoryRemoteActorRepository();
  const follows = new InMemoryRemoteFollowRepository(actors);
  return {
    users: new InMemoryUserRepository(),
    keys: new InMemoryActorKeyRepository(),
    actors,
    follows,
    posts: new InMemoryRemotePostRepository(follows),
    kv: new InMemoryFederationKeyValues(),
    queue: new InMemoryFederationQueue(),
    blocks: new InMemoryDomainBlockRepository(),
  };
});

federationContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return {
    users: new SqlUserRepository(db),
    keys: new SqlActorKeyRepository(db),
    actors: new SqlRemoteActorRepository(db, dialect),
    follows: new SqlRemoteFollowRepository(db),
    posts: new SqlRemotePostRepository(db),
    kv: new SqlFederationKeyValues(db, dialect),
    queue: new SqlFederationQueue(db),
    blocks: new SqlDomainBlockRepository(db),
  };
});
