import { offsetOf, type PageRequest, type Timestamp } from '@plaza/domain';
import type { ReactionType } from '@plaza/domain/content';
import type { PageCommentRecord, PagePostRecord, PagePostRepository } from '@plaza/domain/pages';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../database.js';
import { insertedId, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { PageCommentsTable, PagePostsTable } from './schema.js';
import { postsOfPlace, putPostReaction, reactionsBy, removePostReaction, SurfaceComments } from '../surface-post-table.js';
import { PAGE_TABLES } from '../surface-tables.js';

function toPost(row: Selectable<PagePostsTable>): PagePostRecord {
  return { ...row, like_count: Number(row.like_count), comment_count: Number(row.comment_count) };
}

function toComment(row: Selectable<PageCommentsTable>): PageCommentRecord {
  return { ...row, reactions_count: Number(row.reactions_count) };
}

const count = (rows: { n: number | string | bigint }[]) => Number(rows[0]?.n ?? 0);

/** Page posts, their reactions and their comments (whose reactions are comment_reactions rows of comment_type `page`). */
export class SqlPagePostRepository implements PagePostRepository {
  private readonly commentRows: SurfaceComments<typeof PAGE_TABLES>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {
    this.commentRows = new SurfaceComments(db, dialect, PAGE_TABLES);
  }

  async lock(postId: number) {
    await lockRowForUpdate(this.db, this.dialect, 'page_posts', postId);
  }

  async create(post: Omit<PagePostRecord, 'id' | 'like_count' | 'comment_count' | 'updated_at'>) {
    const id = insertedId(await this.db.insertInto('page_posts').values(post).executeTakeFirstOrThrow());
    return { ...post, id, like_count: 0, comment_count: 0, updated_at: null };
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('page_posts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPost(row) : null;
  }

  async update(id: number, content: string, at: Timestamp) {
    await this.db.updateTable('page_posts').set({ content, updated_at: at }).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'page_posts', id);
      // Reactions on the comments have no foreign key (comment_reactions spans every kind of comment).
      await trx
        .deleteFrom('comment_reactions')
        .where('comment_type', '=', 'page')
        .where('comment_id', 'in', (eb) => eb.selectFrom('page_comments').select('id').where('post_id', '=', id))
        .execute();
      // Comments and reactions go by ON DELETE CASCADE.
      await trx.deleteFrom('page_posts').where('id', '=', id).execute();
    });
  }

  async list(pageId: number, req: PageRequest) {
    const rows = await postsOfPlace(this.db, PAGE_TABLES, pageId, { limit: req.perPage, offset: offsetOf(req) });
    const total = count(
      await this.db
        .selectFrom('page_posts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('page_id', '=', pageId)
        .execute(),
    );
    return { items: rows.map(toPost), total };
  }

  reactionsOf(userId: number, postIds: number[]) {
    return reactionsBy(this.db, PAGE_TABLES, userId, postIds);
  }

  async setReaction(postId: number, userId: number, type: ReactionType | null, at: Timestamp) {
    if (type === null) await removePostReaction(this.db, this.dialect, PAGE_TABLES, postId, userId);
    else await putPostReaction(this.db, this.dialect, PAGE_TABLES, { postId, userId, type, at });
  }

  async createComment(c: { post_id: number; user_id: number; content: string; created_at: Timestamp }) {
    return { ...c, id: await this.commentRows.add(c), reactions_count: 0, updated_at: null };
  }

  async findComment(id: number) {
    const row = await this.commentRows.find(id);
    return row ? toComment(row) : null;
  }

  updateComment(id: number, content: string, at: Timestamp) {
    return this.commentRows.edit(id, content, at);
  }

  deleteComment(id: number) {
    return this.commentRows.delete(id);
  }

  async comments(postId: number, req: PageRequest) {
    const rows = await this.db
      .selectFrom('page_comments')
      .selectAll()
      .where('post_id', '=', postId)
      .orderBy('id')
      .limit(req.perPage)
      .offset(offsetOf(req))
      .execute();
    const total = count(
      await this.db
        .selectFrom('page_comments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('post_id', '=', postId)
        .execute(),
    );
    return { items: rows.map(toComment), total };
  }

  async commentsReactedBy(userId: number, commentIds: number[]) {
    if (commentIds.length === 0) return new Set<number>();
    const rows = await this.db
      .selectFrom('comment_reactions')
      .select('comment_id')
      .where('comment_type', '=', 'page')
      .where('user_id', '=', userId)
      .where('comment_id', 'in', commentIds)
      .execute();
    return new Set(rows.map((r) => r.comment_id));
  }

  async lockComment(commentId: number) {
    await lockRowForUpdate(this.db, this.dialect, 'page_comments', commentId);
  }

  async adjustCommentReactions(commentId: number, delta: 1 | -1) {
    await this.db
      .updateTable('page_comments')
      .set({ reactions_count: sql`reactions_count + ${delta}` })
      .where('id', '=', commentId)
      .execute();
  }
}
