import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import { BATCH, chunks, keyset, ownedRows } from '../batches.js';
import type { Database } from '../database.js';

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
        return keyset(
          (after) =>
            db
              .selectFrom('page_admins as a')
              .innerJoin('pages as p', 'p.id', 'a.page_id')
              .select(['a.page_id', 'p.name as page_name', 'a.role', 'a.created_at'])
              .where('a.user_id', '=', userId)
              .where('a.page_id', '>', after)
              .orderBy('a.page_id')
              .limit(BATCH)
              .execute(),
          (r) => r.page_id,
        );
      case 'page_follows':
        return keyset(
          (after) =>
            db
              .selectFrom('page_follows as f')
              .innerJoin('pages as p', 'p.id', 'f.page_id')
              .select(['f.page_id', 'p.name as page_name', 'f.created_at'])
              .where('f.user_id', '=', userId)
              .where('f.page_id', '>', after)
              .orderBy('f.page_id')
              .limit(BATCH)
              .execute(),
          (r) => r.page_id,
        );
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
        return ownedRows(db, 'page_post_reactions', 'user_id', userId, ['post_id', 'reaction_type', 'created_at'], { key: 'post_id' });
    }
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const p of ownedRows(this.db, 'page_posts', 'user_id', userId, ['id', 'media'], { present: 'media' })) {
      yield { value: String(p.media), kind: 'posts', source: `page_post:${p.id}` };
    }
  }

  async erase(userId: number, _at: Timestamp): Promise<void> {
    const db = this.db;
    // What others own and whose counters change, read before the user's rows go.
    const touchedPosts = new Set<number>();
    for (const q of [
      db.selectFrom('page_post_reactions').select('post_id').where('user_id', '=', userId),
      db.selectFrom('page_comments').select('post_id').where('user_id', '=', userId),
    ]) {
      for (const r of await q.execute()) touchedPosts.add(r.post_id);
    }
    const touchedComments = (
      await db
        .selectFrom('comment_reactions')
        .select('comment_id')
        .where('comment_type', '=', 'page')
        .where('user_id', '=', userId)
        .execute()
    ).map((r) => r.comment_id);
    const followed = (await db.selectFrom('page_follows').select('page_id').where('user_id', '=', userId).execute()).map((r) => r.page_id);
    const team = (await db.selectFrom('page_admins').select('page_id').where('user_id', '=', userId).execute()).map((r) => r.page_id);

    // Own posts with their comments' reactions (no foreign key); comments and reactions cascade.
    await this.deleteCommentReactionsOfPosts({ column: 'user_id', id: userId });
    await db.deleteFrom('page_posts').where('user_id', '=', userId).execute();
    // Own comments on others' posts, with their reactions.
    await db
      .deleteFrom('comment_reactions')
      .where('comment_type', '=', 'page')
      .where('comment_id', 'in', db.selectFrom('page_comments').select('id').where('user_id', '=', userId))
      .execute();
    await db.deleteFrom('page_comments').where('user_id', '=', userId).execute();
    await db.deleteFrom('comment_reactions').where('comment_type', '=', 'page').where('user_id', '=', userId).execute();
    await db.deleteFrom('page_post_reactions').where('user_id', '=', userId).execute();
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
        await this.deleteCommentReactionsOfPosts({ column: 'page_id', id: pageId });
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

    for (const ids of chunks([...touchedPosts])) {
      await db
        .updateTable('page_posts')
        .set({
          like_count: sql`(select count(*) from page_post_reactions where page_post_reactions.post_id = page_posts.id)`,
          comment_count: sql`(select count(*) from page_comments where page_comments.post_id = page_posts.id)`,
        })
        .where('id', 'in', ids)
        .execute();
    }
    for (const ids of chunks(touchedComments)) {
      await db
        .updateTable('page_comments')
        .set({
          reactions_count: sql`(select count(*) from comment_reactions where comment_reactions.comment_type = 'page' and comment_reactions.comment_id = page_comments.id)`,
        })
        .where('id', 'in', ids)
        .execute();
    }
    for (const ids of chunks(followed)) {
      await db
        .updateTable('pages')
        .set({ followers_count: sql`(select count(*) from page_follows where page_follows.page_id = pages.id)` })
        .where('id', 'in', ids)
        .execute();
    }
  }

  /** Reactions to the comments of the posts of a user or of a page. */
  private async deleteCommentReactionsOfPosts(owner: { column: 'user_id' | 'page_id'; id: number }) {
    const db = this.db;
    const posts = db.selectFrom('page_posts').select('id').where(owner.column, '=', owner.id);
    await db
      .deleteFrom('comment_reactions')
      .where('comment_type', '=', 'page')
      .where('comment_id', 'in', db.selectFrom('page_comments').select('id').where('post_id', 'in', posts))
      .execute();
  }
}
