import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type {
  GroupMemberRecord,
  GroupMessageRecord,
  GroupRequestRecord,
  GroupRole,
  MessageGroupRecord,
  MessageGroupRepository,
  NewGroupMessage,
} from '@plaza/domain/messaging';
import type { Kysely, Selectable } from 'kysely';
import { insertedId, insertIfAbsent, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { GroupMessagesTable, MessageGroupsTable } from './schema.js';
import { putReaction, reactionSummaries, removeReaction } from './reactions.js';
import { containsText } from './text-search.js';

function toGroup(row: Selectable<MessageGroupsTable>): MessageGroupRecord {
  return {
    ...row,
    id: Number(row.id),
    creator_id: Number(row.creator_id),
    auto_delete_time: Number(row.auto_delete_time),
    last_message_id: row.last_message_id === null ? null : Number(row.last_message_id),
  };
}

function toMessage(row: Selectable<GroupMessagesTable>): GroupMessageRecord {
  return {
    ...row,
    id: Number(row.id),
    group_id: Number(row.group_id),
    sender_id: Number(row.sender_id),
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
  };
}

export class SqlMessageGroupRepository implements MessageGroupRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lockGroup(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'message_groups', id);
  }

  async create(
    group: { name: string; avatar: string | null; creator_id: number; created_at: Timestamp },
    members: { user_id: number; role: GroupRole }[],
  ) {
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(
        await trx
          .insertInto('message_groups')
          .values({ ...group, last_message_id: null, last_activity_at: group.created_at })
          .executeTakeFirstOrThrow(),
      );
      if (members.length) {
        await trx
          .insertInto('message_group_members')
          .values(members.map((m) => ({ group_id: id, user_id: m.user_id, role: m.role, joined_at: group.created_at })))
          .execute();
      }
      return id;
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('message_groups').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toGroup(row) : null;
  }

  async update(id: number, patch: Partial<Pick<MessageGroupRecord, 'name' | 'avatar' | 'auto_delete_time'>>) {
    await this.db.updateTable('message_groups').set(patch).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('message_groups').where('id', '=', id).execute();
  }

  async groupsOf(userId: number, page: PageRequest, q?: string) {
    let base = this.db
      .selectFrom('message_group_members as m')
      .innerJoin('message_groups as g', 'g.id', 'm.group_id')
      .where('m.user_id', '=', userId);
    if (q) base = base.where(containsText('g.name', q));
    const rows = await base
      .selectAll('g')
      .orderBy('g.last_activity_at', 'desc')
      .orderBy('g.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute();
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { items: rows.map(toGroup), total: Number(count.n) };
  }

  async memberCounts(groupIds: number[]) {
    if (groupIds.length === 0) return new Map<number, number>();
    const rows = await this.db
      .selectFrom('message_group_members')
      .select(['group_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('group_id', 'in', groupIds)
      .groupBy('group_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.group_id), Number(r.n)]));
  }

  async membership(groupId: number, userId: number) {
    const row = await this.db
      .selectFrom('message_group_members')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toMember(row) : null;
  }

  async members(groupId: number) {
    const rows = await this.db
      .selectFrom('message_group_members')
      .selectAll()
      .where('group_id', '=', groupId)
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    return rows.map(toMember);
  }

  async addMember(groupId: number, userId: number, role: GroupRole, at: Timestamp) {
    return insertIfAbsent(this.db, 'message_group_members', { group_id: groupId, user_id: userId, role, joined_at: at });
  }

  async removeMember(groupId: number, userId: number) {
    const result = await this.db
      .deleteFrom('message_group_members')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setRole(groupId: number, userId: number, role: GroupRole) {
    await this.db
      .updateTable('message_group_members')
      .set({ role })
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .execute();
  }

  async setEveryoneRole(groupId: number, role: GroupRole) {
    await this.db.updateTable('message_group_members').set({ role }).where('group_id', '=', groupId).execute();
  }

  async requests(groupId: number) {
    const rows = await this.db.selectFrom('message_group_requests').selectAll().where('group_id', '=', groupId).orderBy('id').execute();
    return rows.map(toRequest);
  }

  async findRequest(id: number) {
    const row = await this.db.selectFrom('message_group_requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRequest(row) : null;
  }

  async createRequest(groupId: number, userId: number, requestedBy: number, at: Timestamp) {
    // One request per user and group: a second invitation finds the first.
    await insertIfAbsent(this.db, 'message_group_requests', {
      group_id: groupId,
      user_id: userId,
      requested_by: requestedBy,
      created_at: at,
    });
    const row = await this.db
      .selectFrom('message_group_requests')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return toRequest(row);
  }

  async deleteRequest(id: number) {
    await this.db.deleteFrom('message_group_requests').where('id', '=', id).execute();
  }

  /**
   * The message and the group's last message change together. The group's row is locked first: the
   * insert's foreign-key check would otherwise take a shared lock on it that the update must then
   * upgrade, and two senders doing that at once deadlock.
   */
  async createMessage(m: NewGroupMessage) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'message_groups', m.group_id);
      const id = insertedId(await trx.insertInto('group_messages').values(m).executeTakeFirstOrThrow());
      // Never move the last message backwards (a message of an earlier id committed later).
      await trx
        .updateTable('message_groups')
        .set({ last_message_id: id, last_activity_at: m.created_at })
        .where('id', '=', m.group_id)
        .where((eb) => eb.or([eb('last_message_id', 'is', null), eb('last_message_id', '<', id)]))
        .execute();
      return { ...m, id, edited_at: null };
    });
  }

  async findMessage(id: number) {
    const row = await this.db.selectFrom('group_messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  async findMessages(ids: number[]) {
    if (ids.length === 0) return [];
    return (await this.db.selectFrom('group_messages').selectAll().where('id', 'in', ids).execute()).map(toMessage);
  }

  async messages(groupId: number, now: Timestamp, page: PageRequest) {
    const base = this.db
      .selectFrom('group_messages')
      .where('group_id', '=', groupId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    const rows = await base.selectAll().orderBy('id', 'desc').limit(page.perPage).offset(offsetOf(page)).execute();
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { items: rows.map(toMessage).reverse(), total: Number(count.n) };
  }

  async updateMessage(id: number, content: string, editedAt: Timestamp) {
    await this.db.updateTable('group_messages').set({ content, edited_at: editedAt }).where('id', '=', id).execute();
  }

  /** The message goes and the group's last message moves back together, under the group's lock as a send takes it. */
  async deleteMessage(id: number) {
    const m = await this.findMessage(id);
    if (!m) return;
    await this.db.transaction().execute(async () => {
      await lockRowForUpdate(this.db, this.dialect, 'message_groups', m.group_id);
      await this.db.deleteFrom('group_messages').where('id', '=', id).execute();
      await this.refreshLast(m.group_id);
    });
  }

  react(messageId: number, userId: number, reaction: string, at: Timestamp) {
    return putReaction(this.db, this.dialect, 'group_message_reactions', messageId, userId, reaction, at);
  }

  unreact(messageId: number, userId: number) {
    return removeReaction(this.db, 'group_message_reactions', messageId, userId);
  }

  reactions(messageIds: number[], viewerId: number) {
    return reactionSummaries(this.db, 'group_message_reactions', messageIds, viewerId);
  }

  /**
   * Group by group, each in a short transaction of its own: the group's expired messages go and its
   * last-message pointer moves with them, or neither does. One transaction across groups would hold
   * a range of locks while senders wait; per group, both this and a send touch the group's messages
   * before the group's row, so they queue instead of deadlocking.
   */
  async deleteExpired(now: Timestamp) {
    const groups = await this.db
      .selectFrom('group_messages')
      .select('group_id')
      .distinct()
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', now)
      .execute();
    let deleted = 0;
    for (const g of groups) {
      const groupId = Number(g.group_id);
      deleted += await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('group_messages')
          .where('group_id', '=', groupId)
          .where('expires_at', 'is not', null)
          .where('expires_at', '<=', now)
          .executeTakeFirst();
        await this.refreshLast(groupId);
        return Number(result.numDeletedRows);
      });
    }
    return deleted;
  }

  /**
   * One statement: inside a transaction, the subquery of an UPDATE reads the latest committed rows,
   * where a separate SELECT would read the transaction's snapshot (on MySQL, taken at its first read)
   * and could move the pointer back past a message sent meanwhile.
   */
  private async refreshLast(groupId: number) {
    await this.db
      .updateTable('message_groups')
      .set((eb) => ({
        last_message_id: eb
          .selectFrom('group_messages')
          .select((s) => s.fn.max('id').as('id'))
          .where('group_id', '=', groupId),
      }))
      .where('id', '=', groupId)
      .execute();
  }
}

function toMember(row: { group_id: number; user_id: number; role: string; joined_at: string }): GroupMemberRecord {
  return { group_id: Number(row.group_id), user_id: Number(row.user_id), role: row.role as GroupRole, joined_at: row.joined_at };
}

function toRequest(row: { id: number; group_id: number; user_id: number; requested_by: number; created_at: string }): GroupRequestRecord {
  return {
    id: Number(row.id),
    group_id: Number(row.group_id),
    user_id: Number(row.user_id),
    requested_by: Number(row.requested_by),
    created_at: row.created_at,
  };
}
