import type { Timestamp } from '@plaza/domain';
import type { ReactionSummaries } from '@plaza/domain/messaging';
import type { Kysely } from 'kysely';
import { insertOrUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';

export type ReactionTable = 'private_message_reactions' | 'group_message_reactions';

/** Adds or replaces one user's reaction on a message, in one statement (on the key message_id, user_id). */
export async function putReaction(
  db: Kysely<Database>,
  dialect: SqlDialect,
  table: ReactionTable,
  messageId: number,
  userId: number,
  reaction: string,
  at: Timestamp,
) {
  const row = { message_id: messageId, user_id: userId, reaction_type: reaction, created_at: at };
  await insertOrUpdate(db, dialect, table, [row], ['message_id', 'user_id'], { reaction_type: reaction });
}

export async function removeReaction(db: Kysely<Database>, table: ReactionTable, messageId: number, userId: number) {
  const result = await db.deleteFrom(table).where('message_id', '=', messageId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Counts per message and type, and the viewer's own reactions: two queries for any page. */
export async function reactionSummaries(
  db: Kysely<Database>,
  table: ReactionTable,
  ids: number[],
  viewerId: number,
): Promise<ReactionSummaries> {
  const counts = new Map<number, Record<string, number>>();
  const mine = new Map<number, string>();
  if (ids.length === 0) return { counts, mine };
  const rows = await db
    .selectFrom(table)
    .select(['message_id', 'reaction_type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('message_id', 'in', ids)
    .groupBy(['message_id', 'reaction_type'])
    .execute();
  for (const r of rows) {
    const id = Number(r.message_id);
    const entry = counts.get(id) ?? {};
    entry[r.reaction_type] = Number(r.n);
    counts.set(id, entry);
  }
  const own = await db
    .selectFrom(table)
    .select(['message_id', 'reaction_type'])
    .where('user_id', '=', viewerId)
    .where('message_id', 'in', ids)
    .execute();
  for (const r of own) mine.set(Number(r.message_id), r.reaction_type);
  return { counts, mine };
}
