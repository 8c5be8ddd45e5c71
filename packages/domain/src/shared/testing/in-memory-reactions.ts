import type { ReactionChange } from '../reaction-rule.js';
import type { Timestamp } from '../time.js';

/**
 * The one reaction rule's storage in the in-memory fakes (what adapters-mysql's reaction-rows.ts is to
 * SQL): the row is added if absent, else its type changed, else nothing. The caller moves its counter
 * when the answer is `added`.
 */
export function putReactionRow<R extends { reaction_type: string }>(rows: Map<string, R>, key: string, row: R): ReactionChange {
  const existing = rows.get(key);
  if (!existing) {
    rows.set(key, row);
    return 'added';
  }
  if (existing.reaction_type === row.reaction_type) return 'unchanged';
  existing.reaction_type = row.reaction_type;
  return 'changed';
}

/** A user's reaction to a post, as the wall's and the groups' fakes keep them, keyed `post:user`. */
export interface PostReactionRow<T extends string> {
  post_id: number;
  user_id: number;
  reaction_type: T;
  created_at: Timestamp;
}

/**
 * The post reactions of a fake with the posts' `likes_count` moved with them, as the SQL adapters move
 * it in the reaction's transaction: one piece for every surface whose fake keeps reactions in a map.
 */
export class InMemoryPostReactions<T extends string> {
  constructor(
    private readonly rows: Map<string, PostReactionRow<T>>,
    private readonly posts: Map<number, { likes_count: number }>,
  ) {}

  react(postId: number, userId: number, reaction: T, at: Timestamp): ReactionChange {
    const row = { post_id: postId, user_id: userId, reaction_type: reaction, created_at: at };
    const change = putReactionRow(this.rows, postKey(postId, userId), row);
    const post = this.posts.get(postId);
    if (change === 'added' && post) post.likes_count += 1;
    return change;
  }

  unreact(postId: number, userId: number): boolean {
    if (!this.rows.delete(postKey(postId, userId))) return false;
    const post = this.posts.get(postId);
    if (post) post.likes_count -= 1;
    return true;
  }

  /** The user's reactions among `postIds`. */
  by(userId: number, postIds: number[]): Map<number, T> {
    const out = new Map<number, T>();
    for (const id of postIds) {
      const r = this.rows.get(postKey(id, userId));
      if (r) out.set(id, r.reaction_type);
    }
    return out;
  }
}

export const postKey = (postId: number, userId: number) => `${postId}:${userId}`;
