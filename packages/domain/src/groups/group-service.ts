import type { UserRepository } from '../accounts/ports.js';
import type { PostRepository } from '../content/ports.js';
import type { MediaReferences, Uploader } from '../media/references.js';
import type { NotificationService } from '../notifications/notification-service.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { listPage, pageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { ListPage } from '../content/model.js';
import {
  GROUP_DESCRIPTION_MAX,
  GROUP_NAME_MAX,
  GROUP_PRIVACIES,
  type GroupChanges,
  type GroupPrivacy,
  type GroupRecord,
  type GroupRelation,
  type GroupView,
  type JoinRequestView,
  type MemberView,
  NO_RELATION,
} from './model.js';
import type { GroupRepository } from './ports.js';
import { canSeeGroup, canSeeGroupContent, groupLink } from './visibility.js';

export interface CreateGroupInput {
  name?: string | null;
  description?: string | null;
  privacy?: string | null;
  avatar?: string | null;
  cover_image?: string | null;
}

export type JoinOutcome = 'joined' | 'requested' | 'already_member' | 'already_requested';

function privacyOf(raw: string | null | undefined): GroupPrivacy {
  const value = (raw ?? 'public').trim() || 'public';
  if (!(GROUP_PRIVACIES as readonly string[]).includes(value)) throw Invalid.field('privacy', 'must be public or private');
  return value as GroupPrivacy;
}

function nameOf(raw: string | null | undefined): string {
  const name = (raw ?? '').trim();
  if (!name) throw Invalid.field('name', 'must not be empty');
  if (name.length > GROUP_NAME_MAX) throw Invalid.field('name', `must be at most ${GROUP_NAME_MAX} characters`);
  return name;
}

function descriptionOf(raw: string | null | undefined): string {
  const description = (raw ?? '').trim();
  if (description.length > GROUP_DESCRIPTION_MAX) throw Invalid.field('description', `must be at most ${GROUP_DESCRIPTION_MAX} characters`);
  return description;
}

/**
 * groups.php: community groups, their members and roles, join requests and invitations. Every rule of
 * who sees what is `canSeeGroup` / `canSeeGroupContent` (visibility.ts); every write that decides from
 * what it read runs in one unit of work whose first statement locks the group's row.
 */
export class GroupService {
  constructor(
    private readonly groups: GroupRepository,
    private readonly users: UserRepository,
    private readonly people: Pick<PostRepository, 'authors'>,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Checks that avatars and covers name uploaded images (docs/decisions/0043). */
    private readonly media: MediaReferences,
  ) {}

  /** Avatar and cover are uploads of type `group` (contract §20: only the file name is sent). */
  private groupImage(uploader: Uploader, field: 'avatar' | 'cover_image', raw: string | null | undefined): Promise<string | null> {
    return this.media.optional(uploader, field, raw ?? null, ['group'], { placeholder: true });
  }

  /** The group's admins edit it as a team: one may set an image another admin uploaded (docs/decisions/0114). */
  private adminsOf(actor: Actor, groupId: number): Uploader {
    return { userId: actor.userId, teammate: async (ownerId) => (await this.groups.relation(groupId, ownerId)).role === 'admin' };
  }

  /** The group and what the actor is to it, if the actor may see it; 404 otherwise (a private group is not revealed). */
  async visibleGroup(actor: Actor, groupId: number): Promise<GroupView> {
    const group = await this.groups.findById(groupId);
    const relation = group ? await this.groups.relation(groupId, actor.userId) : NO_RELATION;
    if (!group || !canSeeGroup(group, relation)) throw new NotFound('Group not found', 'group_not_found');
    return { group, relation };
  }

  /** The group if the actor may see its content: 404 when the group is hidden, 403 for a non-member of a private group it knows. */
  async contentOf(actor: Actor, groupId: number): Promise<GroupView> {
    const view = await this.visibleGroup(actor, groupId);
    if (!canSeeGroupContent(view.group, view.relation))
      throw new Forbidden('Only members see the content of this private group', 'not_a_member');
    return view;
  }

  private async adminOf(actor: Actor, groupId: number): Promise<GroupView> {
    const view = await this.visibleGroup(actor, groupId);
    if (view.relation.role !== 'admin') throw new Forbidden('Only the group’s admins may do this', 'not_group_admin');
    return view;
  }

  async listJoined(actor: Actor, options: { q?: string | null; page?: number; perPage?: number }): Promise<ListPage<GroupView>> {
    const req = pageRequest(options.page, options.perPage);
    const rows = listPage(await this.groups.listJoined(actor.userId, options.q?.trim() || null, req), req);
    return this.withRelations(actor, rows);
  }

  async discover(actor: Actor, options: { q?: string | null; page?: number; perPage?: number }): Promise<ListPage<GroupView>> {
    const req = pageRequest(options.page, options.perPage);
    const rows = listPage(await this.groups.listDiscover(actor.userId, options.q?.trim() || null, req), req);
    return this.withRelations(actor, rows);
  }

  private async withRelations(actor: Actor, rows: ListPage<GroupRecord>): Promise<ListPage<GroupView>> {
    const relations = await this.groups.relations(
      rows.items.map((g) => g.id),
      actor.userId,
    );
    return { ...rows, items: rows.items.map((group) => ({ group, relation: relations.get(group.id) ?? NO_RELATION })) };
  }

  async members(actor: Actor, groupId: number, options: { page?: number; perPage?: number }): Promise<ListPage<MemberView>> {
    await this.contentOf(actor, groupId);
    const req = pageRequest(options.page, options.perPage);
    const rows = listPage(await this.groups.members(groupId, req), req);
    const users = await this.people.authors(rows.items.map((m) => m.user_id));
    return {
      ...rows,
      items: rows.items.flatMap((membership) =>
        users.has(membership.user_id) ? [{ membership, user: users.get(membership.user_id)! }] : [],
      ),
    };
  }

  async joinRequests(actor: Actor, groupId: number, options: { page?: number; perPage?: number }): Promise<ListPage<JoinRequestView>> {
    await this.adminOf(actor, groupId);
    const req = pageRequest(options.page, options.perPage);
    const rows = listPage(await this.groups.requests(groupId, req), req);
    const ids = rows.items.map((r) => r.user_id);
    const [authors, users] = await Promise.all([this.people.authors(ids), ids.length ? this.users.findByIds(ids) : []]);
    const bios = new Map(users.map((u) => [u.id, u.bio]));
    return {
      ...rows,
      items: rows.items.flatMap((request) => {
        const user = authors.get(request.user_id);
        return user ? [{ request, user: { ...user, bio: bios.get(request.user_id) ?? null } }] : [];
      }),
    };
  }

  /** A new group with its creator as its first admin. */
  async create(actor: Actor, input: CreateGroupInput): Promise<GroupRecord> {
    const group = {
      name: nameOf(input.name),
      description: descriptionOf(input.description),
      privacy: privacyOf(input.privacy),
      avatar: await this.groupImage(actor, 'avatar', input.avatar),
      cover_image: await this.groupImage(actor, 'cover_image', input.cover_image),
      creator_id: actor.userId,
      created_at: toTimestamp(this.clock.now()),
    };
    return this.groups.create(group);
  }

  /** Admins change the name, description, images or privacy; only the fields sent change. */
  async update(actor: Actor, groupId: number, input: CreateGroupInput): Promise<GroupRecord> {
    await this.adminOf(actor, groupId);
    const changes: GroupChanges = { updated_at: toTimestamp(this.clock.now()) };
    if (input.name !== undefined && input.name !== null) changes.name = nameOf(input.name);
    if (input.description !== undefined && input.description !== null) changes.description = descriptionOf(input.description);
    if (input.privacy !== undefined && input.privacy !== null) changes.privacy = privacyOf(input.privacy);
    const team = this.adminsOf(actor, groupId);
    if (input.avatar !== undefined) changes.avatar = await this.groupImage(team, 'avatar', input.avatar);
    if (input.cover_image !== undefined) changes.cover_image = await this.groupImage(team, 'cover_image', input.cover_image);
    await this.groups.update(groupId, changes);
    return (await this.groups.findById(groupId))!;
  }

  /**
   * Joins a public group at once. For a private group, an invitation admits at once too; without one,
   * a request is filed and the admins are told, once however many times it is asked.
   */
  async join(actor: Actor, groupId: number): Promise<JoinOutcome> {
    const group = await this.groups.findById(groupId);
    if (!group) throw new NotFound('Group not found', 'group_not_found');
    const at = toTimestamp(this.clock.now());
    return this.uow.run(async () => {
      if (!(await this.groups.lock(groupId))) throw new NotFound('Group not found', 'group_not_found');
      const relation = await this.groups.relation(groupId, actor.userId);
      if (relation.role) return 'already_member';
      if (group.privacy === 'public' || relation.invited) {
        await this.groups.addMember(groupId, actor.userId, 'member', at);
        await this.groups.removeInvitation(groupId, actor.userId);
        await this.groups.removeRequest(groupId, actor.userId);
        return 'joined';
      }
      if (!(await this.groups.addRequest(groupId, actor.userId, at))) return 'already_requested';
      const text = `${actor.username} asked to join ${group.name}`;
      for (const admin of await this.groups.adminIds(groupId)) {
        await this.notifications.raise(
          {
            user_id: admin,
            from_user_id: actor.userId,
            type: 'group_join_request',
            group_id: groupId,
            link: groupLink(groupId),
            content: text,
          },
          { title: 'Join request', body: text },
        );
      }
      return 'requested';
    });
  }

  /**
   * Invites a user, who is told once. Members of a public group invite; in a private group only admins,
   * since an invitation admits without a request.
   */
  async invite(actor: Actor, groupId: number, userId: number): Promise<'invited' | 'already_invited' | 'already_member'> {
    const { group, relation } = await this.visibleGroup(actor, groupId);
    if (!relation.role) throw new Forbidden('Only members may invite', 'not_a_member');
    if (group.privacy === 'private' && relation.role !== 'admin')
      throw new Forbidden('Only admins invite to a private group', 'not_group_admin');
    const invitee = await this.users.findById(userId);
    if (!invitee || invitee.deleted_at) throw new NotFound('User not found', 'user_not_found');
    if (userId === actor.userId) throw Invalid.field('user_id', 'cannot invite oneself', 'invalid_invitee');
    return this.uow.run(async () => {
      if (!(await this.groups.lock(groupId))) throw new NotFound('Group not found', 'group_not_found');
      if ((await this.groups.relation(groupId, userId)).role) return 'already_member' as const;
      if (!(await this.groups.addInvitation(groupId, userId, actor.userId, toTimestamp(this.clock.now()))))
        return 'already_invited' as const;
      const text = `${actor.username} invited you to join ${group.name}`;
      await this.notifications.raise(
        { user_id: userId, from_user_id: actor.userId, type: 'group_invite', group_id: groupId, link: groupLink(groupId), content: text },
        { title: 'Group invitation', body: text },
      );
      return 'invited' as const;
    });
  }

  /** An admin admits a pending request: the request goes, the member comes, the requester is told; once. */
  async approveRequest(actor: Actor, groupId: number, userId: number): Promise<void> {
    const { group } = await this.adminOf(actor, groupId);
    await this.uow.run(async () => {
      await this.lockAsAdmin(actor, groupId);
      if (!(await this.groups.removeRequest(groupId, userId))) throw new NotFound('No pending request from this user', 'request_not_found');
      await this.groups.addMember(groupId, userId, 'member', toTimestamp(this.clock.now()));
      await this.groups.removeInvitation(groupId, userId);
      const text = `Your request to join ${group.name} was approved`;
      await this.notifications.raise(
        {
          user_id: userId,
          from_user_id: actor.userId,
          type: 'group_join_approved',
          group_id: groupId,
          link: groupLink(groupId),
          content: text,
        },
        { title: 'Request approved', body: text },
      );
    });
  }

  async rejectRequest(actor: Actor, groupId: number, userId: number): Promise<void> {
    const { group } = await this.adminOf(actor, groupId);
    await this.uow.run(async () => {
      await this.lockAsAdmin(actor, groupId);
      if (!(await this.groups.removeRequest(groupId, userId))) throw new NotFound('No pending request from this user', 'request_not_found');
      const text = `Your request to join ${group.name} was declined`;
      await this.notifications.raise(
        {
          user_id: userId,
          from_user_id: actor.userId,
          type: 'group_join_rejected',
          group_id: groupId,
          link: groupLink(groupId),
          content: text,
        },
        { title: 'Request declined', body: text },
      );
    });
  }

  /** Makes a member an admin. */
  async promote(actor: Actor, groupId: number, userId: number): Promise<void> {
    await this.adminOf(actor, groupId);
    await this.uow.run(async () => {
      await this.lockAsAdmin(actor, groupId);
      const target = await this.groups.relation(groupId, userId);
      if (!target.role) throw new NotFound('Not a member of this group', 'member_not_found');
      await this.groups.setRole(groupId, userId, 'admin');
    });
  }

  /** Makes an admin a plain member; the group keeps at least one admin. */
  async demote(actor: Actor, groupId: number, userId: number): Promise<void> {
    await this.adminOf(actor, groupId);
    await this.uow.run(async () => {
      await this.lockAsAdmin(actor, groupId);
      const target = await this.groups.relation(groupId, userId);
      if (!target.role) throw new NotFound('Not a member of this group', 'member_not_found');
      if (target.role !== 'admin') return;
      if ((await this.groups.adminIds(groupId)).length <= 1) throw new Conflict('A group keeps at least one admin', 'last_admin');
      await this.groups.setRole(groupId, userId, 'member');
    });
  }

  /** Removes a member. Admins are demoted before they can be removed; one leaves oneself by leaving. */
  async kick(actor: Actor, groupId: number, userId: number): Promise<void> {
    await this.adminOf(actor, groupId);
    if (userId === actor.userId) throw Invalid.field('user_id', 'to leave the group, leave it', 'cannot_kick_self');
    await this.uow.run(async () => {
      await this.lockAsAdmin(actor, groupId);
      const target = await this.groups.relation(groupId, userId);
      if (!target.role) throw new NotFound('Not a member of this group', 'member_not_found');
      if (target.role === 'admin') throw new Forbidden('An admin is demoted before being removed', 'cannot_kick_admin');
      await this.groups.removeMember(groupId, userId);
    });
  }

  /**
   * Leaves a group. The last admin who leaves hands the group to its longest-standing member; the last
   * member who leaves takes the group with them (it is deleted with its content: nobody could manage it).
   */
  async leave(actor: Actor, groupId: number): Promise<'left' | 'deleted'> {
    const group = await this.groups.findById(groupId);
    if (!group) throw new NotFound('Group not found', 'group_not_found');
    return this.uow.run(async () => {
      if (!(await this.groups.lock(groupId))) throw new NotFound('Group not found', 'group_not_found');
      const relation = await this.groups.relation(groupId, actor.userId);
      if (!relation.role) {
        // Leaving covers withdrawing a pending request too.
        if (await this.groups.removeRequest(groupId, actor.userId)) return 'left' as const;
        if (!canSeeGroup(group, relation)) throw new NotFound('Group not found', 'group_not_found');
        throw new NotFound('Not a member of this group', 'not_a_member');
      }
      if (relation.role === 'admin' && (await this.groups.adminIds(groupId)).length === 1) {
        const heir = await this.groups.longestMember(groupId, actor.userId);
        if (!heir) {
          await this.groups.delete(groupId);
          return 'deleted' as const;
        }
        await this.groups.setRole(groupId, heir.user_id, 'admin');
      }
      await this.groups.removeMember(groupId, actor.userId);
      return 'left' as const;
    });
  }

  /** The first statement of an admin's unit: the group's lock, then the actor's role read again under it. */
  private async lockAsAdmin(actor: Actor, groupId: number): Promise<GroupRelation> {
    if (!(await this.groups.lock(groupId))) throw new NotFound('Group not found', 'group_not_found');
    const relation = await this.groups.relation(groupId, actor.userId);
    if (relation.role !== 'admin') throw new Forbidden('Only the group’s admins may do this', 'not_group_admin');
    return relation;
  }
}
