import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  display_name: string | null;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  cause: string | null;
  website: string | null;
  twitter: string | null;
  instagram: string | null;
  facebook: string | null;
  tiktok: string | null;
  mastodon: string | null;
  bluesky: string | null;
  location: string | null;
  github: string | null;
  militant_badge: string | null;
  status_emoji: string | null;
  status_text: string | null;
  is_admin: Generated<number>;
  is_technician: Generated<number>;
  is_moderator: Generated<number>;
  is_private: Generated<number>;
  totp_secret: string | null;
  totp_enabled: Generated<number>;
  totp_last_step: number | null;
  show_online_status: Generated<number>;
  read_receipts: Generated<number>;
  allow_messages: Generated<number>;
  deleted_at: string | null;
  last_active_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface AccessTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** How its login authenticated (docs/decisions/0112): null for tokens no login issued. */
  authenticated_at: string | null;
  authenticated_with: 'password' | 'second_factor' | null;
}

export interface ReauthenticationAttemptsTable {
  user_id: number;
  attempts: number;
  last_attempt_at: string;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface MailOutboxTable {
  id: Generated<number>;
  user_id: number | null;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface UserPreferencesTable {
  user_id: number;
  pref_key: string;
  enabled: number;
  updated_at: string;
}

export interface AccountDeletionRequestsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AccountsTables {
  users: UsersTable;
  access_tokens: AccessTokensTable;
  password_resets: PasswordResetsTable;
  two_factor_recovery_codes: RecoveryCodesTable;
  mail_outbox: MailOutboxTable;
  user_preferences: UserPreferencesTable;
  account_deletion_requests: AccountDeletionRequestsTable;
  reauthentication_attempts: ReauthenticationAttemptsTable;
}

declare module '../database.js' {
  /** The accounts tables join the database type when this module is loaded. */
  interface Database extends AccountsTables {}
}
