import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import type { MediaReferences } from '../media/references.js';
import { Invalid, NotFound } from '../shared/errors.js';
import { putReaction, type ReactionChange, removeReaction } from '../shared/reaction-rule.js';
import { type Timestamp, toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { EngagementEvents, NoticePlace } from './engagement-events.js';
import type { ReactionType } from './model.js';
import { composeComment, composeEdit, composePost, type PostDraft, tagsOf } from './post-composition.js';
import type { Surface, SurfacePostListener, SurfacePostStore } from './surface.js';

export interface SurfacePostsDeps {
  /** The engagement listeners (notifications among them), called inside each write's unit of work. */
  events: EngagementEvents;
  clock: Clock;
  uow: UnitOfWork;
  /** Checks that media name uploaded files (docs/decisions/0043). */
  media: MediaReferences;
}

/**
 * The one publishing core of surface posts (issue 28, docs/decisions/0190): publishing, editing,
 * deleting, reacting and commenting, the same steps for every surface; the `Surface` answers who may
 * see, post, moderate and comment, whom to tell and where the notice links. Seeing a post is seeing its
 * place: a post or comment of a place the actor may not see is a 404, like a missing one. Listing and
 * presenting stay the surface's (their wire shapes differ).
 */
export class SurfacePosts<Place, P, C, N extends P = P> {
  constructor(
    readonly surface: Surface<Place>,
    readonly store: SurfacePostStore<P, C, N>,
    private readonly deps: SurfacePostsDeps,
    /** What the surface keeps derived from its posts (surface.ts), called inside each write's unit of work. */
    private readonly listener: SurfacePostListener<Place, P, C, N> = {},
  ) {}

  private now(): Timestamp {
    return toTimestamp(this.deps.clock.now());
  }

  /** The post and its place if the actor may see them; 404 otherwise. */
  async visiblePost(actor: Actor, postId: number): Promise<{ post: P; place: Place }> {
    const post = await this.store.findPost(postId);
    const place = post ? await this.placeSeenBy(actor, post) : null;
    if (!post || place === null) throw new NotFound('Post not found', 'post_not_found');
    return { post, place };
  }

  /** The comment, its post and place if the actor may see them; 404 otherwise. */
  async visibleComment(actor: Actor, commentId: number): Promise<{ comment: C; post: P; place: Place }> {
    const comment = await this.store.findComment(commentId);
    const post = comment ? await this.store.findPost(this.store.commentRef(comment).post_id) : null;
    const place = post ? await this.placeSeenBy(actor, post) : null;
    if (!comment || !post || place === null) throw new NotFound('Comment not found', 'comment_not_found');
    return { comment, post, place };
  }

  private placeSeenBy(actor: Actor, post: P): Promise<Place | null> {
    const ref = this.store.postRef(post);
    return this.surface.seenBy(actor, ref.place_id, ref.id);
  }

  /**
   * Who may post publishes; the post is composed by the one rule of every surface (post-composition.ts)
   * and stored with what the surface derives from it (its listener), in one unit of work.
   */
  async publish(actor: Actor, placeId: number, draft: PostDraft): Promise<{ post: N; place: Place }> {
    const place = await this.surface.publishingPlace(actor, placeId);
    const composed = await composePost(this.deps.media, this.surface.uploader(actor, placeId), draft, this.surface.limits.post);
    const post = await this.deps.uow.run(async () => {
      const created = await this.store.createPost(placeId, actor.userId, composed, this.now());
      await this.listener.published?.(actor, created, place);
      return created;
    });
    return { post, place };
  }

  /**
   * Its author edits a post (while the surface lets them keep it); the text follows the publishing rule,
   * and so do the tags (the given ones, `tags`, plus the new text's hashtags).
   */
  async edit(
    actor: Actor,
    postId: number,
    contentRaw: string,
    tags?: PostDraft['tags'],
  ): Promise<{ post: P; place: Place; content: string; at: Timestamp }> {
    const { post, place } = await this.visiblePost(actor, postId);
    const ref = this.store.postRef(post);
    if (ref.user_id !== actor.userId || !this.surface.authorMayKeep(place)) throw this.surface.refusals.editPost();
    const content = composeEdit(contentRaw, ref.has_media, this.surface.limits.post);
    const at = this.now();
    await this.deps.uow.run(async () => {
      await this.store.updatePost(postId, content, at, tagsOf(tags, content));
      await this.listener.edited?.(actor, postId, place);
    });
    return { post, place, content, at };
  }

  /**
   * The author or the place's moderators delete a post, with its comments and every reaction; the
   * surface's listener hears of it first, in the same unit of work (undone if the post was gone already).
   */
  async delete(actor: Actor, postId: number): Promise<void> {
    const { post, place } = await this.visiblePost(actor, postId);
    const own = this.store.postRef(post).user_id === actor.userId && this.surface.authorMayKeep(place);
    if (!own && !(await this.surface.mayModerate(actor, place, 'post'))) throw this.surface.refusals.deletePost();
    await this.deps.uow.run(async () => {
      await this.listener.removing?.(actor, post, place);
      if (!(await this.store.deletePost(postId))) throw new NotFound('Post not found', 'post_not_found');
    });
  }

  /** The actor's reaction on a post they see, or null. */
  async reactionOf(actor: Actor, postId: number): Promise<ReactionType | null> {
    return (await this.store.reactionsBy(actor.userId, [postId])).get(postId) ?? null;
  }

  /**
   * The one reaction rule (shared/reaction-rule.ts) under the post's lock: the author is told of a new or
   * changed reaction if the surface tells anyone and they still see the place. `decide` may turn the put
   * into taking back (a surface's wire difference, decided under the lock from the current reaction).
   */
  async react(
    actor: Actor,
    postId: number,
    type: ReactionType,
    decide?: (current: ReactionType | null) => 'put' | 'remove',
  ): Promise<{ post: P; change: ReactionChange | 'removed' | 'none' }> {
    const { post, place } = await this.visiblePost(actor, postId);
    const author = this.store.postRef(post).user_id;
    const noticePlace = this.surface.noticePlace(place, postId);
    const notify = noticePlace !== null && author !== actor.userId && (await this.surface.canUserSee(author, place, postId));
    // Called outside any unit of work: the lock is the unit's first statement, so what is read after it
    // (the current reaction, the counter) is read under it, not from a snapshot taken before.
    return this.deps.uow.run(async () => {
      await this.store.lockPost(postId);
      const change = await this.putOrTakeBack(actor, postId, type, decide, notify && noticePlace ? noticePlace : null, author);
      return { post: (await this.store.findPost(postId)) ?? post, change };
    });
  }

  private async putOrTakeBack(
    actor: Actor,
    postId: number,
    type: ReactionType,
    decide: ((current: ReactionType | null) => 'put' | 'remove') | undefined,
    noticePlace: NoticePlace | null,
    author: number,
  ): Promise<ReactionChange | 'removed' | 'none'> {
    if (decide && decide(await this.reactionOf(actor, postId)) === 'remove') {
      return (await removeReaction(this.store.reactions, postId, actor.userId)) ? 'removed' : 'none';
    }
    return putReaction(
      this.store.reactions,
      postId,
      actor.userId,
      type,
      this.now(),
      noticePlace
        ? { notify: (c) => this.deps.events.postReacted({ actor, recipientId: author, reaction: type, change: c, place: noticePlace }) }
        : undefined,
    );
  }

  /** Takes the actor's reaction back; never announced. */
  async unreact(actor: Actor, postId: number): Promise<boolean> {
    await this.visiblePost(actor, postId);
    return this.deps.uow.run(async () => {
      await this.store.lockPost(postId);
      return removeReaction(this.store.reactions, postId, actor.userId);
    });
  }

  /**
   * A comment or reply by anyone who sees the post; the post's and the parent's authors are told, if they
   * still see it, and the surface's listener hears of it, in the comment's unit of work.
   */
  async comment(actor: Actor, input: { post_id: number; content: string; parent_id?: number | null }): Promise<{ comment: C; post: P }> {
    const { post, place } = await this.visiblePost(actor, input.post_id);
    const content = composeComment(input.content, this.surface.limits.comment);
    let parent: C | null = null;
    if (input.parent_id) {
      parent = await this.store.findComment(input.parent_id);
      if (!parent || this.store.commentRef(parent).post_id !== postIdOf(this.store, post)) {
        throw Invalid.field('parent_id', 'must be a comment of the same post', 'invalid_parent');
      }
    }
    const author = this.store.postRef(post).user_id;
    const parentAuthor = parent === null ? null : this.store.commentRef(parent).user_id;
    const noticePlace = this.surface.noticePlace(place, input.post_id);
    const tell = async (userId: number | null) =>
      noticePlace !== null && userId !== null && userId !== actor.userId && (await this.surface.canUserSee(userId, place, input.post_id));
    const notifyAuthor = await tell(author);
    const notifyParent = parentAuthor !== author && (await tell(parentAuthor));
    const comment = await this.deps.uow.run(async () => {
      const created = await this.store.createComment(post, actor.userId, parent, content, this.now());
      if (noticePlace) {
        await this.deps.events.commented({
          actor,
          commentId: this.store.commentRef(created).id,
          postAuthorId: notifyAuthor ? author : null,
          parentAuthorId: notifyParent ? parentAuthor : null,
          place: noticePlace,
        });
      }
      await this.listener.commented?.(actor, created, post, place);
      return created;
    });
    return { comment, post };
  }

  /** Its author edits a comment of a post they still see. */
  async editComment(actor: Actor, commentId: number, contentRaw: string): Promise<{ comment: C; content: string; at: Timestamp }> {
    const { comment, post } = await this.visibleComment(actor, commentId);
    if (this.store.commentRef(comment).user_id !== actor.userId) throw this.surface.refusals.editComment();
    const content = composeComment(contentRaw, this.surface.limits.comment);
    const at = this.now();
    await this.deps.uow.run(async () => {
      await this.store.updateComment(commentId, content, at);
      await this.listener.commentEdited?.(actor, commentId, post);
    });
    return { comment, content, at };
  }

  /**
   * The author deletes their comment, even where they no longer see the place (one may always take back
   * what one wrote); the place's moderators delete anyone's comment of a post they see. Replies and
   * reactions go with it.
   */
  async deleteComment(actor: Actor, commentId: number): Promise<void> {
    const comment = await this.store.findComment(commentId);
    if (!comment) throw new NotFound('Comment not found', 'comment_not_found');
    if (this.store.commentRef(comment).user_id !== actor.userId) {
      const { place } = await this.visibleComment(actor, commentId);
      if (!(await this.surface.mayModerate(actor, place, 'comment'))) throw this.surface.refusals.deleteComment();
    }
    const postId = this.store.commentRef(comment).post_id;
    const removed = await this.deps.uow.run(async () => {
      // The post's lock first: the listener's reads then see a concurrent removal's commit (on MySQL a
      // read before it would fix the snapshot), and a removal made meanwhile tells no one.
      await this.store.lockPost(postId);
      const current = await this.store.findComment(commentId);
      const post = current ? await this.store.findPost(postId) : null;
      if (current && post) await this.listener.removingComment?.(actor, current, post);
      return this.store.deleteComment(commentId);
    });
    if (!removed) throw new NotFound('Comment not found', 'comment_not_found');
  }
}

function postIdOf<P, C, N extends P>(store: SurfacePostStore<P, C, N>, post: P): number {
  return store.postRef(post).id;
}
