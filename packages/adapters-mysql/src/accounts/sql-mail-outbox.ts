import type { Timestamp } from '@plaza/domain';
import type { MailMessage, MailOutbox, OutboxEntry, OutboxStatus } from '@plaza/domain/accounts';
import type { Kysely, Selectable } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import type { MailOutboxTable } from './schema.js';

function toEntry(row: Selectable<MailOutboxTable>): OutboxEntry {
  const message: MailMessage = { to: row.recipient, subject: row.subject, text: row.text_body };
  if (row.html_body !== null) message.html = row.html_body;
  return {
    id: row.id,
    user_id: row.user_id,
    message,
    status: row.status as OutboxStatus,
    attempts: Number(row.attempts),
    next_attempt_at: row.next_attempt_at,
    last_error: row.last_error,
    sent_at: row.sent_at,
  };
}

export class SqlMailOutbox implements MailOutbox {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: { user_id: number | null; message: MailMessage; created_at: Timestamp }) {
    const result = await this.db
      .insertInto('mail_outbox')
      .values({
        user_id: entry.user_id,
        recipient: entry.message.to,
        subject: entry.message.subject,
        text_body: entry.message.text,
        html_body: entry.message.html ?? null,
        status: 'pending',
        next_attempt_at: entry.created_at,
        created_at: entry.created_at,
      })
      .executeTakeFirstOrThrow();
    return insertedId(result);
  }

  async find(id: number) {
    const row = await this.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async due(now: Timestamp, limit: number) {
    // mail_outbox_due serves the status and due-time filter and the order.
    const rows = await this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async claim(id: number, now: Timestamp, leaseUntil: Timestamp) {
    const result = await this.db
      .updateTable('mail_outbox')
      .set({ lease_until: leaseUntil })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    return this.find(id);
  }

  async markSent(id: number, at: Timestamp) {
    await this.db.updateTable('mail_outbox').set({ status: 'sent', sent_at: at, lease_until: null }).where('id', '=', id).execute();
  }

  async markFailed(id: number, error: string, retryAt: Timestamp | null) {
    await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_error: error.slice(0, 1000),
        lease_until: null,
        ...(retryAt === null ? { status: 'failed' } : { next_attempt_at: retryAt }),
      }))
      .where('id', '=', id)
      .execute();
  }

  async deleteOfUser(userId: number) {
    await this.db.deleteFrom('mail_outbox').where('user_id', '=', userId).execute();
  }
}
