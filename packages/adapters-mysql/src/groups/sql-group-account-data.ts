import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import { type Kysely, sql } from 'kysely';
import { chunks, mapped, ownedRows, ownedRowsWithPlace } from '../batches.js';
import type { Database } from '../database.js';
import { SurfaceRows } from '../surface-rows.js';
import { GROUP_TABLES } from '../surface-tables.js';
import { parseList } from '../json-list.js';

/**
 * The groups context's share of a user's data (docs/decisions/0093, 0030): memberships, join requests
 * and invitations, group posts, group comments, reactions to group posts (reactions to group comments
 * are exported by content with every comment_reactions row, and erased here).
 *
 * Erasure: a group whose only admin the user is passes to its longest-standing other member, or goes
 * with its content when nobody else is in it; the user's posts go with their threads; comments nobody
 * answered go, the others stay emptied under the tombstone; every counter that changes is recounted.
 */
export class SqlGroupAccountData implements AccountDataPart {
  readonly sections = ['group_memberships', 'group_posts', 'group_comments', 'group_post_reactions'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    switch (section) {
      case 'group_memberships':
        return ownedRowsWithPlace(
          db,
          { table: 'group_members', key: 'seq', placeId: 'group_id', placeTable: 'community_groups' },
          ['r.seq', 'r.group_id', 'p.name as group_name', 'p.privacy', 'r.role', 'r.joined_at'],
          userId,
        );
      case 'group_posts':
        return mapped(this.postRows(userId), (p) => ({ ...p, media: parseList(p.media), tags: parseList(p.tags) }));
      case 'group_comments':
        return ownedRows(db, 'group_comments', 'user_id', userId, 'all');
      default:
        return new SurfaceRows(db, GROUP_TABLES).reactions(userId);
    }
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const p of this.postRows(userId)) {
      for (const m of parseList(p.media)) yield { value: m, kind: 'posts', source: `group_post:${p.id}` };
    }
  }

  async erase(userId: number, at: Timestamp): Promise<void> {
    const db = this.db;
    const surface = new SurfaceRows(db, GROUP_TABLES);
    // Groups the user is the only admin of: handed over, or deleted when nobody else is in them.
    const adminOf = await db
      .selectFrom('group_members')
      .select('group_id')
      .where('user_id', '=', userId)
      .where('role', '=', 'admin')
      .execute();
    for (const { group_id } of adminOf) {
      const others = await db
        .selectFrom('group_members')
        .select(['user_id', 'role'])
        .where('group_id', '=', group_id)
        .where('user_id', '<>', userId)
        .orderBy('seq')
        .execute();
      if (others.some((o) => o.role === 'admin')) continue;
      if (others.length === 0) {
        await surface.eraseCommentReactionsOfPostsWhere('group_id', group_id);
        await db.deleteFrom('community_groups').where('id', '=', group_id).execute();
      } else {
        await db
          .updateTable('group_members')
          .set({ role: 'admin' })
          .where('group_id', '=', group_id)
          .where('user_id', '=', others[0].user_id)
          .execute();
      }
    }

    // Counters of other rows that change, read before the rows go.
    const touchedGroups = new Set<number>();
    for (const r of await db.selectFrom('group_members').select('group_id').where('user_id', '=', userId).execute())
      touchedGroups.add(r.group_id);
    for (const r of await db.selectFrom('group_posts').select('group_id').where('user_id', '=', userId).execute())
      touchedGroups.add(r.group_id);
    await surface.erase(userId, at, await surface.touchedBy(userId));

    await db.deleteFrom('group_members').where('user_id', '=', userId).execute();
    await db.deleteFrom('group_join_requests').where('user_id', '=', userId).execute();
    await db
      .deleteFrom('group_invitations')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('invited_by', '=', userId)]))
      .execute();

    for (const ids of chunks([...touchedGroups])) {
      await db
        .updateTable('community_groups')
        .set({
          members_count: sql`(select count(*) from group_members where group_members.group_id = community_groups.id)`,
          posts_count: sql`(select count(*) from group_posts where group_posts.group_id = community_groups.id)`,
        })
        .where('id', 'in', ids)
        .execute();
    }
  }

  private postRows(userId: number) {
    return ownedRows(this.db, 'group_posts', 'user_id', userId, 'all');
  }
}
