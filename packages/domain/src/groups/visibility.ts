import { canSeePost } from '../content/visibility.js';
import type { GroupPrivacy, GroupRelation } from './model.js';

/**
 * THE visibility rule of community groups (docs/decisions/0030), the one place every path of the groups
 * context asks; its content term is `canSeePost` with a `group` audience (content/visibility.ts):
 *
 * - A group's content (its posts, their comments and reactions, its member list, the notifications
 *   about them) is seen by everyone when the group is public, and only by its members when it is
 *   private. Site moderators are not members: they see no more than anyone else, but for a post a
 *   pending report names (`GroupPostService.readablePost`, docs/decisions/0012). Leaving (or being
 *   kicked) takes it away at once, since the rule is decided at every read.
 * - The group's card (name, description, avatar, counters) of a private group is also shown to the
 *   people it concerns without being members: someone invited (to accept the invitation) and someone
 *   who asked to join (to see the request pending). To everyone else a private group does not exist: no
 *   list shows it, and reading it answers 404.
 *
 * SQL lists compose `groupContentVisibleTo` (adapters-mysql groups/group-visibility.ts), this rule as a
 * predicate; the groups contract suite holds the two to the same cases.
 */
export function canSeeGroupContent(group: { id?: number; privacy: GroupPrivacy }, relation: GroupRelation): boolean {
  // The posts' rule, with the group as the audience (content/visibility.ts): one rule for every post.
  return canSeePost(
    ANYONE,
    { kind: 'group', groupId: group.id ?? 0, isPrivate: group.privacy === 'private' },
    { follows: false, member: relation.role !== null },
  );
}

/** The group rule reads no more of the viewer than membership: site moderators are not members. */
const ANYONE = { userId: 0, moderator: false };

export function canSeeGroup(group: { privacy: GroupPrivacy }, relation: GroupRelation): boolean {
  return canSeeGroupContent(group, relation) || relation.invited || relation.requested;
}

/**
 * Notifications about membership (an invitation, a request, its answer) concern the person, not the
 * group's content: they stay readable by their recipient whatever the group. Every other notification
 * carrying a `group_id` is about the group's content and follows `canSeeGroupContent`.
 */
export const GROUP_MEMBERSHIP_NOTIFICATIONS = ['group_invite', 'group_join_request', 'group_join_approved', 'group_join_rejected'] as const;

/** The web link of a group, and of one of its posts, that the clients parse for ids (contract §17, §9). */
export function groupLink(groupId: number, postId?: number): string {
  return postId === undefined ? `group_detail.php?id=${groupId}` : `group_detail.php?id=${groupId}#post-${postId}`;
}
