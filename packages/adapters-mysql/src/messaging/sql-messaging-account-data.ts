import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { BATCH, keyset, mapped, ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/**
 * The messaging context's share of a user's data. Messages stay in the other side's thread under the
 * tombstone (docs/decisions/0090); the account's own side of every conversation and group goes.
 */
export class SqlMessagingAccountData implements AccountDataPart {
  readonly sections = ['messages', 'message_group_memberships', 'group_messages'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    switch (section) {
      case 'messages':
        return this.messages(userId);
      case 'message_group_memberships':
        return keyset(
          (after) =>
            db
              .selectFrom('message_group_members as m')
              .innerJoin('message_groups as g', 'g.id', 'm.group_id')
              .select(['m.group_id', 'g.name', 'm.role', 'm.joined_at'])
              .where('m.user_id', '=', userId)
              .where('m.group_id', '>', after)
              .orderBy('m.group_id')
              .limit(BATCH)
              .execute(),
          (r) => r.group_id,
        );
      default:
        return ownedRows(db, 'group_messages', 'sender_id', userId, [
          'id',
          'group_id',
          'content',
          'media',
          'media_type',
          'parent_id',
          'created_at',
          'edited_at',
        ]);
    }
  }

  /** Media the user sent, in private and in group messages. */
  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for (const [table, source] of [
      ['private_messages', 'message'],
      ['group_messages', 'group_message'],
    ] as const) {
      for await (const m of ownedRows(this.db, table, 'sender_id', userId, ['id', 'media'], { present: 'media' })) {
        yield { value: m.media!, kind: 'messages', source: `${source}:${m.id}` };
      }
    }
  }

  async erase(userId: number): Promise<void> {
    const db = this.db;
    await db.deleteFrom('typing_indicators').where('user_id', '=', userId).execute();
    await db.deleteFrom('private_message_reactions').where('user_id', '=', userId).execute();
    await db.deleteFrom('group_message_reactions').where('user_id', '=', userId).execute();
    await db.deleteFrom('conversations').where('user_id', '=', userId).execute();
    await db
      .deleteFrom('message_group_requests')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('requested_by', '=', userId)]))
      .execute();
    const memberships = await db.selectFrom('message_group_members').select('group_id').where('user_id', '=', userId).execute();
    await db.deleteFrom('message_group_members').where('user_id', '=', userId).execute();
    for (const m of memberships) await this.keepGroupAdministered(m.group_id);
  }

  /** What the user sent, then what they received: each pass follows one index. */
  private async *messages(userId: number): AsyncGenerator<ExportRow> {
    for (const [column, direction] of [
      ['sender_id', 'sent'],
      ['receiver_id', 'received'],
    ] as const) {
      yield* mapped(
        ownedRows(this.db, 'private_messages', column, userId, [
          'id',
          'sender_id',
          'receiver_id',
          'content',
          'media',
          'media_type',
          'parent_id',
          'is_read',
          'created_at',
          'edited_at',
        ]),
        (m) => ({ ...m, is_read: Boolean(m.is_read), direction }),
      );
    }
  }

  /** A group left without an admin gets its oldest member as admin; a group left empty goes. */
  private async keepGroupAdministered(groupId: number): Promise<void> {
    const members = await this.db
      .selectFrom('message_group_members')
      .select(['user_id', 'role'])
      .where('group_id', '=', groupId)
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    if (members.length === 0) {
      await this.db.deleteFrom('message_groups').where('id', '=', groupId).execute();
      return;
    }
    if (!members.some((m) => m.role === 'admin')) {
      await this.db
        .updateTable('message_group_members')
        .set({ role: 'admin' })
        .where('group_id', '=', groupId)
        .where('user_id', '=', members[0].user_id)
        .execute();
    }
  }
}
