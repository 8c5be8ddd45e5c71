import type { PageRequest, Timestamp } from '@plaza/domain';
import type { CommentRecord, CommentRepository, CommentType, ReactionType } from '@plaza/domain/content';
import { sql, type Kysely, type Selectable } from 'kysely';
import { lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import { putReactionRow, removeReactionRow } from '../reaction-rows.js';
import type { CommentsTable } from './schema.js';
import { SqlThreadedCommentRepository } from '../threaded-comment-repository.js';
import { WALL_TABLES } from '../surface-tables.js';

/** A row as the domain's record: a remote actor's reply has no local author (user_id 0, docs/decisions/0205). */
function toComment(row: Selectable<CommentsTable>): CommentRecord {
  const { remote_object_id: _objectId, ...rest } = row;
  return { ...rest, user_id: row.user_id ?? 0, reactions_count: Number(row.reactions_count) };
}

export class SqlCommentRepository extends SqlThreadedCommentRepository<typeof WALL_TABLES, CommentRecord> implements CommentRepository {
  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    super(db, dialect, WALL_TABLES, toComment);
  }

  async create(c: { post_id: number; user_id: number; parent_id: number | null; content: string; created_at: Timestamp }) {
    return { id: await this.comments.add(c), ...c, reactions_count: 0, updated_at: null };
  }

  /** The post's row, the lock every write of its thread takes first (docs/decisions/0240). */
  async lockThread(postId: number) {
    await lockRowForUpdate(this.db, this.dialect, 'posts', postId);
  }

  async reactedBy(type: CommentType, commentIds: number[], userId: number) {
    if (commentIds.length === 0) return new Set<number>();
    const rows = await this.db
      .selectFrom('comment_reactions')
      .select('comment_id')
      .where('comment_type', '=', type)
      .where('user_id', '=', userId)
      .where('comment_id', 'in', commentIds)
      .execute();
    return new Set(rows.map((r) => r.comment_id));
  }

  async react(type: CommentType, commentId: number, userId: number, reaction: ReactionType, at: Timestamp) {
    return this.db.transaction().execute(async (trx) => {
      if (type === 'post') await lockRowForUpdate(trx, this.dialect, 'comments', commentId);
      const change = await putReactionRow(
        trx,
        'comment_reactions',
        { comment_type: type, comment_id: commentId, user_id: userId },
        reaction,
        at,
      );
      if (change === 'added' && type === 'post')
        await trx.updateTable('comments').set({ reactions_count: sql`reactions_count + 1` }).where('id', '=', commentId).execute();
      return change;
    });
  }

  async unreact(type: CommentType, commentId: number, userId: number) {
    return this.db.transaction().execute(async (trx) => {
      if (type === 'post') await lockRowForUpdate(trx, this.dialect, 'comments', commentId);
      if (!(await removeReactionRow(trx, 'comment_reactions', { comment_type: type, comment_id: commentId, user_id: userId })))
        return false;
      if (type === 'post')
        await trx.updateTable('comments').set({ reactions_count: sql`reactions_count - 1` }).where('id', '=', commentId).execute();
      return true;
    });
  }

  async reactions(type: CommentType, commentId: number) {
    return this.db
      .selectFrom('comment_reactions')
      .select(['user_id', 'reaction_type', 'created_at'])
      .where('comment_type', '=', type)
      .where('comment_id', '=', commentId)
      .orderBy('created_at', 'asc')
      .execute();
  }

  async countReactions(type: CommentType, commentIds: number[]) {
    if (commentIds.length === 0) return new Map<number, number>();
    // Served by the primary key (comment_type, comment_id, user_id).
    const rows = await this.db
      .selectFrom('comment_reactions')
      .select((eb) => ['comment_id', eb.fn.countAll<number>().as('n')])
      .where('comment_type', '=', type)
      .where('comment_id', 'in', commentIds)
      .groupBy('comment_id')
      .execute();
    return new Map(rows.map((r) => [r.comment_id, Number(r.n)]));
  }
}
