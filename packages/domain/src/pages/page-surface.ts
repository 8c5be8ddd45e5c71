import type { UserRepository } from '../accounts/ports.js';
import type { ReactionType } from '../content/model.js';
import type { Surface, SurfacePostStore } from '../content/surface.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import { canModerate } from '../shared/actor.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { ReactionChange } from '../shared/reaction-rule.js';
import { MAX_PAGE_COMMENT_LENGTH, MAX_PAGE_POST_LENGTH, type PageCommentRecord, type PagePostRecord } from './model.js';
import type { PageService, PageView } from './page-service.js';
import type { PagePostRepository } from './ports.js';
import { pageAllows } from './rules.js';

/**
 * Pages as a surface of the publishing core (docs/decisions/0190): a page's posts are seen by whoever
 * sees the page (a private page: its team only); its team publishes and keeps its own posts while on it;
 * its admins delete any post, its team any comment, site moderators both (0035). A page post tells no
 * one (0120: the app opens no notice of one).
 */
export class PageSurface implements Surface<PageView> {
  readonly kind = 'page' as const;
  readonly limits = {
    post: {
      maxLength: MAX_PAGE_POST_LENGTH,
      emptyPost: () =>
        new Invalid('A page post needs content or media', 'empty_post', [{ field: 'content', problem: 'content or media is required' }]),
    },
    comment: MAX_PAGE_COMMENT_LENGTH,
  };
  readonly refusals = {
    editPost: () => new Forbidden('Only the post’s author on the page’s team can edit it', 'not_post_author'),
    deletePost: () => new Forbidden('Only the author, the page’s admins or a moderator can delete this post', 'not_post_author'),
    editComment: () => new Forbidden('Only the author can edit this comment', 'not_comment_author'),
    deleteComment: () => new Forbidden('Only the author, the page’s team or a moderator can delete this comment', 'not_comment_author'),
  };

  constructor(
    private readonly pages: PageService,
    private readonly users: UserRepository,
  ) {}

  async seenBy(actor: Actor, pageId: number): Promise<PageView | null> {
    try {
      return await this.pages.visiblePage(actor, pageId);
    } catch (e) {
      if (e instanceof NotFound) return null;
      throw e;
    }
  }

  publishingPlace(actor: Actor, pageId: number): Promise<PageView> {
    return this.pages.pageAllowing(actor, pageId, 'publish', 'Only the page’s team can publish on it');
  }

  authorMayKeep(place: PageView): boolean {
    return pageAllows(place.role, 'publish');
  }

  async mayModerate(actor: Actor, place: PageView, what: 'post' | 'comment'): Promise<boolean> {
    return pageAllows(place.role, what === 'post' ? 'deleteAnyPost' : 'deleteAnyComment') || canModerate(actor);
  }

  async canUserSee(userId: number, place: PageView): Promise<boolean> {
    const user = await this.users.findById(userId);
    return user !== null && this.pages.canUserSee(user, place.page.id);
  }

  noticePlace(): null {
    return null;
  }

  uploader(actor: Actor, pageId: number) {
    return this.pages.teamOf(actor, pageId);
  }
}

/** page_posts and page_comments as the core's store; a page post keeps one file and no tags. */
export function pagePostStore(posts: PagePostRepository, clock: Clock): SurfacePostStore<PagePostRecord, PageCommentRecord> {
  const current = async (postId: number, userId: number): Promise<ReactionType | null> =>
    (await posts.reactionsOf(userId, [postId])).get(postId) ?? null;
  return {
    postRef: (p) => ({ id: p.id, place_id: p.page_id, user_id: p.user_id, has_media: !!p.media }),
    commentRef: (c) => c,
    findPost: (id) => posts.findById(id),
    createPost: (pageId, userId, post, at) =>
      posts.create({
        page_id: pageId,
        user_id: userId,
        content: post.content,
        media: post.media[0] ?? null,
        media_type: post.media_type,
        created_at: at,
      }),
    updatePost: (id, content, at) => posts.update(id, content, at),
    // The page repository deletes without telling whether the row was there: it is read first.
    deletePost: async (id) => {
      if (!(await posts.findById(id))) return false;
      await posts.delete(id);
      return true;
    },
    lockPost: (id) => posts.lock(id),
    // Under the post's lock (the core takes it): like_count counts reacting users, read then written.
    reactions: {
      put: async (postId, userId, type, at): Promise<ReactionChange> => {
        const before = await current(postId, userId);
        if (before === type) return 'unchanged';
        await posts.setReaction(postId, userId, type, at);
        return before === null ? 'added' : 'changed';
      },
      remove: async (postId, userId) => {
        if ((await current(postId, userId)) === null) return false;
        await posts.setReaction(postId, userId, null, toTimestamp(clock.now()));
        return true;
      },
    },
    reactionsBy: (userId, ids) => posts.reactionsOf(userId, ids),
    findComment: (id) => posts.findComment(id),
    createComment: (post, userId, _parent, content, at) =>
      posts.createComment({ post_id: post.id, user_id: userId, content, created_at: at }),
    updateComment: (id, content, at) => posts.updateComment(id, content, at),
    deleteComment: (id) => posts.deleteComment(id),
  };
}
