import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import { chunks, ownedRows, ownedRowsWithPlace } from '../batches.js';
import type { Database } from '../database.js';
import { SurfaceRows } from '../surface-rows.js';
import { PAGE_TABLES } from '../surface-tables.js';

/** A user's seats on page teams and follows of pages, one per page, each keyed by its page. */
const TEAM_SEATS = { table: 'page_admins', key: 'page_id', placeId: 'page_id', placeTable: 'pages' } as const;
const FOLLOWS = { table: 'page_follows', key: 'page_id', placeId: 'page_id', placeTable: 'pages' } as const;

/**
 * The pages context's share of a user's data: the pages the user is on the team of, the pages they
 * follow, their page posts, comments and reactions. On erasure, what the user wrote goes with what
 * hangs on it, the counters of others' pages, posts and comments follow, and a page the user leaves
 * without an admin passes to its oldest remaining member, or goes when nobody is left (docs/decisions/0035).
 */
export class SqlPageAccountData implements AccountDataPart {
  readonly sections = ['page_team', 'page_follows', 'page_posts', 'page_comments', 'page_reactions'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    switch (section) {
      case 'page_team':
        return ownedRowsWithPlace(db, TEAM_SEATS, ['r.page_id', 'p.name as page_name', 'r.role', 'r.created_at'], userId);
      case 'page_follows':
        return ownedRowsWithPlace(db, FOLLOWS, ['r.page_id', 'p.name as page_name', 'r.created_at'], userId);
      case 'page_posts':
        return ownedRows(db, 'page_posts', 'user_id', userId, [
          'id',
          'page_id',
          'content',
          'media',
          'media_type',
          'created_at',
          'updated_at',
        ]);
      case 'page_comments':
        return ownedRows(db, 'page_comments', 'user_id', userId, ['id', 'post_id', 'content', 'created_at', 'updated_at']);
      default:
        return new SurfaceRows(db, PAGE_TABLES).reactions(userId);
    }
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const p of ownedRows(this.db, 'page_posts', 'user_id', userId, ['id', 'media'], { present: 'media' })) {
      yield { value: String(p.media), kind: 'posts', source: `page_post:${p.id}` };
    }
  }

  async erase(userId: number, at: Timestamp): Promise<void> {
    const db = this.db;
    const surface = new SurfaceRows(db, PAGE_TABLES);
    // What others own and whose counters change, read before the user's rows go.
    const touched = await surface.touchedBy(userId);
    const followed = (await db.selectFrom('page_follows').select('page_id').where('user_id', '=', userId).execute()).map((r) => r.page_id);
    const team = (await db.selectFrom('page_admins').select('page_id').where('user_id', '=', userId).execute()).map((r) => r.page_id);

    await surface.erase(userId, at, touched);
    await db.deleteFrom('page_follows').where('user_id', '=', userId).execute();
    await db.deleteFrom('page_admins').where('user_id', '=', userId).execute();

    // Pages the user ran: the oldest remaining member becomes admin where no admin is left; a page
    // with nobody left goes with everything on it.
    for (const pageId of team) {
      const members = await db
        .selectFrom('page_admins')
        .select(['user_id', 'role'])
        .where('page_id', '=', pageId)
        .orderBy('created_at')
        .orderBy('user_id')
        .execute();
      if (members.length === 0) {
        await surface.eraseCommentReactionsOfPostsWhere('page_id', pageId);
        await db.deleteFrom('pages').where('id', '=', pageId).execute();
      } else if (!members.some((m) => m.role === 'admin')) {
        await db
          .updateTable('page_admins')
          .set({ role: 'admin' })
          .where('page_id', '=', pageId)
          .where('user_id', '=', members[0].user_id)
          .execute();
      }
    }

    for (const ids of chunks(followed)) {
      await db
        .updateTable('pages')
        .set({ followers_count: sql`(select count(*) from page_follows where page_follows.page_id = pages.id)` })
        .where('id', 'in', ids)
        .execute();
    }
  }
}
