import { authInvalidationContract, InMemoryAuthInvalidation } from '@plaza/domain/accounts/testing';
import { SqlAuthInvalidation } from '@plaza/adapters-mysql/accounts';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();

authInvalidationContract('in-memory', async () => {
  const shared = new InMemoryAuthInvalidation();
  return { signal: shared, other: shared };
});
authInvalidationContract(`sql (${TEST_DIALECT})`, async () => {
  const { db, dialect } = database();
  return { signal: new SqlAuthInvalidation(db, dialect), other: new SqlAuthInvalidation(db, dialect) };
});
