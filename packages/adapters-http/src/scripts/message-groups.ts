import { pageRequest } from '@plaza/domain';
import { MAX_GROUP_NAME, MEDIA_TYPES, type MessageGroupService, type TypingService } from '@plaza/domain/messaging';
import { z } from 'zod';
import { paginationQuery, zFlag, zId, zText } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  GroupDetailsItem,
  GroupListEntry,
  GroupMessageItem,
  GroupRecordItem,
  TypingUser,
  presentGroupDetails,
  presentGroupListItem,
  presentGroupMessage,
  presentGroupRecord,
} from '../presenters/messaging.js';
import { PageMetaWire, zWireId } from '../presenters/wire.js';
import { messageReactionBody, reactToMessageOperation, unreactFromMessageOperation } from './message-reactions.js';

const idParam = z.object({ id: zId });
export const groupMessageBody = z.object({
  content: z.string().max(10_000).nullish(),
  media: z.string().max(512).nullish(),
  media_type: z.enum(MEDIA_TYPES).nullish(),
  parent_id: zId.nullish(),
});
const intFlexible = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number),
]);

const confirmation = z.object({ message: z.string() });

/** Also the library's check (docs/decisions/0113). */
export const newGroupBody = z.object({
  name: zText(MAX_GROUP_NAME),
  avatar: z.string().max(512).nullish(),
  member_ids: z.array(zId).max(500).optional(),
});
export const groupUpdateBody = z.object({
  name: zText(MAX_GROUP_NAME).optional(),
  avatar: z.string().max(512).nullish(),
  auto_delete_time: intFlexible.optional(),
  make_everyone_admin: zFlag.optional(),
});
export const editGroupMessageBody = z.object({ content: z.string().max(10_000) });

/** Also the library's check (docs/decisions/0113). */
export const groupListQuery = z.object({ q: z.string().trim().max(100).optional(), ...paginationQuery });
export const groupTypingBody = z.object({ is_typing: zFlag.default(true) });
export const groupReactionBody = messageReactionBody({});

export function messageGroupsScript(groups: MessageGroupService, typing: TypingService, p: PresenterContext): Script {
  const rl = 'messages' as const;
  return {
    name: 'message_groups',
    operations: [
      op({
        method: 'GET',
        select: { path: '' },
        auth: 'required',
        query: groupListQuery,
        summary: 'My group chats, most recent activity first',
        response: z.object({ groups: z.array(GroupListEntry), meta: PageMetaWire }),
        handle: async (ctx) => {
          const r = await groups.list(ctx.actor, pageRequest(ctx.query.page, ctx.query.per_page), ctx.query.q || undefined);
          return { groups: r.items.map((g) => presentGroupListItem(g, p)), meta: r.meta };
        },
      }),
      op({
        method: 'POST',
        select: { path: '' },
        auth: 'required',
        rateLimit: rl,
        body: newGroupBody,
        summary: 'Create a group chat; I become its admin and member_ids its members',
        response: z.object({ group_id: zWireId }),
        handle: async (ctx) => ({ group_id: await groups.create(ctx.actor, ctx.body) }),
      }),
      op({
        method: 'GET',
        select: { path: ':id' },
        auth: 'required',
        query: idParam,
        summary: 'Group details with members and (for admins) pending requests',
        response: z.object({ group: GroupDetailsItem }),
        handle: async (ctx) => ({ group: presentGroupDetails(await groups.details(ctx.actor, ctx.query.id), p) }),
      }),
      op({
        method: 'PUT',
        select: { path: ':id' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        body: groupUpdateBody,
        summary: 'Update the group (admins)',
        response: z.object({ group: GroupRecordItem }),
        handle: async (ctx) => ({ group: presentGroupRecord(await groups.update(ctx.actor, ctx.query.id, ctx.body), p) }),
      }),
      op({
        method: 'DELETE',
        select: { path: ':id' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        summary: 'Leave the group (the last admin leaving promotes the oldest member)',
        response: confirmation,
        handle: async (ctx) => {
          await groups.leave(ctx.actor, ctx.query.id);
          return { message: 'You left the group' };
        },
      }),
      op({
        method: 'GET',
        select: { path: ':id/messages' },
        auth: 'required',
        query: z.object({ id: zId, ...paginationQuery }),
        summary: 'Group messages, oldest first within the page (page 1 = the most recent)',
        response: z.object({ messages: z.array(GroupMessageItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const r = await groups.messages(ctx.actor, ctx.query.id, pageRequest(ctx.query.page, ctx.query.per_page));
          return { messages: r.items.map((m) => presentGroupMessage(m, ctx.actor, p)), meta: r.meta };
        },
      }),
      op({
        method: 'POST',
        select: { path: ':id/messages' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        body: groupMessageBody,
        summary: 'Send a group message (content and/or media, optional parent_id)',
        response: z.object({ message_id: zWireId, id: zWireId, data: GroupMessageItem }),
        handle: async (ctx) => {
          const sent = await groups.send(ctx.actor, ctx.query.id, ctx.body);
          const view = { message: sent, sender: null, parent: null, parent_sender: null, reactions: {}, user_reaction: null };
          return { message_id: sent.id, id: sent.id, data: presentGroupMessage(view, ctx.actor, p) };
        },
      }),
      op({
        method: 'GET',
        select: { path: ':id/typing' },
        auth: 'required',
        query: idParam,
        summary: 'Members typing in the group',
        response: z.object({ typing_users: z.array(TypingUser) }),
        handle: async (ctx) => ({ typing_users: await typing.groupTypists(ctx.actor, ctx.query.id) }),
      }),
      op({
        method: 'POST',
        select: { path: ':id/typing' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        body: groupTypingBody,
        summary: 'Signal typing (or stop) in the group',
        response: z.object({ is_typing: z.boolean() }),
        handle: async (ctx) => {
          await typing.setGroup(ctx.actor, ctx.query.id, ctx.body.is_typing);
          return { is_typing: ctx.body.is_typing };
        },
      }),
      op({
        method: 'POST',
        select: { path: ':id/members' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        body: z.object({ user_id: zId }),
        summary: 'Add a member (admins); a member’s invitation becomes a request for the admins',
        response: z.object({ added: z.boolean(), request_id: zWireId.nullable(), message: z.string() }),
        handle: async (ctx) => {
          const r = await groups.addMember(ctx.actor, ctx.query.id, ctx.body.user_id);
          return {
            added: r.added,
            request_id: r.request_id,
            message: r.request_id ? 'Request sent to the admins' : r.added ? 'Member added' : 'Already a member',
          };
        },
      }),
      op({
        method: 'DELETE',
        select: { path: ':id/members/:user_id' },
        auth: 'required',
        rateLimit: rl,
        query: z.object({ id: zId, user_id: zId }),
        summary: 'Remove a member (admins; removing oneself is leaving)',
        response: confirmation,
        handle: async (ctx) => {
          await groups.removeMember(ctx.actor, ctx.query.id, ctx.query.user_id);
          return { message: 'Member removed' };
        },
      }),
      op({
        method: 'POST',
        select: { path: ':id/requests/:request_id/approve' },
        auth: 'required',
        rateLimit: rl,
        query: z.object({ id: zId, request_id: zId }),
        summary: 'Approve an access request (admins)',
        response: confirmation,
        handle: async (ctx) => {
          await groups.approve(ctx.actor, ctx.query.id, ctx.query.request_id);
          return { message: 'Request approved' };
        },
      }),
      op({
        method: 'POST',
        select: { path: ':id/requests/:request_id/reject' },
        auth: 'required',
        rateLimit: rl,
        query: z.object({ id: zId, request_id: zId }),
        summary: 'Reject an access request (admins)',
        response: confirmation,
        handle: async (ctx) => {
          await groups.reject(ctx.actor, ctx.query.id, ctx.query.request_id);
          return { message: 'Request rejected' };
        },
      }),
      op({
        method: 'PUT',
        select: { path: 'messages/:id' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        body: editGroupMessageBody,
        summary: 'Edit one of my group messages',
        response: z.object({ data: GroupMessageItem }),
        handle: async (ctx) => ({
          data: presentGroupMessage(await groups.editMessage(ctx.actor, ctx.query.id, ctx.body.content), ctx.actor, p),
        }),
      }),
      op({
        method: 'DELETE',
        select: { path: 'messages/:id' },
        auth: 'required',
        rateLimit: rl,
        query: idParam,
        summary: 'Delete one of my group messages',
        response: confirmation,
        handle: async (ctx) => {
          await groups.deleteMessage(ctx.actor, ctx.query.id);
          return { message: 'Message deleted' };
        },
      }),
      reactToMessageOperation({
        select: { path: 'messages/:id/reactions' },
        query: idParam,
        body: groupReactionBody,
        summary: 'Add or replace my reaction on a group message',
        messageId: (query) => query.id,
        react: (actor, messageId, reaction) => groups.react(actor, messageId, reaction),
      }),
      unreactFromMessageOperation({
        select: { path: 'messages/:id/reactions' },
        query: idParam,
        summary: 'Remove my reaction from a group message',
        messageId: (query) => query.id,
        unreact: (actor, messageId) => groups.unreact(actor, messageId),
      }),
    ],
  };
}
