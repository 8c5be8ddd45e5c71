import type { UserRepository } from '../accounts/ports.js';
import type { CommentTarget, TargetComment } from '../content/comment-targets.js';
import type { EngagementEvents, NoticePlace } from '../content/engagement-events.js';
import { commentTrees, readThreadPage } from '../content/comment-tree.js';
import {
  type CommentRecord,
  type CommentView,
  extractHashtags,
  type ListPage,
  normalizeTags,
  type ReactionType,
} from '../content/model.js';
import type { CommentRepository, PostRepository } from '../content/ports.js';
import type { MediaReferences } from '../media/references.js';
import type { ReportedSurface } from '../moderation/reportable-posts.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { listPage, pageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { putReaction, reactionSlotsOf, removeReaction } from '../shared/reaction-rule.js';
import type { GroupService } from './group-service.js';
import {
  GROUP_COMMENT_MAX_LENGTH,
  GROUP_POST_MAX_LENGTH,
  type GroupCommentRecord,
  type GroupPostRecord,
  type GroupPostView,
  type GroupRecord,
  NO_RELATION,
} from './model.js';
import type { GroupCommentRepository, GroupPostRepository, GroupRepository } from './ports.js';
import { canSeeGroupContent, groupLink } from './visibility.js';

const MAX_MEDIA = 10;

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
  constructor(
    private readonly groupService: GroupService,
    private readonly groups: GroupRepository,
    private readonly posts: GroupPostRepository,
    private readonly comments: GroupCommentRepository,
    private readonly commentReactions: Pick<CommentRepository, 'reactedBy' | 'countReactions'>,
    private readonly people: Pick<PostRepository, 'authors'>,
    private readonly users: UserRepository,
    /** The engagement listeners (notifications among them), called inside each write's unit of work. */
    private readonly events: EngagementEvents,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Checks that media name uploaded files (docs/decisions/0043). */
    private readonly media: MediaReferences,
  ) {}

  /** A group post's reactions, as the one reaction rule (shared/reaction-rule.ts) puts and removes them. */
  private get slots() {
    return reactionSlotsOf<ReactionType>(this.posts);
  }

  /** Where the notices of a group's posts point: the group and the post's web link, the texts naming the group. */
  private place(group: GroupRecord, postId: number): NoticePlace {
    return { surface: 'group', group_id: group.id, link: groupLink(group.id, postId), in: group.name };
  }

  /** Whether `userId` may see the content of `group`: the notification gate. */
  async canUserSee(userId: number, group: Pick<GroupRecord, 'id' | 'privacy'>): Promise<boolean> {
    if (group.privacy === 'public') return true;
    const user = await this.users.findById(userId);
    return !!user && !user.deleted_at && canSeeGroupContent(group, await this.groups.relation(group.id, userId));
  }

  /** The post and its group if the actor may see them; 404 otherwise. */
  async visiblePost(actor: Actor, postId: number): Promise<{ post: GroupPostRecord; group: GroupRecord }> {
    const post = await this.posts.findById(postId);
    const group = post ? await this.groups.findById(post.group_id) : null;
    if (
      !post ||
      !group ||
      !canSeeGroupContent(group, group.privacy === 'public' ? NO_RELATION : await this.groups.relation(group.id, actor.userId))
    ) {
      throw new NotFound('Post not found', 'post_not_found');
    }
    return { post, group };
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
    const { group, relation } = await this.groupService.visibleGroup(actor, input.group_id);
    if (!relation.role) throw new Forbidden('Only members publish in this group', 'not_a_member');
    const content = (input.content ?? '').trim();
    const rawMedia = input.media === undefined || input.media === null ? [] : Array.isArray(input.media) ? input.media : [input.media];
    const media = (
      await this.media.requireAll(
        actor,
        'media',
        rawMedia.filter((m) => m.trim() !== '').map((m) => m.trim()),
        ['posts'],
      )
    ).map((m) => m.name);
    if (!content && media.length === 0) throw Invalid.field('content', 'a post needs content or media', 'empty_post');
    if (content.length > GROUP_POST_MAX_LENGTH) throw Invalid.field('content', `must be at most ${GROUP_POST_MAX_LENGTH} characters`);
    if (media.length > MAX_MEDIA) throw Invalid.field('media', `at most ${MAX_MEDIA} files`);
    const mediaType = media.length
      ? input.media_type || (/\.(mp4|webm|mov|m4v|avi|mkv|ogg|ogv)$/i.test(media[0]) ? 'video' : 'image')
      : null;
    if (mediaType !== null && mediaType !== 'image' && mediaType !== 'video') throw Invalid.field('media_type', 'must be image or video');
    const given = typeof input.tags === 'string' ? input.tags.split(/[\s,]+/) : (input.tags ?? []);
    const tags = normalizeTags([...given, ...extractHashtags(content)]);
    const post = await this.posts.create({
      group_id: group.id,
      user_id: actor.userId,
      content,
      media,
      media_type: mediaType,
      tags,
      created_at: toTimestamp(this.clock.now()),
    });
    return this.view(actor, post.id);
  }

  async edit(actor: Actor, postId: number, contentRaw: string): Promise<GroupPostView> {
    const { post } = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId) throw new Forbidden('Only the author can edit this post');
    const content = contentRaw.trim();
    if (!content && post.media.length === 0) throw Invalid.field('content', 'a post needs content or media', 'empty_post');
    if (content.length > GROUP_POST_MAX_LENGTH) throw Invalid.field('content', `must be at most ${GROUP_POST_MAX_LENGTH} characters`);
    await this.posts.update(postId, { content, updated_at: toTimestamp(this.clock.now()) });
    return this.view(actor, postId);
  }

  /** The author or a group admin deletes a post, with its comments and every reaction (one unit of work). */
  async delete(actor: Actor, postId: number): Promise<void> {
    const { post } = await this.visiblePost(actor, postId);
    if (post.user_id !== actor.userId && (await this.groups.relation(post.group_id, actor.userId)).role !== 'admin') {
      throw new Forbidden('Only the author or a group admin can delete this post');
    }
    if (!(await this.posts.delete(postId))) throw new NotFound('Post not found', 'post_not_found');
  }

  /** One reaction per user per post; the author is told of a new or changed one (if they still see the group). */
  async react(actor: Actor, postId: number, reaction: ReactionType) {
    const { post, group } = await this.visiblePost(actor, postId);
    const notify = post.user_id !== actor.userId && (await this.canUserSee(post.user_id, group));
    const outcome = await this.uow.run(() =>
      putReaction(
        this.slots,
        postId,
        actor.userId,
        reaction,
        toTimestamp(this.clock.now()),
        notify
          ? {
              notify: (change) =>
                this.events.postReacted({ actor, recipientId: post.user_id, reaction, change, place: this.place(group, post.id) }),
            }
          : undefined,
      ),
    );
    const after = await this.posts.findById(postId);
    return { post_id: postId, reaction_type: reaction, outcome, likes_count: after?.likes_count ?? 0 };
  }

  async unreact(actor: Actor, postId: number) {
    await this.visiblePost(actor, postId);
    const removed = await removeReaction(this.slots, postId, actor.userId);
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
    const { post, group } = await this.visiblePost(actor, input.post_id);
    const content = input.content.trim();
    if (!content) throw Invalid.field('content', 'must not be empty');
    if (content.length > GROUP_COMMENT_MAX_LENGTH) throw Invalid.field('content', `must be at most ${GROUP_COMMENT_MAX_LENGTH} characters`);
    let parent: GroupCommentRecord | null = null;
    if (input.parent_id) {
      parent = await this.comments.findById(input.parent_id);
      if (!parent || parent.post_id !== post.id) throw Invalid.field('parent_id', 'must be a comment of the same post', 'invalid_parent');
    }
    const notifyAuthor = post.user_id !== actor.userId && (await this.canUserSee(post.user_id, group));
    const notifyParent =
      parent !== null &&
      parent.user_id !== post.user_id &&
      parent.user_id !== actor.userId &&
      (await this.canUserSee(parent.user_id, group));
    const created = await this.uow.run(async () => {
      const comment = await this.comments.create({
        post_id: post.id,
        group_id: group.id,
        user_id: actor.userId,
        parent_id: parent?.id ?? null,
        content,
        created_at: toTimestamp(this.clock.now()),
      });
      await this.events.commented({
        actor,
        commentId: comment.id,
        postAuthorId: notifyAuthor ? post.user_id : null,
        parentAuthorId: notifyParent ? parent!.user_id : null,
        place: this.place(group, post.id),
      });
      return comment;
    });
    return asCommentRecord(created, 0);
  }

  async editComment(actor: Actor, commentId: number, contentRaw: string): Promise<CommentRecord> {
    const comment = await this.visibleComment(actor, commentId);
    if (comment.user_id !== actor.userId) throw new Forbidden('Only the author can edit this comment');
    const content = contentRaw.trim();
    if (!content) throw Invalid.field('content', 'must not be empty');
    if (content.length > GROUP_COMMENT_MAX_LENGTH) throw Invalid.field('content', `must be at most ${GROUP_COMMENT_MAX_LENGTH} characters`);
    const at = toTimestamp(this.clock.now());
    await this.comments.update(commentId, content, at);
    const counts = await this.commentReactions.countReactions('group', [commentId]);
    return asCommentRecord({ ...comment, content, updated_at: at }, counts.get(commentId) ?? 0);
  }

  /** The author or a group admin deletes a comment, with its replies and their reactions. */
  async deleteComment(actor: Actor, commentId: number): Promise<void> {
    const comment = await this.visibleComment(actor, commentId);
    if (comment.user_id !== actor.userId && (await this.groups.relation(comment.group_id, actor.userId)).role !== 'admin') {
      throw new Forbidden('Only the author or a group admin can delete this comment');
    }
    if (!(await this.comments.delete(commentId))) throw new NotFound('Comment not found', 'comment_not_found');
  }

  /** The comment if the actor may see its group's content; 404 otherwise. */
  async visibleComment(actor: Actor, commentId: number): Promise<GroupCommentRecord> {
    const comment = await this.comments.findById(commentId);
    const group = comment ? await this.groups.findById(comment.group_id) : null;
    if (
      !comment ||
      !group ||
      !canSeeGroupContent(group, group.privacy === 'public' ? NO_RELATION : await this.groups.relation(group.id, actor.userId))
    ) {
      throw new NotFound('Comment not found', 'comment_not_found');
    }
    return comment;
  }
}

/** A group comment in the shape comments are presented in (comments.php and group_comments.php alike). */
function asCommentRecord(c: GroupCommentRecord, reactions: number): CommentRecord {
  return {
    id: c.id,
    post_id: c.post_id,
    user_id: c.user_id,
    parent_id: c.parent_id,
    content: c.content,
    reactions_count: reactions,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
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
