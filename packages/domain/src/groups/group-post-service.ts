import type { UserRepository } from '../accounts/ports.js';
import type { CommentTarget, TargetComment } from '../content/comment-targets.js';
import type { EngagementEvents } from '../content/engagement-events.js';
import { commentTrees, readThreadPage } from '../content/comment-tree.js';
import { type CommentRecord, type CommentView, type ListPage, type ReactionType } from '../content/model.js';
import type { CommentRepository, PostRepository } from '../content/ports.js';
import type { MediaReferences } from '../media/references.js';
import type { ReportedSurface } from '../moderation/reportable-posts.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, NotFound } from '../shared/errors.js';
import { listPage, pageRequest } from '../shared/pagination.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { SurfacePosts } from '../content/surface-posts.js';
import type { GroupService } from './group-service.js';
import { type GroupPlace, GroupSurface, groupPostStore } from './group-surface.js';
import { type GroupCommentRecord, type GroupPostRecord, type GroupPostView, type GroupRecord } from './model.js';
import type { GroupCommentRepository, GroupPostRepository, GroupRepository } from './ports.js';
import { groupLink } from './visibility.js';

export interface CreateGroupPostInput {
  group_id: number;
  content?: string | null;
  /** One file name (what the mobile client sends) or several. */
  media?: string | string[] | null;
  media_type?: string | null;
  tags?: string[] | string | null;
}

/**
 * group_posts.php, group_comments.php and group_reactions.php. Reading follows `canSeeGroupContent`
 * (visibility.ts) at every call: a public group's content is everyone's, a private group's its
 * members'. Publishing a post takes membership; commenting and reacting take seeing the post.
 * A post or comment of a group the actor may not see is answered 404, like a missing one; the list of
 * a private group's posts answers 403 to a non-member who may know the group (the client expects it).
 */
export class GroupPostService {
  /** The publishing core with the group surface (docs/decisions/0190). */
  readonly core: SurfacePosts<GroupPlace, GroupPostRecord, GroupCommentRecord>;
  private readonly surface: GroupSurface;

  constructor(
    private readonly groupService: GroupService,
    private readonly groups: GroupRepository,
    private readonly posts: GroupPostRepository,
    private readonly comments: GroupCommentRepository,
    private readonly commentReactions: Pick<CommentRepository, 'reactedBy' | 'countReactions'>,
    private readonly people: Pick<PostRepository, 'authors'>,
    users: UserRepository,
    /** The engagement listeners (notifications among them), called inside each write's unit of work. */
    events: EngagementEvents,
    clock: Clock,
    uow: UnitOfWork,
    /** Checks that media name uploaded files (docs/decisions/0043). */
    media: MediaReferences,
  ) {
    this.surface = new GroupSurface(groupService, groups, users);
    this.core = new SurfacePosts<GroupPlace, GroupPostRecord, GroupCommentRecord>(this.surface, groupPostStore(posts, comments), {
      events,
      clock,
      uow,
      media,
    });
  }

  /** Whether `userId` may see the content of `group`: the notification gate. */
  canUserSee(userId: number, group: GroupRecord): Promise<boolean> {
    return this.surface.canUserSee(userId, { group });
  }

  /** The post and its group if the actor may see them; 404 otherwise. */
  async visiblePost(actor: Actor, postId: number): Promise<{ post: GroupPostRecord; group: GroupRecord }> {
    const { post, place } = await this.core.visiblePost(actor, postId);
    return { post, group: place.group };
  }

  async list(actor: Actor, groupId: number, options: { page?: number; perPage?: number }): Promise<ListPage<GroupPostView>> {
    await this.groupService.contentOf(actor, groupId);
    const req = pageRequest(options.page, options.perPage);
    const rows = listPage(await this.posts.listByGroup(groupId, req), req);
    return { ...rows, items: await this.views(actor, rows.items) };
  }

  /**
   * What the moderators judge (docs/decisions/0012): a post a pending report names, read whatever the
   * group; everyone else reads as the group rule says. Only reading: acting in a group stays its members'.
   */
  async readablePost(actor: Actor, postId: number): Promise<{ post: GroupPostRecord; group: GroupRecord }> {
    try {
      return await this.visiblePost(actor, postId);
    } catch (error) {
      if (!(error instanceof NotFound) || !canModerate(actor) || !(await this.posts.underReport(postId))) throw error;
      const post = await this.posts.findById(postId);
      const group = post ? await this.groups.findById(post.group_id) : null;
      if (!post || !group) throw error;
      return { post, group };
    }
  }

  /**
   * Group posts as reports.php names them (`post_type: "group"`): the reporter must see the post (a
   * member, in a private group); a `remove` decision deletes it with its thread.
   */
  readonly reported: ReportedSurface = {
    visiblePost: async (actor, postId) => (await this.visiblePost(actor, postId)).post,
    removeReported: (moderator, postId) => this.removeByModerators(moderator, postId),
  };

  /** The moderators' `remove` decision on a reported post: it goes with its thread, whoever they are to the group. */
  async removeByModerators(moderator: Actor, postId: number): Promise<void> {
    if (!canModerate(moderator)) throw new Forbidden('Only moderators decide reports', 'not_moderator');
    if (!(await this.posts.delete(postId))) throw new NotFound('Post not found', 'post_not_found');
  }

  async view(actor: Actor, postId: number): Promise<GroupPostView> {
    const { post } = await this.readablePost(actor, postId);
    const [view] = await this.views(actor, [post]);
    if (!view) throw new NotFound('Post not found', 'post_not_found');
    return view;
  }

  private async views(actor: Actor, posts: GroupPostRecord[]): Promise<GroupPostView[]> {
    const [authors, reactions] = await Promise.all([
      this.people.authors([...new Set(posts.map((p) => p.user_id))]),
      this.posts.reactionsBy(
        actor.userId,
        posts.map((p) => p.id),
      ),
    ]);
    return posts.flatMap((post) => {
      const author = authors.get(post.user_id);
      if (!author) return [];
      const reaction = reactions.get(post.id) ?? null;
      return [{ post, author, is_liked: reaction !== null, reaction_type: reaction }];
    });
  }

  /** Members publish; content or media is required; media are uploads of type posts (`media_…`, `group_post_…`). */
  async create(actor: Actor, input: CreateGroupPostInput): Promise<GroupPostView> {
    const { post } = await this.core.publish(actor, input.group_id, input);
    return this.view(actor, post.id);
  }

  async edit(actor: Actor, postId: number, contentRaw: string): Promise<GroupPostView> {
    await this.core.edit(actor, postId, contentRaw);
    return this.view(actor, postId);
  }

  /** The author or a group admin deletes a post, with its comments and every reaction (one unit of work). */
  delete(actor: Actor, postId: number): Promise<void> {
    return this.core.delete(actor, postId);
  }

  /** One reaction per user per post; the author is told of a new or changed one (if they still see the group). */
  async react(actor: Actor, postId: number, reaction: ReactionType) {
    const { change } = await this.core.react(actor, postId, reaction);
    const after = await this.posts.findById(postId);
    return { post_id: postId, reaction_type: reaction, outcome: change, likes_count: after?.likes_count ?? 0 };
  }

  async unreact(actor: Actor, postId: number) {
    const removed = await this.core.unreact(actor, postId);
    const after = await this.posts.findById(postId);
    return { post_id: postId, removed, likes_count: after?.likes_count ?? 0 };
  }

  /** Root comments of a post, page by page, each with its whole reply tree; a constant number of queries per level. */
  async listComments(actor: Actor, postId: number, options: { page?: number; perPage?: number }): Promise<ListPage<CommentView>> {
    await this.readablePost(actor, postId);
    const req = pageRequest(options.page, options.perPage);
    const { page: p, replies } = await readThreadPage(this.comments, postId, req);
    const all = [...p.items, ...replies];
    const ids = all.map((c) => c.id);
    const [authors, reacted, counts] = await Promise.all([
      this.people.authors([...new Set(all.map((c) => c.user_id))]),
      this.commentReactions.reactedBy('group', ids, actor.userId),
      this.commentReactions.countReactions('group', ids),
    ]);
    return commentTrees(p, replies, { authors, reacted, record: (c) => asCommentRecord(c, counts.get(c.id) ?? 0) });
  }

  /** A comment or reply; the post's author and the parent's author are told, if they still see the group. */
  async comment(actor: Actor, input: { post_id: number; content: string; parent_id?: number | null }): Promise<CommentRecord> {
    return asCommentRecord((await this.core.comment(actor, input)).comment, 0);
  }

  async editComment(actor: Actor, commentId: number, contentRaw: string): Promise<CommentRecord> {
    const { comment, content, at } = await this.core.editComment(actor, commentId, contentRaw);
    const counts = await this.commentReactions.countReactions('group', [commentId]);
    return asCommentRecord({ ...comment, content, updated_at: at }, counts.get(commentId) ?? 0);
  }

  /** The author or a group admin deletes a comment, with its replies and their reactions. */
  deleteComment(actor: Actor, commentId: number): Promise<void> {
    return this.core.deleteComment(actor, commentId);
  }

  /** The comment if the actor may see its group's content; 404 otherwise. */
  async visibleComment(actor: Actor, commentId: number): Promise<GroupCommentRecord> {
    return (await this.core.visibleComment(actor, commentId)).comment;
  }
}

/** A group comment in the shape comments are presented in (comments.php and group_comments.php alike): its group aside, its count added. */
function asCommentRecord({ group_id: _group, ...comment }: GroupCommentRecord, reactions: number): CommentRecord {
  return { ...comment, reactions_count: reactions };
}

/**
 * Group comments in comment_reactions.php (`comment_type: "group"`): visible as their group's content
 * is, the author told only while they still see it, the count counted from the reaction rows.
 */
export class GroupCommentTarget implements CommentTarget {
  readonly type = 'group' as const;
  constructor(
    private readonly posts: GroupPostService,
    private readonly groups: GroupRepository,
    private readonly comments: Pick<GroupCommentRepository, 'lock'>,
  ) {}

  /** The comment's lock; a comment deleted since it was found is as unknown as a missing one. */
  async lock(commentId: number): Promise<void> {
    if (!(await this.comments.lock(commentId))) throw new NotFound('Comment not found', 'comment_not_found');
  }

  async find(actor: Actor, commentId: number): Promise<TargetComment | null> {
    try {
      const c = await this.posts.visibleComment(actor, commentId);
      return {
        id: c.id,
        user_id: c.user_id,
        notification: { post_id: null, group_id: c.group_id, link: groupLink(c.group_id, c.post_id) },
      };
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  async canUserSee(userId: number, comment: TargetComment): Promise<boolean> {
    const group = comment.notification.group_id === null ? null : await this.groups.findById(comment.notification.group_id);
    return group !== null && this.posts.canUserSee(userId, group);
  }
}
