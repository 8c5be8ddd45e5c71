import type { UserRepository } from '../accounts/ports.js';
import type { MediaReferences } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { NotFound } from '../shared/errors.js';
import { listPage, pageRequest } from '../shared/pagination.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { FollowRepository } from '../social/ports.js';
import type { CommentRecord, CreatedPost, ListPage, PostRecord, PostView } from './model.js';
import type { EngagementEvents } from './engagement-events.js';
import type { CommentRepository, PostEngagementRepository, PostRepository } from './ports.js';
import { CommentEvents } from './comment-events.js';
import { PostEvents } from './post-events.js';
import type { StoredHomeFeed as HomeTimeline } from './stored-home-feed.js';
import type { SurfacePostViews } from './surface-engagement-service.js';
import { SurfacePosts } from './surface-posts.js';
import { PostVisibility, viewerOf } from './visibility.js';
import { type WallItem, WallItems } from './wall-items.js';
import { type WallPlace, WallPostListener, WallSurface, wallPostStore } from './wall-surface.js';

export interface CreatePostInput {
  content?: string;
  media?: string[];
  media_type?: string | null;
  tags?: string[];
}

/**
 * Posts and the lists of them. Every read applies the one visibility rule (`canSeePost`): lists through
 * the repository, which filters with it, single posts through `visiblePost`, which every other service
 * (comments, reactions, shares, bookmarks) goes through too. Publishing, editing and deleting, and
 * the comments' writes (CommentService), are the publishing core's with the wall surface (0190, 0220).
 */
export class PostService {
  /** Shared with the services built on this one, so that they check posts the same way. */
  readonly visibility: PostVisibility;
  /** What the walls and feeds show of their entries, shares of group and page posts included. */
  private readonly items: WallItems;
  /** The publishing core with the wall surface (wall-surface.ts). */
  readonly core: SurfacePosts<WallPlace, PostRecord, CommentRecord, CreatedPost>;

  constructor(
    private readonly posts: PostRepository,
    /** The wall posts' comments and reactions, which the core keeps with the posts. */
    comments: CommentRepository,
    reactions: PostEngagementRepository,
    follows: FollowRepository,
    users: UserRepository,
    /** The engagement listeners (notifications among them): mentions are announced through them. */
    engagement: EngagementEvents,
    clock: Clock,
    uow: UnitOfWork,
    /** Checks that a post's media name uploaded files. */
    media: MediaReferences,
    /** The post lifecycle listeners (post-events.ts), called inside the unit of work of each write. */
    readonly events: PostEvents = new PostEvents(),
    /** The precomputed following feed; without it (or below its length) the feed is read at read time. */
    private readonly timeline?: HomeTimeline,
    /** Group and page posts as lists show them: walls hold shares of them (docs/decisions/0230). */
    surfaces?: SurfacePostViews,
    /** The comment lifecycle listeners (comment-events.ts, federation's outbound replies), called inside each write. */
    commentEvents: CommentEvents = new CommentEvents(),
  ) {
    this.visibility = new PostVisibility(posts, follows);
    this.items = new WallItems(posts, surfaces);
    this.core = new SurfacePosts(
      new WallSurface(this.visibility, posts, users),
      wallPostStore(posts, comments, reactions),
      { events: engagement, clock, uow, media },
      new WallPostListener(posts, users, engagement, this.visibility, events, comments, commentEvents),
    );
  }

  async feed(actor: Actor, kind: 'following' | 'global', page?: number, perPage?: number): Promise<ListPage<WallItem>> {
    const req = pageRequest(page, perPage);
    const viewer = viewerOf(actor);
    // The stored timeline answers with its wall posts read; below its bound, the feed is read at read time.
    const stored = kind === 'following' ? await this.timeline?.page(viewer, req) : null;
    if (stored) {
      const p = listPage(stored, req);
      return { ...p, items: await this.items.complete(p.items, actor.userId) };
    }
    const rows = kind === 'global' ? await this.posts.global(viewer, req) : await this.posts.feed(viewer, req);
    const p = listPage(rows, req);
    return { ...p, items: await this.items.of(p.items, actor.userId) };
  }

  async wall(actor: Actor, userId: number, page?: number, perPage?: number): Promise<ListPage<WallItem>> {
    const req = pageRequest(page, perPage);
    const viewer = viewerOf(actor);
    const author = (await this.posts.authors([userId])).get(userId);
    if (!author) throw new NotFound('User not found', 'user_not_found');
    // The wall as a whole (shares included) is the account's own publication, for the same audience.
    if (!(await this.visibility.canSeeAccount(viewer, author))) return listPage([], req);
    const p = listPage(await this.posts.wall(userId, viewer, req), req);
    return { ...p, items: await this.items.of(p.items, actor.userId) };
  }

  /** Bookmarks of posts the actor may still see: a bookmark keeps no access the rule no longer grants. */
  async bookmarks(actor: Actor, page?: number, perPage?: number): Promise<ListPage<PostView>> {
    const req = pageRequest(page, perPage);
    const p = listPage(await this.posts.bookmarked(viewerOf(actor), req), req);
    return { ...p, items: await this.posts.views(p.items, actor.userId) };
  }

  async view(actor: Actor, postId: number): Promise<PostView> {
    const post = await this.visiblePost(actor, postId);
    const [view] = await this.posts.views([{ post_id: post.id, shared_by: null, feed_date: post.created_at }], actor.userId);
    if (!view) throw new NotFound('Post not found', 'post_not_found');
    return view;
  }

  /** The post if it exists and the actor may see it; NotFound otherwise (a private post is not revealed). */
  async visiblePost(actor: Actor, postId: number): Promise<PostRecord> {
    const post = await this.posts.findById(postId);
    if (!post || !(await this.visibility.canSee(viewerOf(actor), post))) throw new NotFound('Post not found', 'post_not_found');
    return post;
  }

  /** The post, the notices of the users it mentions and its lifecycle events are stored together (the core's unit of work). */
  async create(actor: Actor, input: CreatePostInput): Promise<PostView> {
    const { post } = await this.core.publish(actor, actor.userId, input);
    // The session's card, read with the token: no statement after the commit (docs/decisions/0075).
    const author = actor.card
      ? { id: actor.userId, username: actor.username, ...actor.card }
      : (await this.posts.authors([actor.userId])).get(actor.userId);
    if (!author) throw new NotFound('User not found', 'user_not_found');
    // A new post has no reactions or bookmarks yet: no need to read them back.
    return {
      post,
      author,
      is_liked: false,
      reaction_type: null,
      is_bookmarked: false,
      feed_date: post.created_at,
      shared_by_username: null,
    };
  }

  async edit(actor: Actor, postId: number, input: { content: string; tags?: string[] }): Promise<PostView> {
    await this.core.edit(actor, postId, input.content, input.tags);
    return this.view(actor, postId);
  }

  /** The author or a moderator deletes a post, with everything hanging on it (its removal is announced first, in the same unit). */
  delete(actor: Actor, postId: number): Promise<void> {
    return this.core.delete(actor, postId);
  }
}
