import { pageRequest } from '@plaza/domain';
import { MEDIA_TYPES, type PrivateMessageService, type TypingService } from '@plaza/domain/messaging';
import { z } from 'zod';
import { paginationQuery, zFlag, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  ConversationItem,
  ConversationSettings,
  PrivateMessageItem,
  TypingUser,
  presentConversation,
  presentConversationSettings,
  presentPrivateMessage,
} from '../presenters/messaging.js';
import { PageMetaWire, zWireId } from '../presenters/wire.js';
import { messageReactionBody, reactToMessageOperation, unreactFromMessageOperation } from './message-reactions.js';

/** Also the library's check of `privateMessages.send` (docs/decisions/0113). */
export const messageBody = {
  content: z.string().max(10_000).nullish(),
  media: z.string().max(512).nullish(),
  media_type: z.enum(MEDIA_TYPES).nullish(),
  parent_id: zId.nullish(),
};

/** The Dart client names the recipient `user_id`, the Android quick reply `recipient_id`. */
const sendBody = z
  .object({ user_id: zId.optional(), recipient_id: zId.optional(), ...messageBody })
  .refine((b) => b.user_id !== undefined || b.recipient_id !== undefined, {
    message: 'user_id or recipient_id is required',
    path: ['user_id'],
  });

export const typingBody = z
  .object({ recipient_id: zId.optional(), user_id: zId.optional(), is_typing: zFlag.default(true) })
  .refine((b) => b.user_id !== undefined || b.recipient_id !== undefined, { message: 'recipient_id is required', path: ['recipient_id'] });

export const reactionBody = messageReactionBody({ message_id: zId });

export const search = z.string().trim().max(100).optional();

const confirmation = z.object({ message: z.string() });

/** Also the library's check (docs/decisions/0113). */
export const editMessageBody = z.object({ content: z.string().max(10_000) });
export const autoDeleteBody = z.object({
  auto_delete_time: z.union([
    z.number().int(),
    z
      .string()
      .regex(/^\d{1,6}$/)
      .transform(Number),
  ]),
});

export function messagesScript(messages: PrivateMessageService, typing: TypingService, p: PresenterContext): Script {
  return {
    name: 'messages',
    operations: [
      op({
        method: 'GET',
        select: { has: ['typing_user_id'] },
        auth: 'required',
        query: z.object({ typing_user_id: zId }),
        summary: 'Whether the other user is typing to me (entries expire after 10 s)',
        response: z.object({ typing_users: z.array(TypingUser) }),
        handle: async (ctx) => ({ typing_users: await typing.privateTypists(ctx.actor, ctx.query.typing_user_id) }),
      }),
      op({
        method: 'GET',
        select: { has: ['user_id'] },
        auth: 'required',
        query: z.object({ user_id: zId, q: search, ...paginationQuery }),
        summary: 'Thread with a user, newest first; marks their messages read; carries the conversation settings',
        response: z.object({
          data: z.object({ data: z.array(PrivateMessageItem), meta: PageMetaWire }),
          conversation: ConversationSettings,
        }),
        handle: async (ctx) => {
          const t = await messages.thread(
            ctx.actor,
            ctx.query.user_id,
            pageRequest(ctx.query.page, ctx.query.per_page),
            ctx.query.q || undefined,
          );
          return {
            data: { data: t.messages.map((m) => presentPrivateMessage(m, ctx.actor, p)), meta: t.meta },
            conversation: presentConversationSettings(t.peer, t.auto_delete_time),
          };
        },
      }),
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ q: search, ...paginationQuery }),
        summary: 'Conversations, most recent first, with last_message and unread_count',
        response: z.object({ data: z.object({ data: z.array(ConversationItem), meta: PageMetaWire }) }),
        handle: async (ctx) => {
          const c = await messages.conversations(ctx.actor, pageRequest(ctx.query.page, ctx.query.per_page), ctx.query.q || undefined);
          return { data: { data: c.items.map((x) => presentConversation(x, p)), meta: c.meta } };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'typing' },
        auth: 'required',
        rateLimit: 'messages',
        body: typingBody,
        summary: 'Signal typing (or stop) to a user',
        response: z.object({ is_typing: z.boolean() }),
        handle: async (ctx) => {
          await typing.setPrivate(ctx.actor, (ctx.body.recipient_id ?? ctx.body.user_id)!, ctx.body.is_typing);
          return { is_typing: ctx.body.is_typing };
        },
      }),
      reactToMessageOperation({
        select: { action: 'react' },
        body: reactionBody,
        summary: 'Add or replace my reaction on a message',
        messageId: (_query, body) => body.message_id,
        react: (actor, messageId, reaction) => messages.react(actor, messageId, reaction),
      }),
      unreactFromMessageOperation({
        select: { action: 'react' },
        query: z.object({ message_id: zId }),
        summary: 'Remove my reaction from a message',
        messageId: (query) => query.message_id,
        unreact: (actor, messageId) => messages.unreact(actor, messageId),
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'messages',
        body: sendBody,
        summary: 'Send a message (content and/or media, optional parent_id of the same conversation)',
        response: z.object({ message_id: zWireId, id: zWireId, data: PrivateMessageItem }),
        handle: async (ctx) => {
          const b = ctx.body;
          const sent = await messages.send(ctx.actor, (b.user_id ?? b.recipient_id)!, b);
          const view = { message: sent, sender: null, parent: null, parent_sender: null, reactions: {}, user_reaction: null };
          return { message_id: sent.id, id: sent.id, data: presentPrivateMessage(view, ctx.actor, p) };
        },
      }),
      op({
        method: 'PUT',
        select: { has: ['id'] },
        auth: 'required',
        rateLimit: 'messages',
        query: z.object({ id: zId }),
        body: editMessageBody,
        summary: 'Edit one of my messages',
        response: z.object({ data: PrivateMessageItem }),
        handle: async (ctx) => ({
          data: presentPrivateMessage(await messages.edit(ctx.actor, ctx.query.id, ctx.body.content), ctx.actor, p),
        }),
      }),
      op({
        method: 'PUT',
        select: { has: ['user_id'] },
        auth: 'required',
        rateLimit: 'messages',
        query: z.object({ user_id: zId }),
        body: autoDeleteBody,
        summary: 'Conversation settings: auto_delete_time in minutes (0, 1, 5, 60, 1440, 10080), shared by both sides',
        response: z.object({ conversation: ConversationSettings }),
        handle: async (ctx) => {
          const s = await messages.setAutoDelete(ctx.actor, ctx.query.user_id, ctx.body.auto_delete_time);
          return { conversation: presentConversationSettings(s.peer, s.auto_delete_time) };
        },
      }),
      op({
        method: 'DELETE',
        select: { has: ['id'] },
        auth: 'required',
        rateLimit: 'messages',
        query: z.object({ id: zId }),
        summary: 'Delete one of my messages',
        response: confirmation,
        handle: async (ctx) => {
          await messages.delete(ctx.actor, ctx.query.id);
          return { message: 'Message deleted' };
        },
      }),
      op({
        method: 'DELETE',
        select: { has: ['user_id'] },
        auth: 'required',
        rateLimit: 'messages',
        query: z.object({ user_id: zId }),
        summary: 'Delete the whole conversation for me; the other side keeps its copy',
        response: confirmation,
        handle: async (ctx) => {
          await messages.deleteConversation(ctx.actor, ctx.query.user_id);
          return { message: 'Conversation deleted' };
        },
      }),
    ],
  };
}
