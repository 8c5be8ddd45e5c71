import { Invalid } from '@plaza/domain';
import type { ListPage } from '@plaza/domain/content';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, GROUP_PRIVACIES, type GroupService, type GroupView } from '@plaza/domain/groups';
import { z } from 'zod';
import { paginationQuery, zFlag, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { GroupItem, GroupMemberItem, JoinRequestItem, presentGroup, presentGroupMember, presentJoinRequest } from '../presenters/groups.js';
import { ListPagination, presentPagination, zWireId } from '../presenters/wire.js';

/**
 * groups.php (contract §20): community groups. GET selects by query flags (`discover`, `id`,
 * `members`, `join_requests`); POST by the body's `action` (create also without one); PUT updates with
 * `id` in the body; leaving is DELETE `?id=`, POST `?id=&action=leave` or body `action: "leave"`.
 */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const groupFields = {
  name: text(GROUP_NAME_MAX).optional().nullable(),
  description: text(GROUP_DESCRIPTION_MAX).optional().nullable(),
  privacy: z.enum(GROUP_PRIVACIES).optional().nullable(),
  avatar: text(255).optional().nullable(),
  cover_image: text(255).optional().nullable(),
};
/** Also the library's checks (docs/decisions/0113): a group's fields, and the search of the group lists. */
export const groupBody = z.object(groupFields);
export const groupListQuery = z.object({ q: text(100).optional(), ...paginationQuery });
const listQuery = groupListQuery;
const GroupList = z.object({ groups: z.array(GroupItem), data: z.array(GroupItem), pagination: ListPagination });
const memberTarget = z.object({ group_id: zId, user_id: zId });
const Done = z.object({ message: z.string(), group_id: zWireId, user_id: zWireId });

export function groupsScript(groups: GroupService, p: PresenterContext): Script {
  const created = op({
    method: 'POST',
    select: { action: 'create' },
    auth: 'required',
    status: 201,
    body: groupBody,
    summary: 'Create a group ({name, description?, privacy: public|private, avatar?, cover_image?}); the creator is its first admin',
    response: z.object({ message: z.string(), id: zWireId, group_id: zWireId, data: GroupItem }),
    handle: async (ctx) => {
      const g = await groups.create(ctx.actor, ctx.body);
      return {
        message: 'Group created',
        id: g.id,
        group_id: g.id,
        data: presentGroup({ group: g, relation: { role: 'admin', invited: false, requested: false } }, p),
      };
    },
  });
  const leave = async (actor: Parameters<GroupService['leave']>[0], groupId: number) => {
    const outcome = await groups.leave(actor, groupId);
    return {
      message: outcome === 'deleted' ? 'You left the group; it had no other member and was deleted' : 'You left the group',
      group_id: groupId,
      deleted: outcome === 'deleted',
    };
  };
  /** A page of groups, answered under both `groups` and `data`. */
  const groupList = (page: ListPage<GroupView>) => {
    const items = page.items.map((v) => presentGroup(v, p));
    return { groups: items, data: items, pagination: presentPagination(page) };
  };
  const Left = z.object({ message: z.string(), group_id: zWireId, deleted: z.boolean() });
  const adminAction = (
    action: string,
    summary: string,
    message: string,
    run: (actor: Parameters<GroupService['promote']>[0], groupId: number, userId: number) => Promise<void>,
  ) =>
    op({
      method: 'POST',
      select: { action },
      auth: 'required',
      body: memberTarget,
      summary,
      response: Done,
      handle: async (ctx) => {
        await run(ctx.actor, ctx.body.group_id, ctx.body.user_id);
        return { message, group_id: ctx.body.group_id, user_id: ctx.body.user_id };
      },
    });

  return {
    name: 'groups',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: listQuery,
        summary: 'Groups one is a member of, newest membership first (q filters by name or description)',
        response: GroupList,
        handle: async (ctx) =>
          groupList(await groups.listJoined(ctx.actor, { q: ctx.query.q, page: ctx.query.page, perPage: ctx.query.per_page })),
      }),
      op({
        method: 'GET',
        select: { has: ['discover'] },
        auth: 'required',
        query: listQuery.extend({ discover: zFlag }),
        summary: 'Public groups one has not joined, most members first (q filters by name or description)',
        response: GroupList,
        handle: async (ctx) =>
          groupList(await groups.discover(ctx.actor, { q: ctx.query.q, page: ctx.query.page, perPage: ctx.query.per_page })),
      }),
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary:
          'A group’s details with one’s role, membership and pending request (a private group is only shown to its members, invitees and requesters)',
        response: z.object({ data: GroupItem, group: GroupItem }),
        handle: async (ctx) => {
          const item = presentGroup(await groups.visibleGroup(ctx.actor, ctx.query.id), p);
          return { data: item, group: item };
        },
      }),
      op({
        method: 'GET',
        select: { has: ['id', 'members'] },
        auth: 'required',
        query: z.object({ id: zId, members: zFlag, ...paginationQuery }),
        summary: 'Members of a group, admins first (members only for a private group)',
        response: z.object({ members: z.array(GroupMemberItem), data: z.array(GroupMemberItem), pagination: ListPagination }),
        handle: async (ctx) => {
          const page = await groups.members(ctx.actor, ctx.query.id, { page: ctx.query.page, perPage: ctx.query.per_page });
          const items = page.items.map((v) => presentGroupMember(v, p));
          return { members: items, data: items, pagination: presentPagination(page) };
        },
      }),
      op({
        method: 'GET',
        select: { has: ['id', 'join_requests'] },
        auth: 'required',
        query: z.object({ id: zId, join_requests: zFlag, ...paginationQuery }),
        summary: 'Pending requests to join a group, oldest first (its admins)',
        response: z.object({ requests: z.array(JoinRequestItem), data: z.array(JoinRequestItem), pagination: ListPagination }),
        handle: async (ctx) => {
          const page = await groups.joinRequests(ctx.actor, ctx.query.id, { page: ctx.query.page, perPage: ctx.query.per_page });
          const items = page.items.map((v) => presentJoinRequest(v, p));
          return { requests: items, data: items, pagination: presentPagination(page) };
        },
      }),
      created,
      { ...created, select: undefined, summary: 'Create a group (the same as action create, without an action)' },
      op({
        method: 'POST',
        select: { action: 'join' },
        auth: 'required',
        body: z.object({ group_id: zId }),
        summary: 'Join a public group, or ask to join a private one (an invitation admits at once)',
        response: z.object({
          message: z.string(),
          group_id: zWireId,
          status: z.enum(['joined', 'pending']),
          is_member: z.boolean(),
          has_pending_request: z.literal('pending').nullable(),
        }),
        handle: async (ctx) => {
          const outcome = await groups.join(ctx.actor, ctx.body.group_id);
          const joined = outcome === 'joined' || outcome === 'already_member';
          const message =
            outcome === 'joined'
              ? 'You joined the group'
              : outcome === 'already_member'
                ? 'You are already a member'
                : outcome === 'requested'
                  ? 'Your request to join was sent'
                  : 'Your request is already pending';
          return {
            message,
            group_id: ctx.body.group_id,
            status: joined ? ('joined' as const) : ('pending' as const),
            is_member: joined,
            has_pending_request: joined ? null : ('pending' as const),
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'leave' },
        auth: 'required',
        query: z.object({ id: zId.optional() }),
        body: z.object({ group_id: zId.optional() }),
        summary: 'Leave a group (?id= or group_id in the body); a last admin hands the group to the longest-standing member',
        response: Left,
        handle: async (ctx) => {
          const { id: queryId } = ctx.query;
          const id = ctx.body.group_id ?? queryId;
          if (id === undefined) throw Invalid.field('group_id', 'required (or ?id=)');
          if (queryId !== undefined && queryId !== id) throw Invalid.field('id', 'names another group than group_id');
          return leave(ctx.actor, id);
        },
      }),
      op({
        method: 'POST',
        select: { action: 'invite' },
        auth: 'required',
        body: memberTarget,
        summary: 'Invite a user (members of a public group, admins of a private one); the invitee is notified once',
        response: Done.extend({ status: z.enum(['invited', 'already_invited', 'already_member']) }),
        handle: async (ctx) => {
          const status = await groups.invite(ctx.actor, ctx.body.group_id, ctx.body.user_id);
          const message = status === 'invited' ? 'Invitation sent' : status === 'already_invited' ? 'Already invited' : 'Already a member';
          return { message, group_id: ctx.body.group_id, user_id: ctx.body.user_id, status };
        },
      }),
      adminAction('approve_request', 'Admit a pending request (admins)', 'Request approved', (a, g, u) => groups.approveRequest(a, g, u)),
      adminAction('reject_request', 'Decline a pending request (admins)', 'Request rejected', (a, g, u) => groups.rejectRequest(a, g, u)),
      adminAction('promote_member', 'Make a member an admin (admins)', 'Member promoted', (a, g, u) => groups.promote(a, g, u)),
      adminAction('demote_member', 'Make an admin a member again; a group keeps one admin (admins)', 'Member demoted', (a, g, u) =>
        groups.demote(a, g, u),
      ),
      adminAction('kick_member', 'Remove a member who is not an admin (admins)', 'Member removed', (a, g, u) => groups.kick(a, g, u)),
      op({
        method: 'PUT',
        auth: 'required',
        body: z.object({ id: zId, ...groupFields }),
        summary: 'Update a group ({id, name?, description?, avatar?, cover_image?, privacy?}; admins)',
        response: z.object({ message: z.string(), data: GroupItem }),
        handle: async (ctx) => {
          const { id, ...changes } = ctx.body;
          await groups.update(ctx.actor, id, changes);
          return { message: 'Group updated', data: presentGroup(await groups.visibleGroup(ctx.actor, id), p) };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Leave a group; a last admin hands the group to the longest-standing member',
        response: Left,
        handle: async (ctx) => leave(ctx.actor, ctx.query.id),
      }),
    ],
  };
}
