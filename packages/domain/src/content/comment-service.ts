import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { NotFound } from '../shared/errors.js';
import { pageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { putReaction, removeReaction, type ReactionSlots } from '../shared/reaction-rule.js';
import type { EngagementEvents, NoticePlace } from './engagement-events.js';
import type { AuthorInfo, CommentRecord, CommentType, CommentView, ListPage, ReactionType } from './model.js';
import type { CommentTarget, TargetComment } from './comment-targets.js';
import type { CommentRepository, PostRepository, RemoteCommentAuthors, RemoteCommentReactions } from './ports.js';
import { commentTrees, readThreadPage } from './comment-tree.js';
import type { PostService } from './post-service.js';
import type { WallPlace } from './wall-surface.js';

/** Comments of posts, their replies, and reactions on comments of every kind that exists. */
export class CommentService {
  constructor(
    private readonly posts: PostService,
    private readonly postRepo: PostRepository,
    private readonly comments: CommentRepository,
    /** The engagement listeners (notifications among them), called inside each write's unit of work. */
    private readonly events: EngagementEvents,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** The other kinds of comments (group, page…) reactions reach: every binding of `CommentTargets`. */
    private readonly targets: readonly CommentTarget[] = [],
    /** Who wrote the replies that came from other servers (bound by federation; none without it). */
    private readonly remoteAuthors: readonly RemoteCommentAuthors[] = [],
    /** Reactions of remote actors on wall comments (bound by federation, docs/decisions/0241). */
    private readonly remoteReactions: readonly RemoteCommentReactions[] = [],
  ) {}

  /** Root comments, page by page, each with its whole reply tree. Constant number of queries. */
  async list(actor: Actor, postId: number, page?: number, perPage?: number): Promise<ListPage<CommentView>> {
    await this.posts.visiblePost(actor, postId);
    const req = pageRequest(page, perPage);
    const { page: p, replies } = await readThreadPage(this.comments, postId, req);
    const all = [...p.items, ...replies];
    const authors = await this.postRepo.authors([...new Set(all.filter((c) => !c.remote_actor_url).map((c) => c.user_id))]);
    const remoteUrls = [...new Set(all.flatMap((c) => (c.remote_actor_url ? [c.remote_actor_url] : [])))];
    const remoteAuthors = new Map<string, AuthorInfo>();
    if (remoteUrls.length > 0)
      for (const source of this.remoteAuthors) for (const [k, v] of await source.of(remoteUrls)) remoteAuthors.set(k, v);
    const reacted = await this.comments.reactedBy(
      'post',
      all.map((c) => c.id),
      actor.userId,
    );
    return commentTrees(p, replies, { authors, remoteAuthors, reacted, record: (c) => c });
  }

  /**
   * The comment and what it raises (the post's and the parent's authors' notices, the mentions') are
   * stored together: the publishing core with the wall surface (post-service.ts, wall-surface.ts).
   */
  async create(actor: Actor, input: { post_id: number; content: string; parent_id?: number | null }): Promise<CommentRecord> {
    return (await this.posts.core.comment(actor, input)).comment;
  }

  /** Editing writes into the post's conversation, so it needs the post to be visible, like commenting. */
  async edit(actor: Actor, commentId: number, content: string): Promise<CommentRecord> {
    const edited = await this.posts.core.editComment(actor, commentId, content);
    return { ...edited.comment, content: edited.content, updated_at: edited.at };
  }

  /** The author, even of a post they no longer see, or a moderator of a post they see, deletes a comment with its replies. */
  delete(actor: Actor, commentId: number): Promise<void> {
    return this.posts.core.deleteComment(actor, commentId);
  }

  /** The reaction and its notification are stored together. */
  async react(actor: Actor, type: CommentType, commentId: number, reaction: ReactionType) {
    const target = this.target(type);
    if (target) return this.reactOnTarget(actor, target, commentId, reaction);
    const { comment, place } = await this.findComment(actor, type, commentId);
    // Whether the comment's author still sees the post is the wall surface's answer, as for a comment's notices.
    const notify = comment.user_id !== actor.userId && (await this.posts.core.surface.canUserSee(comment.user_id, place, comment.post_id));
    await this.uow.run(() =>
      putReaction(
        this.slots(type),
        commentId,
        actor.userId,
        reaction,
        toTimestamp(this.clock.now()),
        this.notice(actor, notify ? comment.user_id : null, comment.id, reaction, { surface: 'wall', post_id: comment.post_id }),
      ),
    );
    const after = await this.comments.findById(commentId);
    return { comment_id: commentId, reaction_type: reaction, reactions_count: after?.reactions_count ?? 0 };
  }

  async unreact(actor: Actor, type: CommentType, commentId: number) {
    const target = this.target(type);
    if (target) {
      await this.findTargetComment(actor, target, commentId);
      const removed = await this.uow.run(async () => {
        await this.lockTarget(target, commentId);
        return removeReaction(this.slots(type, target), commentId, actor.userId);
      });
      return { comment_id: commentId, removed, reactions_count: await this.targetCount(target, commentId) };
    }
    await this.findComment(actor, type, commentId);
    const removed = await removeReaction(this.slots(type), commentId, actor.userId);
    const after = await this.comments.findById(commentId);
    return { comment_id: commentId, removed, reactions_count: after?.reactions_count ?? 0 };
  }

  async reactions(actor: Actor, type: CommentType, commentId: number) {
    const target = this.target(type);
    if (target) await this.findTargetComment(actor, target, commentId);
    else await this.findComment(actor, type, commentId);
    const rows = await this.comments.reactions(type, commentId);
    const authors = await this.postRepo.authors(rows.map((r) => r.user_id));
    const local = rows.flatMap((r) => {
      const a = authors.get(r.user_id);
      return a ? [{ ...r, author: a }] : [];
    });
    if (type !== 'post' || this.remoteReactions.length === 0) return local;
    // Remote actors' reactions (user_id 0, their author carries `remote`), in the one list by date.
    const remote = [];
    for (const source of this.remoteReactions)
      for (const r of await source.of(commentId))
        remote.push({ user_id: 0, reaction_type: r.reaction_type, created_at: r.created_at, author: r.author });
    return [...local, ...remote].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  }

  /** A reaction on a comment of another kind: the target decides who sees it and keeps its count. */
  private async reactOnTarget(actor: Actor, target: CommentTarget, commentId: number, reaction: ReactionType) {
    const comment = await this.findTargetComment(actor, target, commentId);
    const notify = comment.user_id !== actor.userId && (await target.canUserSee(comment.user_id, comment));
    const { post_id, group_id, link } = comment.notification;
    await this.uow.run(async () => {
      await this.lockTarget(target, commentId);
      await putReaction(
        this.slots(target.type, target),
        commentId,
        actor.userId,
        reaction,
        toTimestamp(this.clock.now()),
        this.notice(actor, notify ? comment.user_id : null, comment.id, reaction, { surface: target.type, post_id, group_id, link }),
      );
    });
    return { comment_id: commentId, reaction_type: reaction, reactions_count: await this.targetCount(target, commentId) };
  }

  /**
   * The reactions of comments of one kind as the one reaction rule (shared/reaction-rule.ts) sees them;
   * a target with a stored counter moves it with a row really added or removed.
   */
  private slots(type: CommentType, target?: CommentTarget): ReactionSlots<number, ReactionType> {
    return {
      put: async (commentId, userId, reaction, at) => {
        const change = await this.comments.react(type, commentId, userId, reaction, at);
        if (change === 'added' && target?.counter) await target.counter.adjust(commentId, 1);
        return change;
      },
      remove: async (commentId, userId) => {
        const gone = await this.comments.unreact(type, commentId, userId);
        if (gone && target?.counter) await target.counter.adjust(commentId, -1);
        return gone;
      },
    };
  }

  /** Who is told of a reaction on a comment (no one when `recipientId` is null): added or changed alike. */
  private notice(actor: Actor, recipientId: number | null, commentId: number, reaction: ReactionType, place: NoticePlace) {
    if (recipientId === null) return undefined;
    return {
      notify: (change: 'added' | 'changed') => this.events.commentReacted({ actor, recipientId, commentId, reaction, change, place }),
    };
  }

  /** The first statement of a reaction's unit of work on another kind of comment: its row lock. */
  private async lockTarget(target: CommentTarget, commentId: number): Promise<void> {
    if (target.counter) await target.counter.lock(commentId);
    else if (target.lock) await target.lock(commentId);
  }

  private target(type: CommentType): CommentTarget | undefined {
    return type === 'post' ? undefined : this.targets.find((t) => t.type === type);
  }

  private async findTargetComment(actor: Actor, target: CommentTarget, commentId: number): Promise<TargetComment> {
    const comment = await target.find(actor, commentId);
    if (!comment) throw new NotFound('Comment not found', 'comment_not_found');
    return comment;
  }

  private async targetCount(target: CommentTarget, commentId: number): Promise<number> {
    if (target.counter) return target.counter.read(commentId);
    return (await this.comments.countReactions(target.type, [commentId])).get(commentId) ?? 0;
  }

  /** A post comment; a type no bound target serves is as unknown as a missing comment. */
  private async findComment(actor: Actor, type: CommentType, commentId: number): Promise<{ comment: CommentRecord; place: WallPlace }> {
    if (type !== 'post') throw new NotFound('Comment not found', 'comment_not_found');
    const comment = await this.comments.findById(commentId);
    if (!comment) throw new NotFound('Comment not found', 'comment_not_found');
    // A comment of a post the actor may not see is as unknown as the post: 404.
    return { comment, place: (await this.posts.core.visiblePost(actor, comment.post_id)).place };
  }
}
