import type { UserRecord } from '@plaza/domain/accounts';
import type { Actor } from '@plaza/domain';
import {
  AUTO_DELETE_CHOICES,
  MEDIA_TYPES,
  MESSAGE_REACTIONS,
  type ConversationView,
  type GroupDetails,
  type GroupListItem,
  type GroupMessageView,
  type GroupRole,
  type MediaType,
  type MessageGroupRecord,
  type MessageReaction,
  type MessageView,
} from '@plaza/domain/messaging';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { avatarOf, wireTime, zCount, zTimestamp, zWireId } from './wire.js';

const GROUP_ROLES = ['admin', 'member'] as const satisfies readonly GroupRole[];
type AutoDeleteChoice = (typeof AUTO_DELETE_CHOICES)[number];

/** Minutes after which messages disappear: the client's fixed choices (contract §18.3). */
export const zAutoDeleteTime = z.literal(AUTO_DELETE_CHOICES);
/** Reaction counts keyed by reaction type: `{"like": 2, "love": 1}` (only reactions present). */
export const ReactionsSummary = z.partialRecord(z.enum(MESSAGE_REACTIONS), z.number().int().positive());
/** Who is typing (contract §18.4, §19): the clients read `username`. */
export const TypingUser = z.object({ user_id: zWireId, username: z.string() });

/** The text shown for a message in lists: its content, or a marker for media-only messages. */
function previewText(m: { content: string; media: string | null } | null): string {
  if (!m) return '';
  if (m.content !== '') return m.content;
  return m.media ? '📎' : '';
}

const mediaTypeOf = (v: string | null): MediaType | null =>
  (MEDIA_TYPES as readonly string[]).includes(v ?? '') ? (v as MediaType) : null;
const isReaction = (v: string | null): v is MessageReaction => (MESSAGE_REACTIONS as readonly string[]).includes(v ?? '');

/** Only the reaction types the clients know; the services never store others. */
export function reactionCounts(counts: Record<string, number>): z.input<typeof ReactionsSummary> {
  return Object.fromEntries(Object.entries(counts).filter(([type, n]) => isReaction(type) && n > 0));
}

/** A stored setting outside the clients' choices (written by another application) shows as the nearest choice. */
export function autoDeleteChoice(minutes: number): AutoDeleteChoice {
  return AUTO_DELETE_CHOICES.reduce<AutoDeleteChoice>((best, c) => (Math.abs(c - minutes) < Math.abs(best - minutes) ? c : best), 0);
}

/** What private and group messages share: body, authorship flag, edit, reply and reactions. */
const MessageBody = z.object({
  /** `""` for a media-only message. */
  content: z.string(),
  media: z.string().nullable(),
  media_type: z.enum(MEDIA_TYPES).nullable(),
  is_mine: z.boolean(),
  created_at: zTimestamp,
  edited_at: zTimestamp.nullable(),
  parent_id: zWireId.nullable(),
  parent_content: z.string().nullable(),
  // The private chat reads parent_sender_username, the group chat parent_username: send both.
  parent_sender_username: z.string().nullable(),
  parent_username: z.string().nullable(),
  reactions_summary: ReactionsSummary,
  user_reaction: z.enum(MESSAGE_REACTIONS).nullable(),
});

/**
 * The author's name and avatar: from the view, or, for a message the viewer has just sent (whose view
 * carries no sender), the viewer's own name.
 */
function authorOf(v: MessageView | GroupMessageView, viewer: Actor): { username: string; avatar: string } {
  if (v.sender) return { username: v.sender.username, avatar: avatarOf(v.sender) };
  if (v.message.sender_id === viewer.userId) return { username: viewer.username, avatar: avatarOf(null) };
  return { username: '', avatar: avatarOf(null) };
}

function presentMessageBody(v: MessageView | GroupMessageView, viewer: Actor, p: PresenterContext): z.input<typeof MessageBody> {
  const m = v.message;
  return {
    content: m.content,
    media: m.media,
    media_type: mediaTypeOf(m.media_type),
    is_mine: m.sender_id === viewer.userId,
    created_at: wireTime(p, m.created_at),
    edited_at: p.formatTime(m.edited_at),
    parent_id: m.parent_id,
    parent_content: v.parent ? v.parent.content : null,
    parent_sender_username: v.parent_sender?.username ?? null,
    parent_username: v.parent_sender?.username ?? null,
    reactions_summary: reactionCounts(v.reactions),
    user_reaction: isReaction(v.user_reaction) ? v.user_reaction : null,
  };
}

/** A private message as the thread lists it (contract §18.2). */
export const PrivateMessageItem = MessageBody.extend({
  id: zWireId,
  sender_id: zWireId,
  receiver_id: zWireId,
  sender_username: z.string(),
  sender_avatar: z.string(),
  is_read: z.boolean(),
  expires_at: zTimestamp.nullable(),
});

export function presentPrivateMessage(v: MessageView, viewer: Actor, p: PresenterContext): z.input<typeof PrivateMessageItem> {
  const m = v.message;
  const author = authorOf(v, viewer);
  return {
    id: m.id,
    sender_id: m.sender_id,
    receiver_id: m.receiver_id,
    sender_username: author.username,
    sender_avatar: author.avatar,
    is_read: m.is_read,
    expires_at: p.formatTime(m.expires_at),
    ...presentMessageBody(v, viewer, p),
  };
}

/** A conversation of the list (contract §18.1): the client reads `user_id` (else `id`). */
export const ConversationItem = z.object({
  user_id: zWireId,
  id: zWireId,
  username: z.string(),
  display_name: z.string(),
  avatar: z.string(),
  last_message: z.string(),
  last_message_id: zWireId,
  last_message_sender_id: zWireId,
  last_message_at: zTimestamp,
  unread_count: zCount,
});

export function presentConversation(c: ConversationView, p: PresenterContext): z.input<typeof ConversationItem> {
  return {
    user_id: c.peer.id,
    id: c.peer.id,
    username: c.peer.username,
    display_name: c.peer.display_name ?? c.peer.username,
    avatar: avatarOf(c.peer),
    last_message: previewText(c.last_message),
    last_message_id: c.last_message.id,
    last_message_sender_id: c.last_message.sender_id,
    last_message_at: wireTime(p, c.last_message.created_at),
    unread_count: c.unread_count,
  };
}

/** The top-level `conversation` object of a thread and of the settings PUT (contract §18.3). */
export const ConversationSettings = z.object({
  user_id: zWireId,
  username: z.string(),
  avatar: z.string(),
  auto_delete_time: zAutoDeleteTime,
});

export function presentConversationSettings(peer: UserRecord, autoDeleteTime: number): z.input<typeof ConversationSettings> {
  return { user_id: peer.id, username: peer.username, avatar: avatarOf(peer), auto_delete_time: autoDeleteChoice(autoDeleteTime) };
}

/** A group chat of the `groups` list (contract §19). */
export const GroupListEntry = z.object({
  id: zWireId,
  name: z.string(),
  avatar: z.string(),
  last_message: z.string(),
  last_message_at: zTimestamp.nullable(),
  last_activity_at: zTimestamp,
  members_count: zCount,
  auto_delete_time: zAutoDeleteTime,
  created_at: zTimestamp,
});

export function presentGroupListItem(item: GroupListItem, p: PresenterContext): z.input<typeof GroupListEntry> {
  const g = item.group;
  return {
    id: g.id,
    name: g.name,
    avatar: g.avatar ?? 'default.svg',
    last_message: previewText(item.last_message),
    last_message_at: p.formatTime(item.last_message?.created_at ?? null),
    last_activity_at: wireTime(p, g.last_activity_at),
    members_count: item.members_count,
    auto_delete_time: autoDeleteChoice(g.auto_delete_time),
    created_at: wireTime(p, g.created_at),
  };
}

/** A group chat's own fields, as the update answers them. */
export const GroupRecordItem = z.object({
  id: zWireId,
  name: z.string(),
  avatar: z.string(),
  auto_delete_time: zAutoDeleteTime,
  created_by: zWireId,
  created_at: zTimestamp,
});

export function presentGroupRecord(g: MessageGroupRecord, p: PresenterContext): z.input<typeof GroupRecordItem> {
  return {
    id: g.id,
    name: g.name,
    avatar: g.avatar ?? 'default.svg',
    auto_delete_time: autoDeleteChoice(g.auto_delete_time),
    created_by: g.creator_id,
    created_at: wireTime(p, g.created_at),
  };
}

/** The `group` detail object (contract §19): members and, for admins, pending requests. */
export const GroupDetailsItem = GroupRecordItem.extend({
  my_role: z.enum(GROUP_ROLES),
  is_admin: z.boolean(),
  members_count: zCount,
  members: z.array(
    z.object({
      user_id: zWireId,
      username: z.string(),
      avatar: z.string(),
      role: z.enum(GROUP_ROLES),
      joined_at: zTimestamp,
    }),
  ),
  requests: z.array(
    z.object({
      request_id: zWireId,
      user_id: zWireId,
      username: z.string(),
      avatar: z.string(),
      requested_by: zWireId,
      created_at: zTimestamp,
    }),
  ),
});

export function presentGroupDetails(d: GroupDetails, p: PresenterContext): z.input<typeof GroupDetailsItem> {
  const myRole = d.my_role === 'admin' ? 'admin' : 'member';
  return {
    ...presentGroupRecord(d.group, p),
    my_role: myRole,
    is_admin: myRole === 'admin',
    members_count: d.members.length,
    members: d.members.map((m) => ({
      user_id: m.user.id,
      username: m.user.username,
      avatar: avatarOf(m.user),
      role: m.member.role,
      joined_at: wireTime(p, m.member.joined_at),
    })),
    requests: d.requests.map((r) => ({
      request_id: r.request.id,
      user_id: r.user.id,
      username: r.user.username,
      avatar: avatarOf(r.user),
      requested_by: r.request.requested_by,
      created_at: wireTime(p, r.request.created_at),
    })),
  };
}

/** A group message (contract §19), with the same reply and reaction keys as private messages. */
export const GroupMessageItem = MessageBody.extend({
  id: zWireId,
  group_id: zWireId,
  sender_id: zWireId,
  user_id: zWireId,
  /** What the group chat screen reads. */
  username: z.string(),
  avatar: z.string(),
  sender_username: z.string(),
  sender_avatar: z.string(),
});

export function presentGroupMessage(v: GroupMessageView, viewer: Actor, p: PresenterContext): z.input<typeof GroupMessageItem> {
  const m = v.message;
  const author = authorOf(v, viewer);
  return {
    id: m.id,
    group_id: m.group_id,
    sender_id: m.sender_id,
    user_id: m.sender_id,
    username: author.username,
    avatar: author.avatar,
    sender_username: author.username,
    sender_avatar: author.avatar,
    ...presentMessageBody(v, viewer, p),
  };
}
