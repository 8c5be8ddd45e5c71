import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportedPosts, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { BATCH, keyset, mapped, ownedRows } from '../batches.js';
import type { CounterContribution } from '../counter-contributions.js';
import type { Database } from '../database.js';
import { SurfaceRows } from '../surface-rows.js';
import { WALL_TABLES } from '../surface-tables.js';
import { toPostRecord } from './post-view-columns.js';

/**
 * The content context's share of a user's data (docs/decisions/0090): posts, comments, reactions,
 * bookmarks, shares and stories. Deletes are explicit rather than left to `on delete cascade`: the
 * counters of other people's posts and comments must follow what goes, and comments others answered
 * stay in the thread, emptied, under the tombstone. Only reactions to post comments are this
 * context's; group and page comments' reactions are their contexts'.
 */
export class SqlContentAccountData implements AccountDataPart, ExportedPosts {
  readonly sections = ['posts', 'comments', 'reactions', 'comment_reactions', 'bookmarks', 'shares', 'stories'] as const;

  /** `contributions`: other modules' rows that move the wall's counters (federation's, docs/decisions/0226). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly contributions: readonly CounterContribution[] = [],
  ) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    switch (section) {
      case 'posts':
        return mapped(this.postRows(userId), (p) => ({ ...toPostRecord(p) }));
      case 'comments':
        return ownedRows(db, 'comments', 'user_id', userId, 'all');
      case 'reactions':
        return new SurfaceRows(db, WALL_TABLES).reactions(userId);
      case 'comment_reactions':
        // Every kind of comment the user reacted to (post, group, page): the table is this context's.
        return keyset(
          (after) =>
            db
              .selectFrom('comment_reactions')
              .select(['comment_type', 'comment_id', 'reaction_type', 'created_at'])
              .where('user_id', '=', userId)
              .where('comment_id', '>', after)
              .orderBy('comment_id')
              .orderBy('comment_type')
              .limit(BATCH)
              .execute(),
          (r) => r.comment_id,
        );
      case 'bookmarks':
      case 'shares':
        return ownedRows(db, section, 'user_id', userId, ['post_id', 'created_at'], { key: 'post_id' });
      default:
        return ownedRows(db, 'stories', 'user_id', userId, 'all');
    }
  }

  posts(userId: number) {
    return mapped(this.postRows(userId), (p) => {
      const r = toPostRecord(p);
      return {
        id: r.id,
        content: r.content,
        media: r.media,
        media_type: r.media_type,
        tags: r.tags,
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
    });
  }

  /** Post media and stories. */
  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const p of this.postRows(userId)) {
      for (const m of toPostRecord(p).media) yield { value: m, kind: 'posts', source: `post:${p.id}` };
    }
    for await (const s of ownedRows(this.db, 'stories', 'user_id', userId, ['id', 'media'])) {
      yield { value: String(s.media), kind: 'stories', source: `story:${s.id}` };
    }
  }

  async erase(userId: number, at: Timestamp): Promise<void> {
    const db = this.db;
    const surface = new SurfaceRows(db, WALL_TABLES, this.contributions);
    // Others' posts and comments whose counters change, read before the user's rows go.
    const touched = await surface.touchedBy(userId);
    // Others' bookmarks, shares and wall entries of the own posts: post_id references no table
    // (docs/decisions/0195, 0230).
    const ownPosts = db.selectFrom('posts').select('id').where('user_id', '=', userId);
    for (const table of ['shares', 'bookmarks', 'wall_entries'] as const) {
      await db.deleteFrom(table).where('post_type', '=', 'post').where('post_id', 'in', ownPosts).execute();
    }
    for (const table of ['shares', 'bookmarks', 'wall_entries', 'stories'] as const) {
      await db.deleteFrom(table).where('user_id', '=', userId).execute();
    }
    await surface.erase(userId, at, touched);
  }

  private postRows(userId: number) {
    return ownedRows(this.db, 'posts', 'user_id', userId, 'all');
  }
}
