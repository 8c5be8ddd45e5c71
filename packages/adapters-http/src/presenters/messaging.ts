import type {
  ConversationView,
  GroupDetails,
  GroupListItem,
  GroupMessageView,
  MessageGroupRecord,
  MessageView,
  UserRecord,
} from '@plaza/domain';
import type { PresenterContext } from './context.js';

const avatarOf = (u: Pick<UserRecord, 'avatar'> | null) => u?.avatar ?? 'default.svg';

/** The text shown for a message in lists: its content, or a marker for media-only messages. */
function previewText(m: { content: string; media: string | null } | null): string {
  if (!m) return '';
  if (m.content !== '') return m.content;
  return m.media ? '📎' : '';
}

/** What private and group messages share: body, authorship flag, edit, reply and reactions. */
function presentMessageBody(v: MessageView | GroupMessageView, viewerId: number, p: PresenterContext) {
  const m = v.message;
  return {
    content: m.content,
    media: m.media,
    media_type: m.media_type,
    is_mine: m.sender_id === viewerId,
    created_at: p.formatTime(m.created_at),
    edited_at: p.formatTime(m.edited_at),
    parent_id: m.parent_id,
    parent_content: v.parent ? v.parent.content : null,
    // The private chat reads parent_sender_username, the group chat parent_username: send both.
    parent_sender_username: v.parent_sender?.username ?? null,
    parent_username: v.parent_sender?.username ?? null,
    reactions_summary: v.reactions,
    user_reaction: v.user_reaction,
  };
}

/** A private message as the thread lists it (contract §18.2). */
export function presentPrivateMessage(v: MessageView, viewerId: number, p: PresenterContext) {
  const m = v.message;
  return {
    id: m.id,
    sender_id: m.sender_id,
    receiver_id: m.receiver_id,
    sender_username: v.sender?.username ?? '',
    sender_avatar: avatarOf(v.sender),
    is_read: m.is_read,
    expires_at: p.formatTime(m.expires_at),
    ...presentMessageBody(v, viewerId, p),
  };
}

export function presentConversation(c: ConversationView, p: PresenterContext) {
  return {
    user_id: c.peer.id,
    id: c.peer.id,
    username: c.peer.username,
    display_name: c.peer.display_name ?? c.peer.username,
    avatar: avatarOf(c.peer),
    last_message: previewText(c.last_message),
    last_message_id: c.last_message.id,
    last_message_sender_id: c.last_message.sender_id,
    last_message_at: p.formatTime(c.last_message.created_at),
    unread_count: c.unread_count,
  };
}

export function presentConversationSettings(peer: UserRecord, autoDeleteTime: number) {
  return { user_id: peer.id, username: peer.username, avatar: avatarOf(peer), auto_delete_time: autoDeleteTime };
}

export function presentGroupListItem(item: GroupListItem, p: PresenterContext) {
  const g = item.group;
  return {
    id: g.id,
    name: g.name,
    avatar: g.avatar ?? 'default.svg',
    last_message: previewText(item.last_message),
    last_message_at: p.formatTime(item.last_message?.created_at ?? null),
    last_activity_at: p.formatTime(g.last_activity_at),
    members_count: item.members_count,
    auto_delete_time: g.auto_delete_time,
    created_at: p.formatTime(g.created_at),
  };
}

export function presentGroupRecord(g: MessageGroupRecord, p: PresenterContext) {
  return {
    id: g.id,
    name: g.name,
    avatar: g.avatar ?? 'default.svg',
    auto_delete_time: g.auto_delete_time,
    created_by: g.creator_id,
    created_at: p.formatTime(g.created_at),
  };
}

export function presentGroupDetails(d: GroupDetails, p: PresenterContext) {
  return {
    ...presentGroupRecord(d.group, p),
    my_role: d.my_role,
    is_admin: d.my_role === 'admin',
    members_count: d.members.length,
    members: d.members.map((m) => ({
      user_id: m.user.id,
      username: m.user.username,
      avatar: avatarOf(m.user),
      role: m.member.role,
      joined_at: p.formatTime(m.member.joined_at),
    })),
    requests: d.requests.map((r) => ({
      request_id: r.request.id,
      user_id: r.user.id,
      username: r.user.username,
      avatar: avatarOf(r.user),
      requested_by: r.request.requested_by,
      created_at: p.formatTime(r.request.created_at),
    })),
  };
}

/** A group message (contract §19), with the same reply and reaction keys as private messages. */
export function presentGroupMessage(v: GroupMessageView, viewerId: number, p: PresenterContext) {
  const m = v.message;
  return {
    id: m.id,
    group_id: m.group_id,
    sender_id: m.sender_id,
    user_id: m.sender_id,
    username: v.sender?.username ?? '',
    avatar: avatarOf(v.sender),
    sender_username: v.sender?.username ?? '',
    sender_avatar: avatarOf(v.sender),
    ...presentMessageBody(v, viewerId, p),
  };
}
