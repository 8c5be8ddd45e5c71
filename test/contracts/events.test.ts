import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { eventsContract, InMemoryEventRepository } from '@plaza/domain/events/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlEventRepository } from '@plaza/adapters-mysql/events';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

eventsContract('in-memory', async () => ({ users: new InMemoryUserRepository(), events: new InMemoryEventRepository() }));

eventsContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return { users: new SqlUserRepository(db), events: new SqlEventRepository(db, dialect) };
});
