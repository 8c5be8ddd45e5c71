import type { UserRepository } from '../accounts/ports.js';
import type { NoticePlace } from '../content/engagement-events.js';
import { emptyPostOnField } from '../content/post-composition.js';
import type { Surface, SurfacePostStore } from '../content/surface.js';
import type { Actor } from '../shared/actor.js';
import { Forbidden } from '../shared/errors.js';
import type { GroupService } from './group-service.js';
import {
  GROUP_COMMENT_MAX_LENGTH,
  GROUP_POST_MAX_LENGTH,
  type GroupCommentRecord,
  type GroupPostRecord,
  type GroupRecord,
  type GroupRelation,
  NO_RELATION,
} from './model.js';
import type { GroupCommentRepository, GroupPostRepository, GroupRepository } from './ports.js';
import { canSeeGroupContent, groupLink } from './visibility.js';

/** A group as a post's place: the group and the actor's relation to it (NO_RELATION when a public group spared the read). */
export interface GroupPlace {
  group: GroupRecord;
  relation: GroupRelation;
}

/**
 * Groups as a surface of the publishing core (docs/decisions/0190): a public group's posts are everyone's,
 * a private group's its members' (`canSeeGroupContent`); members publish; a group admin deletes any post
 * or comment; notices link the group (`group_detail.php?id=…#post-…`) and name it.
 */
export class GroupSurface implements Surface<GroupPlace> {
  readonly kind = 'group' as const;
  readonly limits = { post: { maxLength: GROUP_POST_MAX_LENGTH, emptyPost: emptyPostOnField }, comment: GROUP_COMMENT_MAX_LENGTH };
  readonly refusals = {
    editPost: () => new Forbidden('Only the author can edit this post'),
    deletePost: () => new Forbidden('Only the author or a group admin can delete this post'),
    editComment: () => new Forbidden('Only the author can edit this comment'),
    deleteComment: () => new Forbidden('Only the author or a group admin can delete this comment'),
  };

  constructor(
    private readonly groupService: GroupService,
    private readonly groups: GroupRepository,
    private readonly users: UserRepository,
  ) {}

  async seenBy(actor: Actor, groupId: number): Promise<GroupPlace | null> {
    const group = await this.groups.findById(groupId);
    if (!group) return null;
    const relation = group.privacy === 'public' ? NO_RELATION : await this.groups.relation(group.id, actor.userId);
    return canSeeGroupContent(group, relation) ? { group, relation } : null;
  }

  async publishingPlace(actor: Actor, groupId: number): Promise<GroupPlace> {
    const place = await this.groupService.visibleGroup(actor, groupId);
    if (!place.relation.role) throw new Forbidden('Only members publish in this group', 'not_a_member');
    return place;
  }

  authorMayKeep(): boolean {
    return true;
  }

  async mayModerate(actor: Actor, place: GroupPlace): Promise<boolean> {
    return (await this.groups.relation(place.group.id, actor.userId)).role === 'admin';
  }

  async canUserSee(userId: number, place: Pick<GroupPlace, 'group'>): Promise<boolean> {
    const { group } = place;
    if (group.privacy === 'public') return true;
    const user = await this.users.findById(userId);
    return !!user && !user.deleted_at && canSeeGroupContent(group, await this.groups.relation(group.id, userId));
  }

  noticePlace(place: GroupPlace, postId: number): NoticePlace {
    return { surface: 'group', group_id: place.group.id, link: groupLink(place.group.id, postId), in: place.group.name };
  }

  uploader(actor: Actor) {
    return actor;
  }
}

/** group_posts and group_comments as the core's store (their repositories keep the counters). */
export function groupPostStore(
  posts: GroupPostRepository,
  comments: GroupCommentRepository,
): SurfacePostStore<GroupPostRecord, GroupCommentRecord> {
  return {
    postRef: (p) => ({ id: p.id, place_id: p.group_id, user_id: p.user_id, has_media: p.media.length > 0 }),
    commentRef: (c) => c,
    findPost: (id) => posts.findById(id),
    createPost: (groupId, userId, post, at) => posts.create({ group_id: groupId, user_id: userId, ...post, created_at: at }),
    // An edit changes a group post's text only: its tags stay those of its publishing, as they always have.
    updatePost: (id, content, at) => posts.update(id, { content, updated_at: at }),
    deletePost: (id) => posts.delete(id),
    // A group post's reaction is one conditional write (its repository's react/unreact): no lock to take.
    lockPost: async () => {},
    reactions: {
      put: (postId, userId, type, at) => posts.react(postId, userId, type, at),
      remove: (postId, userId) => posts.unreact(postId, userId),
    },
    reactionsBy: (userId, ids) => posts.reactionsBy(userId, ids),
    findComment: (id) => comments.findById(id),
    createComment: (post, userId, parent, content, at) =>
      comments.create({
        post_id: post.id,
        group_id: post.group_id,
        user_id: userId,
        parent_id: parent?.id ?? null,
        content,
        created_at: at,
      }),
    updateComment: (id, content, at) => comments.update(id, content, at),
    deleteComment: (id) => comments.delete(id),
  };
}
