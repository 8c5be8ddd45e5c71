import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { followRequestsContract, InMemoryRemoteFollowRequestRepository } from '@plaza/domain/federation/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlRemoteFollowRequestRepository } from '@plaza/adapters-mysql/federation';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

followRequestsContract('in-memory', async () => ({
  users: new InMemoryUserRepository(),
  requests: new InMemoryRemoteFollowRequestRepository(),
}));

followRequestsContract(`sql (${TEST_DIALECT})`, async () => {
  const { db } = database();
  return { users: new SqlUserRepository(db), requests: new SqlRemoteFollowRequestRepository(db) };
});
