import type { UserRepository } from '../accounts/ports.js';
import type { MediaReferences } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import { canModerate } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, NotFound } from '../shared/errors.js';
import { listPage, pageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { FollowRepository } from '../social/ports.js';
import type { ListPage, PostRecord, PostView } from './model.js';
import { extractHashtags, extractMentions, normalizeTags, POST_MAX_LENGTH } from './model.js';
import type { EngagementEvents } from './engagement-events.js';
import { type CompositionRules, composeEdit, composePost, emptyPostOnField } from './post-composition.js';
import type { PostRepository } from './ports.js';
import { PostEvents } from './post-events.js';
import type { StoredHomeFeed as HomeTimeline } from './stored-home-feed.js';
import { PostVisibility, viewerOf, viewerOfUser } from './visibility.js';
import type { SurfacePostViews } from './surface-engagement-service.js';
import { type WallItem, WallItems } from './wall-items.js';

export interface CreatePostInput {
  content?: string;
  media?: string[];
  media_type?: string | null;
  tags?: string[];
}

/**
 * Announces every existing user mentioned as `@name` in a text of a post, except the author and those
 * who may not see the post: a mention must not reveal a private account's post to a non-follower.
 */
export async function announceMentions(
  users: UserRepository,
  events: EngagementEvents,
  visibility: PostVisibility,
  actor: Actor,
  text: string,
  post: Pick<PostRecord, 'id' | 'user_id'>,
  commentId?: number,
): Promise<void> {
  for (const name of extractMentions(text)) {
    const user = await users.findByLogin(name);
    if (!user || user.id === actor.userId) continue;
    if (!(await visibility.canSee(viewerOfUser(user), post))) continue;
    await events.mentioned({ actor, recipientId: user.id, postId: post.id, commentId: commentId ?? null });
  }
}

/** A wall post's composition limits (post-composition.ts). */
const WALL_POST_RULES: CompositionRules = { maxLength: POST_MAX_LENGTH, emptyPost: emptyPostOnField };

/**
 * Posts and the lists of them. Every read applies the one visibility rule (`canSeePost`): lists through
 * the repository, which filters with it, single posts through `visiblePost`, which every other service
 * (comments, reactions, shares, bookmarks) goes through too.
 */
export class PostService {
  /** Shared with the services built on this one, so that they check posts the same way. */
  readonly visibility: PostVisibility;
  /** What the walls and feeds show of their entries, shares of group and page posts included. */
  private readonly items: WallItems;

  constructor(
    private readonly posts: PostRepository,
    follows: FollowRepository,
    private readonly users: UserRepository,
    /** The engagement listeners (notifications among them): mentions are announced through them. */
    private readonly engagement: EngagementEvents,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Checks that a post's media name uploaded files. */
    private readonly media: MediaReferences,
    /** The post lifecycle listeners (post-events.ts), called inside the unit of work of each write. */
    readonly events: PostEvents = new PostEvents(),
    /** The precomputed following feed; without it (or below its length) the feed is read at read time. */
    private readonly timeline?: HomeTimeline,
    /** Group and page posts as lists show them: walls hold shares of them (docs/decisions/0230). */
    surfaces?: SurfacePostViews,
  ) {
    this.visibility = new PostVisibility(posts, follows);
    this.items = new WallItems(posts, surfaces);
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

  async create(actor: Actor, input: CreatePostInput): Promise<PostView> {
    // Stored as bare names, which the display resolves to uploads/posts/ (contract §36.6).
    const { content, media, media_type: mediaType, tags } = await composePost(this.media, actor, input, WALL_POST_RULES);
    // The post and the announcements of the users it mentions are stored together.
    const post = await this.uow.run(async () => {
      const created = await this.posts.create({
        user_id: actor.userId,
        content,
        media,
        media_type: mediaType,
        tags,
        created_at: toTimestamp(this.clock.now()),
      });
      await announceMentions(this.users, this.engagement, this.visibility, actor, content, created);
      await this.events.published(created);
      return created;
    });
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
    const post = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId) throw new Forbidden('Only the author can edit this post');
    const content = composeEdit(input.content, post.media.length > 0, WALL_POST_RULES);
    const tags = normalizeTags([...(input.tags ?? []), ...extractHashtags(content)]);
    await this.uow.run(async () => {
      await this.posts.update(postId, { content, tags, updated_at: toTimestamp(this.clock.now()) });
      const edited = await this.posts.findById(postId);
      if (edited) await this.events.edited(edited);
    });
    return this.view(actor, postId);
  }

  async delete(actor: Actor, postId: number): Promise<void> {
    const post = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId && !canModerate(actor)) throw new Forbidden('Only the author or a moderator can delete this post');
    await this.uow.run(async () => {
      await this.events.removed(post);
      await this.posts.delete(postId);
    });
  }
}
