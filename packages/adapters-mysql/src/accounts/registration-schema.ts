import type { Generated } from 'kysely';

/** What a new account waits for before it may sign in (docs/decisions/0104). */
export interface AccountHoldsTable {
  user_id: number;
  awaiting_approval: number;
  awaiting_email: number;
  created_at: string;
}

export interface RegistrationInvitationsTable {
  id: Generated<number>;
  code_hash: string;
  code_hint: string;
  max_uses: number;
  uses: Generated<number>;
  expires_at: string | null;
  revoked_at: string | null;
  created_by: number;
  created_at: string;
}

export interface EmailConfirmationsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RegistrationTables {
  account_holds: AccountHoldsTable;
  registration_invitations: RegistrationInvitationsTable;
  email_confirmations: EmailConfirmationsTable;
}

declare module '../database.js' {
  /** Registration's tables join the database type with the accounts context's. */
  interface Database extends RegistrationTables {}
}
