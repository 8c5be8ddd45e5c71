import {
  SqlAccountHoldRepository,
  SqlEmailConfirmationRepository,
  SqlInvitationRepository,
  SqlUserRepository,
} from '@plaza/adapters-mysql/accounts';
import {
  InMemoryAccountHoldRepository,
  InMemoryEmailConfirmationRepository,
  InMemoryInvitationRepository,
  InMemoryUserRepository,
  registrationContract,
} from '@plaza/domain/accounts/testing';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();
const DELETED_AT = '2026-11-27 12:30:00';

registrationContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  return {
    users,
    holds: new InMemoryAccountHoldRepository(users),
    invitations: new InMemoryInvitationRepository(),
    confirmations: new InMemoryEmailConfirmationRepository(),
    markDeleted: async (id) => {
      users.rows.get(id)!.deleted_at = DELETED_AT;
    },
  };
});
registrationContract(`sql (${TEST_DIALECT})`, async () => {
  const { db } = database();
  return {
    users: new SqlUserRepository(db),
    holds: new SqlAccountHoldRepository(db),
    invitations: new SqlInvitationRepository(db),
    confirmations: new SqlEmailConfirmationRepository(db),
    markDeleted: async (id) => {
      await db.updateTable('users').set({ deleted_at: DELETED_AT }).where('id', '=', id).execute();
    },
  };
});
