import type { UserRepository } from '../accounts/ports.js';
import { type Actor, canModerate } from '../shared/actor.js';
import { Forbidden, NotFound } from '../shared/errors.js';
import { reactionSlotsOf } from '../shared/reaction-rule.js';
import type { EngagementEvents, NoticePlace } from './engagement-events.js';
import { COMMENT_MAX_LENGTH, type CommentRecord, type CreatedPost, extractMentions, POST_MAX_LENGTH, type PostRecord } from './model.js';
import { emptyPostOnField } from './post-composition.js';
import type { CommentEvents } from './comment-events.js';
import type { PostEvents } from './post-events.js';
import type { CommentRepository, PostEngagementRepository, PostRepository } from './ports.js';
import type { Surface, SurfacePostListener, SurfacePostStore } from './surface.js';
import { type PostVisibility, viewerOf, viewerOfUser } from './visibility.js';

/** A wall as a post's place: the account it belongs to, which is its posts' author. */
export interface WallPlace {
  accountId: number;
}

/**
 * Walls as a surface of the publishing core (docs/decisions/0190, 0220): who sees a wall post is THE
 * visibility rule (visibility.ts: the account's audience, and the moderators while a report names the
 * post); an account publishes on its own wall only; site moderators delete any post or comment they see;
 * notices name the post (`post_id`), which the app opens through posts.php.
 */
export class WallSurface implements Surface<WallPlace> {
  readonly kind = 'wall' as const;
  readonly limits = { post: { maxLength: POST_MAX_LENGTH, emptyPost: emptyPostOnField }, comment: COMMENT_MAX_LENGTH };
  readonly refusals = {
    editPost: () => new Forbidden('Only the author can edit this post'),
    deletePost: () => new Forbidden('Only the author or a moderator can delete this post'),
    editComment: () => new Forbidden('Only the author can edit this comment'),
    deleteComment: () => new Forbidden('Only the author or a moderator can delete this comment'),
  };

  constructor(
    private readonly visibility: PostVisibility,
    private readonly posts: PostRepository,
    private readonly users: UserRepository,
  ) {}

  async seenBy(actor: Actor, accountId: number, postId: number): Promise<WallPlace | null> {
    return (await this.visibility.canSee(viewerOf(actor), { id: postId, user_id: accountId })) ? { accountId } : null;
  }

  /** One's own wall; another's is refused (403), or unknown (404) to whom may not see it. */
  async publishingPlace(actor: Actor, accountId: number): Promise<WallPlace> {
    if (accountId === actor.userId) return { accountId };
    const account = (await this.posts.authors([accountId])).get(accountId);
    if (!account || !(await this.visibility.canSeeAccount(viewerOf(actor), account)))
      throw new NotFound('User not found', 'user_not_found');
    throw new Forbidden('Only the account publishes on its wall');
  }

  authorMayKeep(): boolean {
    return true;
  }

  async mayModerate(actor: Actor): Promise<boolean> {
    return canModerate(actor);
  }

  async canUserSee(userId: number, place: WallPlace, postId: number): Promise<boolean> {
    // An account sees its own wall: the notice to a post's author (every reaction's and comment's)
    // needs no read of the author.
    if (userId === place.accountId) return true;
    const user = await this.users.findById(userId);
    return user !== null && this.visibility.canSee(viewerOfUser(user), { id: postId, user_id: place.accountId });
  }

  noticePlace(_place: WallPlace, postId: number): NoticePlace {
    return { surface: 'wall', post_id: postId };
  }

  uploader(actor: Actor) {
    return actor;
  }
}

/** posts and comments as the core's store (their repositories keep the counters, the wall entries and the threads). */
export function wallPostStore(
  posts: PostRepository,
  comments: CommentRepository,
  reactions: PostEngagementRepository,
): SurfacePostStore<PostRecord, CommentRecord, CreatedPost> {
  return {
    postRef: (p) => ({ id: p.id, place_id: p.user_id, user_id: p.user_id, has_media: p.media.length > 0 }),
    commentRef: (c) => c,
    findPost: (id) => posts.findById(id),
    // Stored as bare names, which the display resolves to uploads/posts/ (contract §36.6).
    createPost: (_accountId, userId, post, at) => posts.create({ user_id: userId, ...post, created_at: at }),
    updatePost: (id, content, at, tags) => posts.update(id, { content, ...(tags ? { tags } : {}), updated_at: at }),
    deletePost: (id) => posts.delete(id),
    // The post's row: a comment's removal takes it first (its thread's counter); a reaction takes it again within.
    lockPost: (id) => comments.lockThread(id),
    reactions: reactionSlotsOf(reactions),
    reactionsBy: (userId, ids) => reactions.reactionsBy(userId, ids),
    findComment: (id) => comments.findById(id),
    createComment: (post, userId, parent, content, at) =>
      comments.create({ post_id: post.id, user_id: userId, parent_id: parent?.id ?? null, content, created_at: at }),
    updateComment: (id, content, at) => comments.update(id, content, at),
    deleteComment: (id) => comments.delete(id),
  };
}

/**
 * What the wall derives from its posts, in each write's unit of work: the notices of the users a post or
 * comment mentions, the post lifecycle events (post-events.ts: the home timeline's fan-out, federation's
 * outbox) and the comment lifecycle events (comment-events.ts: federation's outbound replies, 0240).
 */
export class WallPostListener implements SurfacePostListener<WallPlace, PostRecord, CommentRecord, CreatedPost> {
  constructor(
    private readonly posts: PostRepository,
    private readonly users: UserRepository,
    private readonly engagement: EngagementEvents,
    private readonly visibility: PostVisibility,
    private readonly events: PostEvents,
    private readonly comments: CommentRepository,
    private readonly commentEvents: CommentEvents,
  ) {}

  async published(actor: Actor, post: CreatedPost): Promise<void> {
    await announceMentions(this.users, this.engagement, this.visibility, actor, post.content, post);
    await this.events.published(post);
  }

  async edited(_actor: Actor, postId: number): Promise<void> {
    const edited = await this.posts.findById(postId);
    if (edited) await this.events.edited(edited);
  }

  removing(_actor: Actor, post: PostRecord): Promise<void> {
    return this.events.removed(post);
  }

  async commented(actor: Actor, comment: CommentRecord, post: PostRecord): Promise<void> {
    await announceMentions(this.users, this.engagement, this.visibility, actor, comment.content, post, comment.id);
    await this.commentEvents.written({ comment, post });
  }

  async commentEdited(_actor: Actor, commentId: number, post: PostRecord): Promise<void> {
    const edited = await this.comments.findById(commentId);
    if (edited) await this.commentEvents.edited({ comment: edited, post });
  }

  removingComment(_actor: Actor, comment: CommentRecord, post: PostRecord): Promise<void> {
    return this.commentEvents.removed({ comment, post });
  }
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
