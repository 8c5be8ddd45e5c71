import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryPushOutbox, pushOutboxContract } from '@plaza/domain/notifications/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPushOutbox } from '@plaza/adapters-mysql/notifications';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

pushOutboxContract('in-memory', async () => ({ users: new InMemoryUserRepository(), outbox: new InMemoryPushOutbox() }));
pushOutboxContract(`sql (${TEST_DIALECT})`, async () => ({
  users: new SqlUserRepository(database().db),
  outbox: new SqlPushOutbox(database().db),
}));
