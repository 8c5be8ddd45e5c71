import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type { ConversationSummary, NewPrivateMessage, PrivateMessageRecord, PrivateMessageRepository } from '@plaza/domain/messaging';
import { sql, type Kysely, type Selectable } from 'kysely';
import { insertedId, insertOrUpdate, type SqlDialect } from '../dialect.js';
import { containsText } from './text-search.js';
import type { Database } from '../database.js';
import type { PrivateMessagesTable } from './schema.js';
import { putReaction, reactionSummaries, removeReaction } from './reactions.js';
import { toUserRecord } from '../accounts/sql-user-repository.js';
import { prepared } from '../prepared.js';
import { pagedWithTotalInOne } from '../paged-list.js';

function toRecord(row: Selectable<PrivateMessagesTable>): PrivateMessageRecord {
  return {
    id: Number(row.id),
    sender_id: Number(row.sender_id),
    receiver_id: Number(row.receiver_id),
    content: row.content,
    media: row.media,
    media_type: row.media_type,
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    is_read: Boolean(row.is_read),
    created_at: row.created_at,
    edited_at: row.edited_at,
    expires_at: row.expires_at,
  };
}

const pair = (a: number, b: number) => ({ user_low: Math.min(a, b), user_high: Math.max(a, b) });

const CONVERSATION_KEY = ['user_id', 'peer_id'];

/** Both sides of a conversation in primary-key order, so that concurrent writers lock them in one order. */
function sides(a: number, b: number) {
  const [low, high] = a < b ? [a, b] : [b, a];
  return [
    { user_id: low, peer_id: high },
    { user_id: high, peer_id: low },
  ];
}

export class SqlPrivateMessageRepository implements PrivateMessageRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async create(m: NewPrivateMessage) {
    const values = { ...m, ...pair(m.sender_id, m.receiver_id) };
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(await trx.insertInto('private_messages').values(values).executeTakeFirstOrThrow());
      const rows = sides(m.sender_id, m.receiver_id).map((s) => ({ ...s, last_message_id: id, last_message_at: m.created_at }));
      // Concurrent sends may commit out of id order: never move the last message backwards.
      // last_message_at comes first because MySQL evaluates later assignments with the new values.
      const newer = sql<boolean>`coalesce(last_message_id, 0) < ${id}`;
      await insertOrUpdate(trx, this.dialect, 'conversations', rows, CONVERSATION_KEY, {
        last_message_at: sql`case when ${newer} then ${m.created_at} else last_message_at end`,
        last_message_id: sql`case when ${newer} then ${id} else last_message_id end`,
      });
      return { ...m, id, is_read: false, edited_at: null };
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('private_messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return (await this.db.selectFrom('private_messages').selectAll().where('id', 'in', ids).execute()).map(toRecord);
  }

  async isVisibleTo(m: PrivateMessageRecord, userId: number, now: Timestamp) {
    if (m.sender_id !== userId && m.receiver_id !== userId) return false;
    if (m.expires_at !== null && m.expires_at <= now) return false;
    const peer = m.sender_id === userId ? m.receiver_id : m.sender_id;
    return m.id > (await this.clearedBefore(userId, peer));
  }

  // Every thread and every send starts here: built once (prepared.ts). Both accounts by primary key,
  // each row carrying the side's conversation row (at most one, by its primary key) or nulls.
  private readonly conversationWithQuery = prepared((userId: number, peerId: number) =>
    this.db
      .selectFrom('users as u')
      .leftJoin('conversations as c', (join) => join.on('c.user_id', '=', userId).on('c.peer_id', '=', peerId))
      .selectAll('u')
      .select(['c.cleared_before_id as conversation_cleared_before_id', 'c.auto_delete_time as conversation_auto_delete_time'])
      .where('u.id', 'in', [peerId, userId]),
  );

  async conversationWith(userId: number, peerId: number) {
    const rows = await this.conversationWithQuery(this.db, userId, peerId);
    // The conversation's columns are taken off each row before it becomes an account record.
    const accounts = rows.map(({ conversation_cleared_before_id, conversation_auto_delete_time, ...user }) => ({
      user: toUserRecord(user),
      clearedBeforeId: Number(conversation_cleared_before_id ?? 0),
      autoDeleteMinutes: Number(conversation_auto_delete_time ?? 0),
    }));
    const peer = accounts.find((a) => a.user.id === peerId);
    if (!peer) return null;
    const { clearedBeforeId, autoDeleteMinutes } = peer;
    return { peer: peer.user, own: accounts.find((a) => a.user.id === userId)?.user ?? null, clearedBeforeId, autoDeleteMinutes };
  }

  async thread(userId: number, peerId: number, now: Timestamp, page: PageRequest, q?: string, clearedBeforeId?: number) {
    const cleared = clearedBeforeId ?? (await this.clearedBefore(userId, peerId));
    const p = pair(userId, peerId);
    let base = this.db
      .selectFrom('private_messages')
      .where('user_low', '=', p.user_low)
      .where('user_high', '=', p.user_high)
      .where('id', '>', cleared)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    if (q) base = base.where(containsText('content', q));
    // Read on every opening of a conversation: the page and its total in one round trip.
    const { rows, total } = await pagedWithTotalInOne(base, page, (filtered) => filtered.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toRecord), total };
  }

  async markRead(userId: number, peerId: number) {
    await this.db
      .updateTable('private_messages')
      .set({ is_read: 1 })
      .where('receiver_id', '=', userId)
      .where('is_read', '=', 0)
      .where('sender_id', '=', peerId)
      .execute();
  }

  async conversations(userId: number, page: PageRequest, q?: string) {
    let base = this.db
      .selectFrom('conversations as c')
      .where('c.user_id', '=', userId)
      .where('c.last_message_id', 'is not', null)
      .whereRef('c.last_message_id', '>', 'c.cleared_before_id');
    if (q)
      base = base.where((eb) =>
        eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'c.peer_id').where(containsText('u.username', q))),
      );
    const rows = await base
      .select(['c.peer_id', 'c.last_message_id', 'c.cleared_before_id'])
      .orderBy('c.last_message_at', 'desc')
      .orderBy('c.last_message_id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute();
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (rows.length === 0) return { items: [], total: Number(count.n) };
    const last = new Map((await this.findByIds(rows.map((r) => Number(r.last_message_id)))).map((m) => [m.id, m]));
    const unread = await this.db
      .selectFrom('private_messages as m')
      .innerJoin('conversations as c', (j) => j.onRef('c.user_id', '=', 'm.receiver_id').onRef('c.peer_id', '=', 'm.sender_id'))
      .select(['m.sender_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('m.receiver_id', '=', userId)
      .where('m.is_read', '=', 0)
      .where(
        'm.sender_id',
        'in',
        rows.map((r) => Number(r.peer_id)),
      )
      .whereRef('m.id', '>', 'c.cleared_before_id')
      .groupBy('m.sender_id')
      .execute();
    const unreadBy = new Map(unread.map((u) => [Number(u.sender_id), Number(u.n)]));
    const items: ConversationSummary[] = rows.flatMap((r) => {
      const message = last.get(Number(r.last_message_id));
      return message ? [{ peer_id: Number(r.peer_id), last_message: message, unread_count: unreadBy.get(Number(r.peer_id)) ?? 0 }] : [];
    });
    return { items, total: Number(count.n) };
  }

  async updateContent(id: number, content: string, editedAt: Timestamp) {
    await this.db.updateTable('private_messages').set({ content, edited_at: editedAt }).where('id', '=', id).execute();
  }

  async delete(id: number) {
    const m = await this.findById(id);
    if (!m) return;
    await this.db.deleteFrom('private_messages').where('id', '=', id).execute();
    await this.refreshLast(m.sender_id, m.receiver_id);
  }

  async clear(userId: number, peerId: number) {
    await this.ensureConversation(userId, peerId);
    const p = pair(userId, peerId);
    const max = await this.db
      .selectFrom('private_messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('user_low', '=', p.user_low)
      .where('user_high', '=', p.user_high)
      .executeTakeFirst();
    await this.db
      .updateTable('conversations')
      .set({ cleared_before_id: Number(max?.id ?? 0) })
      .where('user_id', '=', userId)
      .where('peer_id', '=', peerId)
      .execute();
  }

  async autoDeleteMinutes(userId: number, peerId: number) {
    const row = await this.db
      .selectFrom('conversations')
      .select('auto_delete_time')
      .where('user_id', '=', userId)
      .where('peer_id', '=', peerId)
      .executeTakeFirst();
    return Number(row?.auto_delete_time ?? 0);
  }

  async setAutoDeleteMinutes(userId: number, peerId: number, minutes: number) {
    const setting = { auto_delete_time: minutes };
    await insertOrUpdate(
      this.db,
      this.dialect,
      'conversations',
      sides(userId, peerId).map((s) => ({ ...s, ...setting })),
      CONVERSATION_KEY,
      setting,
    );
  }

  react(messageId: number, userId: number, reaction: string, at: Timestamp) {
    return putReaction(this.db, this.dialect, 'private_message_reactions', messageId, userId, reaction, at);
  }

  unreact(messageId: number, userId: number) {
    return removeReaction(this.db, 'private_message_reactions', messageId, userId);
  }

  reactions(messageIds: number[], viewerId: number) {
    return reactionSummaries(this.db, 'private_message_reactions', messageIds, viewerId);
  }

  /** Conversation by conversation, each in a short transaction: the messages and both sides' pointers move together. */
  async deleteExpired(now: Timestamp) {
    const pairs = await this.db
      .selectFrom('private_messages')
      .select(['user_low', 'user_high'])
      .distinct()
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', now)
      .execute();
    let deleted = 0;
    for (const p of pairs) {
      const [low, high] = [Number(p.user_low), Number(p.user_high)];
      deleted += await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('private_messages')
          .where('user_low', '=', low)
          .where('user_high', '=', high)
          .where('expires_at', 'is not', null)
          .where('expires_at', '<=', now)
          .executeTakeFirst();
        await this.refreshLast(low, high);
        return Number(result.numDeletedRows);
      });
    }
    return deleted;
  }

  private async clearedBefore(userId: number, peerId: number) {
    const row = await this.db
      .selectFrom('conversations')
      .select('cleared_before_id')
      .where('user_id', '=', userId)
      .where('peer_id', '=', peerId)
      .executeTakeFirst();
    return Number(row?.cleared_before_id ?? 0);
  }

  /**
   * Both sides exist afterwards. An upsert, not an insert-ignore: it takes the rows' write locks at
   * once, where insert-ignore takes shared ones that the update after it would have to upgrade, a
   * deadlock with a concurrent send inside a unit of work.
   */
  private async ensureConversation(a: number, b: number) {
    await insertOrUpdate(this.db, this.dialect, 'conversations', sides(a, b), CONVERSATION_KEY, {
      cleared_before_id: sql`cleared_before_id`,
    });
  }

  /**
   * After deletions: both sides point at the newest remaining message, or at none. On MySQL the read
   * locks: inside a unit of work a plain read would see the unit's snapshot and could move the pointer
   * back past a message sent meanwhile; the locking read waits for such a send and sees it. It comes
   * before the conversation rows are touched, as a send takes them last.
   */
  private async refreshLast(a: number, b: number) {
    const p = pair(a, b);
    let latest = this.db
      .selectFrom('private_messages')
      .select(['id', 'created_at'])
      .where('user_low', '=', p.user_low)
      .where('user_high', '=', p.user_high)
      .orderBy('id', 'desc')
      .limit(1);
    if (this.dialect === 'mysql') latest = latest.forUpdate();
    const last = await latest.executeTakeFirst();
    await this.db
      .updateTable('conversations')
      .set({ last_message_id: last ? Number(last.id) : null, last_message_at: last?.created_at ?? null })
      .where((eb) =>
        eb.or([eb.and([eb('user_id', '=', a), eb('peer_id', '=', b)]), eb.and([eb('user_id', '=', b), eb('peer_id', '=', a)])]),
      )
      .execute();
  }
}
