import type { Generated } from 'kysely';

export interface PushOutboxTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  /** The push message as JSON: title, body and data. */
  payload: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string;
  created_at: string;
}

declare module '../database.js' {
  /** The push outbox joins the database type when this module is loaded. */
  interface Database {
    push_outbox: PushOutboxTable;
  }
}
