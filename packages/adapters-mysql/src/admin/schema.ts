export interface AdminSessionsTable {
  /** SHA-256 (hex) of the cookie's random key: the key itself is never stored. */
  key_hash: string;
  /** The session's data as koa-session keeps it (JSON). */
  data: string;
  expires_at: string;
}

export interface AdminTables {
  admin_sessions: AdminSessionsTable;
}

declare module '../database.js' {
  /** The admin panel's tables join the database type when this module is loaded. */
  interface Database extends AdminTables {}
}
