import type { UserRepository } from '../accounts/ports.js';
import type { PostRecord, ReactionType } from '../content/model.js';
import { COMMENT_MAX_LENGTH } from '../content/model.js';
import type { CommentRepository, PostRepository } from '../content/ports.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { DomainPolicy } from './domain-blocks.js';
import type { RemoteInteractionRepository } from './inbound-ports.js';
import { handleOf, type RemoteActor } from './model.js';
import type { RemoteActorRepository } from './ports.js';
import { remoteHtmlToText } from './remote-html.js';
import { reactionOfEmoji } from './remote-reactions.js';

/** A local post or comment an activity names (FederationUrls.localObjectOf). */
export interface LocalObject {
  kind: 'post' | 'comment';
  id: number;
}

/** A remote Note that answers a local object, as the inbox read it. */
export interface RemoteReply {
  object_id: string;
  actor_url: string;
  /** HTML as the remote server wrote it: reduced to text here (comments are text). */
  content: string;
  published_at: Timestamp;
}

/**
 * Notices to local authors of what remote actors did (docs/decisions/0205): raised in the write's
 * unit of work, as the local engagement events are. `handle` is the remote actor's `@name@domain`.
 */
export interface InboundNotices {
  commented(e: { handle: string; recipientId: number; postId: number; commentId: number; reply: boolean }): Promise<void>;
  reacted(e: { handle: string; recipientId: number; postId: number; reaction: ReactionType }): Promise<void>;
  shared(e: { handle: string; recipientId: number; postId: number }): Promise<void>;
  /** A reaction on a local comment, told to the comment's author (docs/decisions/0241). */
  commentReacted(e: { handle: string; recipientId: number; postId: number; commentId: number; reaction: ReactionType }): Promise<void>;
}

/** Why an inbound interaction changed nothing (the inbox logs it at debug level). */
export type Dropped = 'suspended' | 'unknown_object' | 'not_visible' | 'duplicate' | 'empty';

/**
 * What the inbox does with remote actors' interactions with local content (issue 29, item 2): a
 * reply becomes a comment whose author is the remote actor, a Like or an emoji reaction a reaction,
 * an Announce a share; Undo removes exactly what the same actor's activity added; Update and Delete
 * of a Note edit or remove its comment when its author sends them; Delete(Person) forgets the actor.
 * The activities reach here verified (signature, key owner = activity actor): `actorUrl` is the signer.
 * A remote actor may answer what it may see (docs/decisions/0050): a public account's post, or a
 * private account's when it follows the author; anything else is dropped, as are unknown objects.
 */
export class InboundInteractions {
  constructor(
    private readonly users: UserRepository,
    private readonly posts: PostRepository,
    private readonly comments: CommentRepository,
    private readonly actors: RemoteActorRepository,
    private readonly remote: RemoteInteractionRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly policy?: DomainPolicy,
    private readonly notices?: InboundNotices,
  ) {}

  /** The actor's handle as notices show it: from the cache, else from its URL. */
  private async handleOf(actorUrl: string, known?: RemoteActor | null): Promise<string> {
    const actor = known ?? (await this.actors.find(actorUrl));
    if (actor) return handleOf(actor);
    const u = new URL(actorUrl);
    return `@${u.pathname.split('/').filter(Boolean).pop() ?? u.host}@${u.host}`;
  }

  private now(): Timestamp {
    return toTimestamp(this.clock.now());
  }

  private async suspended(actorUrl: string): Promise<boolean> {
    return (await this.policy?.blockOf(actorUrl))?.severity === 'suspend';
  }

  /** The post an object is or belongs to, when the actor may see it; with the comment replied to. */
  private async visibleTarget(
    target: LocalObject,
    actorUrl: string,
  ): Promise<{ post: PostRecord; parentId: number | null; parentAuthorId: number } | Dropped> {
    let postId = target.id;
    let parentId: number | null = null;
    let parentAuthorId = 0;
    if (target.kind === 'comment') {
      const comment = await this.comments.findById(target.id);
      if (!comment) return 'unknown_object';
      postId = comment.post_id;
      parentId = comment.id;
      parentAuthorId = comment.user_id;
    }
    const post = await this.posts.findById(postId);
    if (!post) return 'unknown_object';
    const author = await this.users.findById(post.user_id);
    if (!author || author.deleted_at) return 'unknown_object';
    if (author.is_private && !(await this.remote.isFollower(author.id, actorUrl))) return 'not_visible';
    return { post, parentId, parentAuthorId };
  }

  /** A reply to a local post or comment: stored once as a comment by the remote author. */
  async replyReceived(reply: RemoteReply, target: LocalObject, actor: RemoteActor | null): Promise<number | Dropped> {
    if (await this.suspended(reply.actor_url)) return 'suspended';
    const found = await this.visibleTarget(target, reply.actor_url);
    if (typeof found === 'string') return found;
    const content = remoteHtmlToText(reply.content).slice(0, COMMENT_MAX_LENGTH);
    if (!content) return 'empty';
    const id = await this.uow.run(async () => {
      if (actor) await this.actors.upsert(actor);
      const stored = await this.remote.addComment({
        post_id: found.post.id,
        parent_id: found.parentId,
        actor_url: reply.actor_url,
        object_id: reply.object_id,
        content,
        created_at: reply.published_at > this.now() ? this.now() : reply.published_at,
      });
      if (stored !== null && this.notices) {
        const handle = await this.handleOf(reply.actor_url, actor);
        const notice = { handle, postId: found.post.id, commentId: stored };
        await this.notices.commented({ ...notice, recipientId: found.post.user_id, reply: false });
        // The local author of the comment answered is told too, unless that is the post's author.
        if (found.parentAuthorId > 0 && found.parentAuthorId !== found.post.user_id)
          await this.notices.commented({ ...notice, recipientId: found.parentAuthorId, reply: true });
      }
      return stored;
    });
    return id ?? 'duplicate';
  }

  /** Update(Note) of a stored reply, by its author. False when the Note is no comment here or not theirs. */
  async replyEdited(objectId: string, actorUrl: string, html: string): Promise<boolean> {
    if (await this.suspended(actorUrl)) return false;
    const content = remoteHtmlToText(html).slice(0, COMMENT_MAX_LENGTH);
    if (!content) return false;
    return this.remote.editComment(objectId, actorUrl, content, this.now());
  }

  /** Delete(Note) of a stored reply, by its author: the comment goes with its replies. */
  async replyDeleted(objectId: string, actorUrl: string): Promise<boolean> {
    const stored = await this.remote.findComment(objectId);
    if (!stored || stored.actor_url !== actorUrl) return false;
    await this.comments.delete(stored.id);
    return true;
  }

  /** A Like (or an emoji reaction, `emoji` its content) of a local post or comment. */
  async reacted(actorUrl: string, activityId: string, target: LocalObject, emoji: string | null): Promise<ReactionType | Dropped> {
    if (await this.suspended(actorUrl)) return 'suspended';
    const found = await this.visibleTarget(target, actorUrl);
    if (typeof found === 'string') return found;
    const type = emoji === null ? 'like' : reactionOfEmoji(emoji);
    if (target.kind === 'comment') return this.reactedToComment(actorUrl, activityId, found.post, target.id, found.parentAuthorId, type);
    const change = await this.uow.run(async () => {
      const done = await this.remote.react(found.post.id, actorUrl, activityId, type, this.now());
      if (done !== 'unchanged')
        await this.notices?.reacted({
          handle: await this.handleOf(actorUrl),
          recipientId: found.post.user_id,
          postId: found.post.id,
          reaction: type,
        });
      return done;
    });
    return change === 'unchanged' ? 'duplicate' : type;
  }

  /**
   * A reaction on a comment of a post the actor may see (docs/decisions/0241): one per actor and
   * comment, as on posts; its local author is told as of a local reaction (a remote comment's is no one).
   */
  private async reactedToComment(
    actorUrl: string,
    activityId: string,
    post: PostRecord,
    commentId: number,
    commentAuthorId: number,
    type: ReactionType,
  ): Promise<ReactionType | Dropped> {
    const change = await this.uow.run(async () => {
      const done = await this.remote.reactToComment(commentId, actorUrl, activityId, type, this.now());
      if (done !== 'unchanged' && commentAuthorId > 0)
        await this.notices?.commentReacted({
          handle: await this.handleOf(actorUrl),
          recipientId: commentAuthorId,
          postId: post.id,
          commentId,
          reaction: type,
        });
      return done;
    });
    return change === 'unchanged' ? 'duplicate' : type;
  }

  /** Undo of a Like or an emoji reaction (on a post or a comment): only the actor who reacted takes it back. */
  reactionUndone(actorUrl: string, activityId: string): Promise<boolean> {
    return this.remote.unreact(activityId, actorUrl);
  }

  /** An Announce (boost) of a local post counts as a share, once per actor. */
  async announced(actorUrl: string, activityId: string, target: LocalObject): Promise<boolean | Dropped> {
    if (await this.suspended(actorUrl)) return 'suspended';
    if (target.kind !== 'post') return 'unknown_object';
    const found = await this.visibleTarget(target, actorUrl);
    if (typeof found === 'string') return found;
    return this.uow.run(async () => {
      const counted = await this.remote.share(found.post.id, actorUrl, activityId, this.now());
      if (counted)
        await this.notices?.shared({ handle: await this.handleOf(actorUrl), recipientId: found.post.user_id, postId: found.post.id });
      return counted;
    });
  }

  announceUndone(actorUrl: string, activityId: string): Promise<boolean> {
    return this.remote.unshare(activityId, actorUrl);
  }

  /** Update(Person): refreshes the cached document of an actor already known here (nobody new is cached). */
  async actorUpdated(actor: RemoteActor): Promise<boolean> {
    if (await this.suspended(actor.actor_url)) return false;
    if (!(await this.actors.find(actor.actor_url))) return false;
    await this.actors.upsert(actor);
    return true;
  }

  /**
   * Delete(Person), signed by that actor: its comments (with the replies below them), reactions,
   * boosts, follows both ways and stored notes go. Returns how many comments went.
   */
  async actorDeleted(actorUrl: string): Promise<number> {
    const comments = await this.remote.commentsOf(actorUrl);
    // One at a time: each removal keeps its post's comments_count right under the post's lock.
    for (const id of comments) await this.comments.delete(id);
    await this.remote.forgetActor(actorUrl);
    return comments.length;
  }
}
