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
}

export interface PasswordResetsTable {
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
}

declare module '../database.js' {
  /** The accounts tables join the database type when this module is loaded. */
  interface Database extends AccountsTables {}
}
