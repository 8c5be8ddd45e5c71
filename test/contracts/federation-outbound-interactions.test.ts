import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { InMemoryOutboundInteractionRepository, outboundInteractionsContract } from '@plaza/domain/federation/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlOutboundInteractionRepository } from '@plaza/adapters-mysql/federation';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

outboundInteractionsContract('in-memory', async () => ({
  users: new InMemoryUserRepository(),
  outbound: new InMemoryOutboundInteractionRepository(),
}));

outboundInteractionsContract(`sql (${TEST_DIALECT})`, async () => {
  const { db } = database();
  return { users: new SqlUserRepository(db), outbound: new SqlOutboundInteractionRepository(db) };
});
