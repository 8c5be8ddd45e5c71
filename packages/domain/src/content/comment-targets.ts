import type { Actor } from '../shared/actor.js';
import { token } from '../shared/token.js';
import type { CommentType } from './model.js';

/**
 * Extension point of comment_reactions.php: the kinds of comments other than post comments
 * (`comment_type` `group`, `page`). Post comments are the content context's own; every other context
 * whose comments can be reacted to binds one `CommentTarget` to the multi-bound token `CommentTargets`
 * from its module:
 *
 *   w.bind(CommentTargets, [deps…], (…) => new MyCommentTarget(…));
 *
 * and the content module's `CommentService` receives every bound target (`many(CommentTargets)`). The
 * reactions themselves stay in content's `comment_reactions` table, keyed by (comment_type,
 * comment_id, user_id): each type has its own id space.
 *
 * A target answers three questions:
 * - `find`: the comment, if it exists AND the actor may see it; `null` otherwise. Both answer 404
 *   `comment_not_found`, so a hidden comment is as unknown as a missing one.
 * - `canUserSee`: whether another user (the comment's author, who is about to be notified) may still
 *   see it; a notification must not reveal what its recipient may not see.
 * - `counter`: how the comment's `reactions_count` is kept. Absent: it is not stored, it is counted
 *   from `comment_reactions` whenever it is read (`CommentRepository.countReactions`), which is exact
 *   under any concurrency and needs no repair when rows go away; the target then gives `lock`.
 *   Present: a stored column the service keeps in the reaction's unit of work: `counter.lock` first (a
 *   row lock, so concurrent reactions serialise), then the reaction row, then `adjust` by +1 / -1 when a
 *   row was really added / removed.
 */
export interface CommentTarget {
  readonly type: Exclude<CommentType, 'post'>;
  find(actor: Actor, commentId: number): Promise<TargetComment | null>;
  canUserSee(userId: number, comment: TargetComment): Promise<boolean>;
  /**
   * For a target without `counter`: takes the comment's row lock, the first statement of the
   * reaction's unit of work, so that concurrent reactions on one comment run one after the other (on
   * MySQL, identical inserts racing on the reaction's key would otherwise deadlock). It throws
   * `NotFound` when the comment went since `find` (deleted meanwhile), so no reaction outlives its
   * comment. A target with a `counter` locks through `counter.lock`.
   */
  lock?(commentId: number): Promise<void>;
  readonly counter?: StoredReactionCounter;
}

/** What the reaction use cases need of a comment of another kind. */
export interface TargetComment {
  id: number;
  /** The author, who is notified of a new reaction. */
  user_id: number;
  /** Where the reaction's notification points: a post of `posts` (else null), a group, a web link. */
  notification: { post_id: number | null; group_id: number | null; link: string | null };
}

/** A stored reaction counter (see `CommentTarget.counter`). */
export interface StoredReactionCounter {
  /** Takes the comment's row lock; the first statement of the reaction's unit of work. */
  lock(commentId: number): Promise<void>;
  adjust(commentId: number, delta: 1 | -1): Promise<void>;
  read(commentId: number): Promise<number>;
}

/** Multi-bound: every context with its own comments adds its target. */
export const CommentTargets = token<CommentTarget>('content.CommentTargets');
