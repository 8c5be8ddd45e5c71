import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { ReactionType } from '../content/model.js';
import { EngagementEvents } from '../content/engagement-events.js';
import { SurfacePosts } from '../content/surface-posts.js';
import type { MediaReferences } from '../media/references.js';
import type { ReportedSurface } from '../moderation/reportable-posts.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { PageCommentRecord, PagePostRecord } from './model.js';
import { pagePostStore, PageSurface } from './page-surface.js';
import type { PageService, PageView } from './page-service.js';
import type { PagePostRepository, Paged } from './ports.js';

export interface PagePostView {
  post: PagePostRecord;
  author: UserRecord | null;
  user_reaction: ReactionType | null;
}

export interface PageCommentView {
  comment: PageCommentRecord;
  author: UserRecord;
  has_reacted: boolean;
}

export interface PagePostInput {
  page_id: number;
  content?: string | null;
  media?: string | null;
  media_type?: string | null;
}

/**
 * Posts of pages, their reactions and their comments. Every read and write goes through the page's
 * visibility (`PageService.visiblePage`): a private page's posts are a 404 to everyone outside its team.
 */
export class PagePostService {
  /** The publishing core with the page surface (docs/decisions/0190). */
  readonly core: SurfacePosts<PageView, PagePostRecord, PageCommentRecord>;

  constructor(
    private readonly pages: PageService,
    private readonly posts: PagePostRepository,
    private readonly users: UserRepository,
    clock: Clock,
    uow: UnitOfWork,
    media: MediaReferences,
    /** Page posts tell no one (0120); the listeners are the core's all the same. */
    events: EngagementEvents = new EngagementEvents(),
  ) {
    this.core = new SurfacePosts(new PageSurface(pages, users), pagePostStore(posts, clock), { events, clock, uow, media });
  }

  async list(actor: Actor, pageId: number, req: PageRequest): Promise<Paged<PagePostView>> {
    await this.pages.visiblePage(actor, pageId);
    const found = await this.posts.list(pageId, req);
    const ids = found.items.map((p) => p.id);
    const [reactions, authors] = await Promise.all([
      this.posts.reactionsOf(actor.userId, ids),
      this.usersById(found.items.map((p) => p.user_id)),
    ]);
    return {
      total: found.total,
      items: found.items.map((post) => ({
        post,
        author: authors.get(post.user_id) ?? null,
        user_reaction: reactions.get(post.id) ?? null,
      })),
    };
  }

  /** Spec "Page post (create)" and Errors 3–4: content or media, by a member of page_admins. */
  async create(actor: Actor, input: PagePostInput): Promise<PagePostView> {
    const { post } = await this.core.publish(actor, input.page_id, input);
    return { post, author: await this.users.findById(actor.userId), user_reaction: null };
  }

  /** Its author edits a post, while still on the team. */
  async update(actor: Actor, postId: number, content: string): Promise<PagePostView> {
    const { post, content: text, at } = await this.core.edit(actor, postId, content);
    return {
      post: { ...post, content: text, updated_at: at },
      author: await this.users.findById(actor.userId),
      user_reaction: await this.core.reactionOf(actor, postId),
    };
  }

  /**
   * Page posts as reports.php names them (`post_type: "page"`): the reporter must see the post, and the
   * moderators remove it as page-post deletion allows them to (docs/decisions/0035). A private page is
   * its team's alone, moderators included: a report from inside the team is its admins' to act on.
   */
  readonly reported: ReportedSurface = {
    visiblePost: async (actor, postId) => (await this.visiblePost(actor, postId)).post,
    removeReported: (moderator, postId) => this.delete(moderator, postId),
  };

  /** The author, the page's admins and site moderators; the post goes with its comments and reactions. */
  delete(actor: Actor, postId: number): Promise<void> {
    return this.core.delete(actor, postId);
  }

  /**
   * pages.php `react`: the one reaction rule, with the page's wire difference on top (docs/decisions/0036,
   * 0120, 0190): the app sends the reaction it shows again to take it back, so the same type again
   * removes it, decided under the post's lock. A page post's reactions tell no one.
   */
  async react(
    actor: Actor,
    postId: number,
    type: ReactionType,
  ): Promise<{ post_id: number; like_count: number; user_reaction: ReactionType | null }> {
    const { post, change } = await this.core.react(actor, postId, type, (current) => (current === type ? 'remove' : 'put'));
    const takenBack = change === 'removed' || change === 'none';
    return { post_id: postId, like_count: post.like_count, user_reaction: takenBack ? null : type };
  }

  async comments(actor: Actor, pageId: number, postId: number, req: PageRequest): Promise<Paged<PageCommentView>> {
    const { post } = await this.visiblePost(actor, postId);
    if (post.page_id !== pageId) throw new NotFound('Post not found', 'post_not_found');
    const found = await this.posts.comments(postId, req);
    const [authors, reacted] = await Promise.all([
      this.usersById(found.items.map((c) => c.user_id)),
      this.posts.commentsReactedBy(
        actor.userId,
        found.items.map((c) => c.id),
      ),
    ]);
    return {
      total: found.total,
      items: found.items.flatMap((comment) => {
        const author = authors.get(comment.user_id);
        return author ? [{ comment, author, has_reacted: reacted.has(comment.id) }] : [];
      }),
    };
  }

  /** Anyone who sees the page comments on its posts. */
  async comment(actor: Actor, postId: number, content: string): Promise<PageCommentView> {
    const { comment } = await this.core.comment(actor, { post_id: postId, content });
    return { comment, author: (await this.users.findById(actor.userId))!, has_reacted: false };
  }

  async updateComment(actor: Actor, commentId: number, content: string): Promise<PageCommentView> {
    const { comment, content: text, at } = await this.core.editComment(actor, commentId, content);
    const reacted = await this.posts.commentsReactedBy(actor.userId, [commentId]);
    return {
      comment: { ...comment, content: text, updated_at: at },
      author: (await this.users.findById(actor.userId))!,
      has_reacted: reacted.has(commentId),
    };
  }

  /** The author, the page's team and site moderators. One's own comment goes even when the page is hidden now. */
  deleteComment(actor: Actor, commentId: number): Promise<void> {
    return this.core.deleteComment(actor, commentId);
  }

  /** A comment of a post the caller may see (404 otherwise), for comment_reactions.php too. */
  async visibleComment(actor: Actor, commentId: number): Promise<{ comment: PageCommentRecord; post: PagePostRecord; page: PageView }> {
    const { comment, post, place } = await this.core.visibleComment(actor, commentId);
    return { comment, post, page: place };
  }

  async visiblePost(actor: Actor, postId: number): Promise<{ post: PagePostRecord; page: PageView }> {
    const { post, place } = await this.core.visiblePost(actor, postId);
    return { post, page: place };
  }

  private async usersById(ids: number[]): Promise<Map<number, UserRecord>> {
    const found = await this.users.findByIds([...new Set(ids)]);
    return new Map(found.map((u) => [u.id, u]));
  }
}
