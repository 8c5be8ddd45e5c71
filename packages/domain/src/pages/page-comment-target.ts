import type { UserRepository } from '../accounts/ports.js';
import type { CommentTarget, TargetComment } from '../content/comment-targets.js';
import type { Actor } from '../shared/actor.js';
import { NotFound } from '../shared/errors.js';
import type { PagePostService } from './page-post-service.js';
import type { PageService } from './page-service.js';
import type { PagePostRepository } from './ports.js';

/**
 * Page comments for comment_reactions.php (`comment_type: "page"`): a comment is found only by those
 * who see its page, and its stored reactions_count moves under the comment's row lock.
 */
export class PageCommentTarget implements CommentTarget {
  readonly type = 'page' as const;
  readonly counter;

  constructor(
    private readonly pages: PageService,
    private readonly pagePosts: PagePostService,
    private readonly posts: PagePostRepository,
    private readonly users: UserRepository,
  ) {
    this.counter = {
      lock: (commentId: number) => this.posts.lockComment(commentId),
      adjust: (commentId: number, delta: 1 | -1) => this.posts.adjustCommentReactions(commentId, delta),
      read: async (commentId: number) => (await this.posts.findComment(commentId))?.reactions_count ?? 0,
    };
  }

  async find(actor: Actor, commentId: number): Promise<TargetComment | null> {
    try {
      const { comment, post } = await this.pagePosts.visibleComment(actor, commentId);
      return {
        id: comment.id,
        user_id: comment.user_id,
        notification: { post_id: null, group_id: null, link: `page_detail.php?id=${post.page_id}` },
      };
    } catch (e) {
      if (e instanceof NotFound) return null;
      throw e;
    }
  }

  async canUserSee(userId: number, comment: TargetComment): Promise<boolean> {
    const [user, found] = await Promise.all([this.users.findById(userId), this.posts.findComment(comment.id)]);
    const post = found ? await this.posts.findById(found.post_id) : null;
    return user !== null && post !== null && this.pages.canUserSee(user, post.page_id);
  }
}
