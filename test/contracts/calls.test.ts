import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { callRepositoryContract, InMemoryCallRepository } from '@plaza/domain/calls/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlCallRepository } from '@plaza/adapters-mysql/calls';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

callRepositoryContract('in-memory', async () => ({ users: new InMemoryUserRepository(), calls: new InMemoryCallRepository() }));
callRepositoryContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  calls: new SqlCallRepository(database().db, database().dialect),
}));
