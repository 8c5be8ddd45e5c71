import { offsetOf, type PageRequest } from '../pagination.js';
import type { Timestamp } from '../time.js';

/** What a nested comment has on every surface whose comments nest (the wall's, the groups'). */
export interface ThreadedCommentRow {
  id: number;
  post_id: number;
  parent_id: number | null;
  content: string;
  updated_at: Timestamp | null;
}

/**
 * The comment repository of a fake whose comments nest, as adapters-mysql's
 * SqlThreadedCommentRepository is to SQL: comments kept by id, counted on their post, deleted with
 * every reply below them, read a thread level at a time. Each surface's fake extends it with its
 * record's creation and what else its port asks; reactions are the fake's own, told the ids of the
 * comments that go.
 */
export abstract class InMemoryThreadedCommentRepository<C extends ThreadedCommentRow> {
  constructor(
    private readonly rows: Map<number, C>,
    private readonly posts: Map<number, { comments_count: number }>,
    private readonly onDeleted: (ids: number[]) => void,
  ) {}

  protected add(comment: C): C {
    this.rows.set(comment.id, comment);
    const post = this.posts.get(comment.post_id);
    if (post) post.comments_count += 1;
    return { ...comment };
  }

  async findById(id: number): Promise<C | null> {
    const c = this.rows.get(id);
    return c ? { ...c } : null;
  }

  async update(id: number, content: string, at: Timestamp): Promise<void> {
    const c = this.rows.get(id);
    if (c) Object.assign(c, { content, updated_at: at });
  }

  /** The comment and every reply below it: false when it was gone already. */
  async delete(id: number): Promise<boolean> {
    const c = this.rows.get(id);
    if (!c) return false;
    const ids = [id];
    for (let i = 0; i < ids.length; i++) for (const x of this.rows.values()) if (x.parent_id === ids[i]) ids.push(x.id);
    for (const x of ids) this.rows.delete(x);
    const post = this.posts.get(c.post_id);
    if (post) post.comments_count -= ids.length;
    this.onDeleted(ids);
    return true;
  }

  /** The post's top-level comments, oldest first, `perPage + 1` at most. */
  async roots(postId: number, page: PageRequest): Promise<C[]> {
    const rows = this.sorted((c) => c.post_id === postId && c.parent_id === null);
    return rows.slice(offsetOf(page), offsetOf(page) + page.perPage + 1);
  }

  /** The direct replies of `parentIds` under the post, oldest first. */
  async replies(postId: number, parentIds: number[]): Promise<C[]> {
    const parents = new Set(parentIds);
    return this.sorted((c) => c.post_id === postId && c.parent_id !== null && parents.has(c.parent_id));
  }

  private sorted(keep: (c: C) => boolean): C[] {
    return [...this.rows.values()]
      .filter(keep)
      .sort((a, b) => a.id - b.id)
      .map((c) => ({ ...c }));
  }
}
