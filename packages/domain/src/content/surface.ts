import type { Uploader } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Forbidden } from '../shared/errors.js';
import type { ReactionSlots } from '../shared/reaction-rule.js';
import type { Timestamp } from '../shared/time.js';
import type { NoticePlace, SurfaceKind } from './engagement-events.js';
import type { ReactionType } from './model.js';
import type { ComposedPost, CompositionRules } from './post-composition.js';

/**
 * What the publishing core asks of a surface (docs/decisions/0190): where a post lives (`Place`: a group
 * and the actor's relation to it, a page and the actor's role on it) and who may do what there. Every
 * answer is decided at each call, from the place as it is now.
 */
export interface Surface<Place> {
  readonly kind: SurfaceKind;
  /** The post's length and wording of its refusals (post-composition.ts), and a comment's length. */
  readonly limits: { post: CompositionRules; comment: number };
  /**
   * Who may see a place's post (`postId`) and its comments: the place as `actor` sees it, or null
   * (answered 404). A surface whose rule reads the post itself uses `postId` (the wall: a moderator
   * sees a private account's post while a pending report names it); the others decide by the place.
   */
  seenBy(actor: Actor, placeId: number, postId: number): Promise<Place | null>;
  /** Who may post: the place, or the surface's refusal (404 for a hidden place, 403 for a non-publisher). */
  publishingPlace(actor: Actor, placeId: number): Promise<Place>;
  /** Whether the author of a post may still edit or delete it as theirs (a page: while on its team). */
  authorMayKeep(place: Place): boolean;
  /** Who may moderate: delete others' posts, or others' comments. */
  mayModerate(actor: Actor, place: Place, what: 'post' | 'comment'): Promise<boolean>;
  /** The notification gate: whether `userId` may still see the place's post `postId` (told only then). */
  canUserSee(userId: number, place: Place, postId: number): Promise<boolean>;
  /** Where a notice of a post of the place links, or null when the surface's posts tell no one. */
  noticePlace(place: Place, postId: number): NoticePlace | null;
  /** Whose uploads a post of the place may use (a page's team shares its uploads, 0114). */
  uploader(actor: Actor, placeId: number): Uploader;
  /** The surface's refusals, in the words its screens have always shown. */
  readonly refusals: {
    editPost(): Forbidden;
    deletePost(): Forbidden;
    editComment(): Forbidden;
    deleteComment(): Forbidden;
  };
}

/** The parts of a stored post the core reads, whatever its table. */
export interface SurfacePostRef {
  id: number;
  /** The group's or the page's id. */
  place_id: number;
  user_id: number;
  /** Whether it keeps media (a post with media may lose its text). */
  has_media: boolean;
}

/** The parts of a stored comment the core reads. */
export interface SurfaceCommentRef {
  id: number;
  post_id: number;
  user_id: number;
}

/**
 * The surface posts of one kind as the core stores them: today's tables of each surface behind one
 * port (posts/comments, group_posts/group_comments, page_posts/page_comments). `P` and `C` are the
 * records the surface presents; `postRef`/`commentRef` read what the core needs from them. `N` is a
 * post just created, which may tell more than a stored one (a wall post: its entry on the wall).
 * Counters (a post's reactions and comments) move in the same write as the rows they count.
 */
export interface SurfacePostStore<P, C, N extends P = P> {
  postRef(post: P): SurfacePostRef;
  commentRef(comment: C): SurfaceCommentRef;
  findPost(id: number): Promise<P | null>;
  createPost(placeId: number, userId: number, post: ComposedPost, at: Timestamp): Promise<N>;
  /**
   * The new text, and the tags it makes (the given ones and its hashtags): a surface whose posts keep
   * their tags on an edit stores them (the wall); without `tags`, or elsewhere, the post keeps its own.
   */
  updatePost(id: number, content: string, at: Timestamp, tags?: string[]): Promise<void>;
  /** The post with its comments and every reaction on them; false when it was gone already. */
  deletePost(id: number): Promise<boolean>;
  /** Takes the post's write lock until the unit of work ends (reactions read then written serialise). */
  lockPost(id: number): Promise<void>;
  /** A post's reactions, one per user, its counter moved in the same write. */
  readonly reactions: ReactionSlots<number, ReactionType>;
  /** The user's reaction on each of the posts that has one. */
  reactionsBy(userId: number, postIds: number[]): Promise<Map<number, ReactionType>>;
  findComment(id: number): Promise<C | null>;
  createComment(post: P, userId: number, parent: C | null, content: string, at: Timestamp): Promise<C>;
  updateComment(id: number, content: string, at: Timestamp): Promise<void>;
  /** The comment, its replies and their reactions; false when it was gone already. */
  deleteComment(id: number): Promise<boolean>;
}

/**
 * What a surface keeps derived from its posts and comments (the wall: the mentions' notices, and the
 * post lifecycle listeners of post-events.ts: home timeline, federation). The core calls it INSIDE the
 * write's unit of work, after the write (before it, for a removal): what it stores commits or rolls
 * back with the post or comment. Every method may be absent; a surface with none passes nothing.
 */
export interface SurfacePostListener<Place, P, C, N extends P = P> {
  published?(actor: Actor, post: N, place: Place): Promise<void>;
  /** The post's text and tags were changed; `postId` is read again if its new state is needed. */
  edited?(actor: Actor, postId: number, place: Place): Promise<void>;
  /** The post is about to be removed, with its comments and reactions. */
  removing?(actor: Actor, post: P, place: Place): Promise<void>;
  commented?(actor: Actor, comment: C, post: P, place: Place): Promise<void>;
  /** A comment's text was changed; `commentId` is read again for its new state. */
  commentEdited?(actor: Actor, commentId: number, post: P): Promise<void>;
  /** The comment is about to be removed, with its replies (not told when a concurrent removal made it first). */
  removingComment?(actor: Actor, comment: C, post: P): Promise<void>;
}
