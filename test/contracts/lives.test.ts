import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryLiveRepository, liveRepositoryContract } from '@plaza/domain/lives/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlLiveRepository } from '@plaza/adapters-mysql/lives';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

liveRepositoryContract('in-memory', async () => ({ users: new InMemoryUserRepository(), lives: new InMemoryLiveRepository() }));
liveRepositoryContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  lives: new SqlLiveRepository(database().db, database().dialect),
}));
