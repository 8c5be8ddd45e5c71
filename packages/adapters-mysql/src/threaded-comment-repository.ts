import type { PageRequest, Timestamp } from '@plaza/domain';
import type { Kysely, Selectable } from 'kysely';
import { CommentThreads } from './comment-threads.js';
import type { Database } from './database.js';
import type { SqlDialect } from './dialect.js';
import { SurfaceComments } from './surface-post-table.js';
import type { GROUP_TABLES, WALL_TABLES } from './surface-tables.js';

/** The surfaces whose comments nest (parent_id): the wall's and the groups'. */
type ThreadedSurface = typeof WALL_TABLES | typeof GROUP_TABLES;

/**
 * The comment repository of a surface whose comments nest, one implementation over either set of
 * tables: each surface's repository extends it with its record's shape and what else its port asks
 * (the wall's reactions, the groups' locks). A new comment's record is the subclass's to build, as the
 * two records differ (the wall's counts reactions).
 */
export abstract class SqlThreadedCommentRepository<S extends ThreadedSurface, R> {
  protected readonly comments: SurfaceComments<S>;
  private readonly threads: CommentThreads<S['comments']>;

  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly dialect: SqlDialect,
    surface: S,
    private readonly toRecord: (row: Selectable<Database[S['comments']]>) => R,
  ) {
    this.comments = new SurfaceComments(db, dialect, surface);
    this.threads = new CommentThreads(db, surface.comments);
  }

  async findById(id: number): Promise<R | null> {
    const row = await this.comments.find(id);
    return row ? this.toRecord(row) : null;
  }

  update(id: number, content: string, at: Timestamp): Promise<void> {
    return this.comments.edit(id, content, at);
  }

  /** The comment, its replies below it and their reactions; false when it was gone already. */
  delete(id: number): Promise<boolean> {
    return this.comments.delete(id);
  }

  async roots(postId: number, page: PageRequest): Promise<R[]> {
    return (await this.threads.roots(postId, page)).map(this.toRecord);
  }

  async replies(postId: number, parentIds: number[]): Promise<R[]> {
    return (await this.threads.replies(postId, parentIds)).map(this.toRecord);
  }
}
