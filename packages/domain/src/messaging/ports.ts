import type { UserRecord } from '../accounts/user.js';
import { token } from '../shared/token.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';

export const MESSAGE_REACTIONS = ['like', 'love', 'haha', 'wow', 'sad', 'angry'] as const;
export type MessageReaction = (typeof MESSAGE_REACTIONS)[number];
export const MEDIA_TYPES = ['image', 'video', 'audio'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
/** Minutes; 0 keeps messages forever. */
export const AUTO_DELETE_CHOICES = [0, 1, 5, 60, 1440, 10080] as const;

/** Reaction counts per message and the viewer's own reaction, for a page of messages. */
export interface ReactionSummaries {
  counts: Map<number, Record<string, number>>;
  mine: Map<number, string>;
}

export interface PrivateMessageRecord {
  id: number;
  sender_id: number;
  receiver_id: number;
  content: string;
  media: string | null;
  media_type: string | null;
  parent_id: number | null;
  is_read: boolean;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  expires_at: Timestamp | null;
}

export type NewPrivateMessage = Omit<PrivateMessageRecord, 'id' | 'is_read' | 'edited_at'>;

/** A conversation as one side sees it, with both accounts: what a thread and a send start from, in one read. */
export interface ConversationWith {
  peer: UserRecord;
  /** The side's own account: null only if it is gone. */
  own: UserRecord | null;
  /** The side's "cleared before" marker (0: nothing cleared, or no conversation yet). */
  clearedBeforeId: number;
  /** Minutes; 0 keeps messages forever. */
  autoDeleteMinutes: number;
}

export interface ConversationSummary {
  peer_id: number;
  last_message: PrivateMessageRecord;
  unread_count: number;
}

/**
 * Private messages between two users. Each side has a conversation row holding its own "cleared
 * before" marker: deleting a conversation hides what came before for that side only.
 */
export interface PrivateMessageRepository {
  /** Stores the message and moves both sides' conversation to the top. */
  create(message: NewPrivateMessage): Promise<PrivateMessageRecord>;
  findById(id: number): Promise<PrivateMessageRecord | null>;
  findByIds(ids: number[]): Promise<PrivateMessageRecord[]>;
  /** Whether `userId` still sees the message (a participant, not cleared, not expired at `now`). */
  isVisibleTo(message: PrivateMessageRecord, userId: number, now: Timestamp): Promise<boolean>;
  /** `userId`'s conversation with `peerId` and both accounts, in one statement; null when the peer does not exist. */
  conversationWith(userId: number, peerId: number): Promise<ConversationWith | null>;
  /**
   * Messages between the two users that `userId` still sees, newest first. `clearedBeforeId`: the
   * side's marker when the caller has read it (`conversationWith`), saving the read.
   */
  thread(
    userId: number,
    peerId: number,
    now: Timestamp,
    page: PageRequest,
    q?: string,
    clearedBeforeId?: number,
  ): Promise<{ items: PrivateMessageRecord[]; total: number }>;
  /** Marks read every message `peerId` sent to `userId`. */
  markRead(userId: number, peerId: number): Promise<void>;
  /** `userId`'s conversations, most recent first; `q` filters on the other user's username. */
  conversations(userId: number, page: PageRequest, q?: string): Promise<{ items: ConversationSummary[]; total: number }>;
  updateContent(id: number, content: string, editedAt: Timestamp): Promise<void>;
  delete(id: number): Promise<void>;
  /** Hides every current message of the conversation for `userId` only. */
  clear(userId: number, peerId: number): Promise<void>;
  autoDeleteMinutes(userId: number, peerId: number): Promise<number>;
  /** The setting is shared by both sides of the conversation. */
  setAutoDeleteMinutes(userId: number, peerId: number, minutes: number, at: Timestamp): Promise<void>;
  react(messageId: number, userId: number, reaction: string, at: Timestamp): Promise<void>;
  unreact(messageId: number, userId: number): Promise<boolean>;
  reactions(messageIds: number[], viewerId: number): Promise<ReactionSummaries>;
  /** Removes messages whose expiry is at or before `now`; returns how many. */
  deleteExpired(now: Timestamp): Promise<number>;
}
export const PrivateMessageRepository = token<PrivateMessageRepository>('PrivateMessageRepository');

export type GroupRole = 'admin' | 'member';

export interface MessageGroupRecord {
  id: number;
  name: string;
  avatar: string | null;
  creator_id: number;
  auto_delete_time: number;
  last_message_id: number | null;
  last_activity_at: Timestamp;
  created_at: Timestamp;
}

export interface GroupMemberRecord {
  group_id: number;
  user_id: number;
  role: GroupRole;
  joined_at: Timestamp;
}

export interface GroupRequestRecord {
  id: number;
  group_id: number;
  user_id: number;
  requested_by: number;
  created_at: Timestamp;
}

export interface GroupMessageRecord {
  id: number;
  group_id: number;
  sender_id: number;
  content: string;
  media: string | null;
  media_type: string | null;
  parent_id: number | null;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  expires_at: Timestamp | null;
}

export type NewGroupMessage = Omit<GroupMessageRecord, 'id' | 'edited_at'>;

export interface MessageGroupRepository {
  /**
   * Takes the group's write lock until the unit of work ends (a no-op outside one): call it as the
   * unit's first step before deciding from what the group holds (roles, members, requests), so that
   * two such decisions about one group run one after the other.
   */
  lockGroup(id: number): Promise<void>;
  create(
    group: { name: string; avatar: string | null; creator_id: number; created_at: Timestamp },
    members: { user_id: number; role: GroupRole }[],
  ): Promise<number>;
  findById(id: number): Promise<MessageGroupRecord | null>;
  update(id: number, patch: Partial<Pick<MessageGroupRecord, 'name' | 'avatar' | 'auto_delete_time'>>): Promise<void>;
  delete(id: number): Promise<void>;
  /** Groups `userId` belongs to, most recent activity first; `q` filters on the name. */
  groupsOf(userId: number, page: PageRequest, q?: string): Promise<{ items: MessageGroupRecord[]; total: number }>;
  memberCounts(groupIds: number[]): Promise<Map<number, number>>;
  membership(groupId: number, userId: number): Promise<GroupMemberRecord | null>;
  /** Oldest member first. */
  members(groupId: number): Promise<GroupMemberRecord[]>;
  addMember(groupId: number, userId: number, role: GroupRole, at: Timestamp): Promise<boolean>;
  removeMember(groupId: number, userId: number): Promise<boolean>;
  setRole(groupId: number, userId: number, role: GroupRole): Promise<void>;
  setEveryoneRole(groupId: number, role: GroupRole): Promise<void>;
  requests(groupId: number): Promise<GroupRequestRecord[]>;
  findRequest(id: number): Promise<GroupRequestRecord | null>;
  /** One pending request per user and group: asking again returns the existing one. */
  createRequest(groupId: number, userId: number, requestedBy: number, at: Timestamp): Promise<GroupRequestRecord>;
  deleteRequest(id: number): Promise<void>;
  createMessage(message: NewGroupMessage): Promise<GroupMessageRecord>;
  findMessage(id: number): Promise<GroupMessageRecord | null>;
  findMessages(ids: number[]): Promise<GroupMessageRecord[]>;
  /** The `page`-th page counted from the newest message, returned oldest first. */
  messages(groupId: number, now: Timestamp, page: PageRequest): Promise<{ items: GroupMessageRecord[]; total: number }>;
  updateMessage(id: number, content: string, editedAt: Timestamp): Promise<void>;
  deleteMessage(id: number): Promise<void>;
  react(messageId: number, userId: number, reaction: string, at: Timestamp): Promise<void>;
  unreact(messageId: number, userId: number): Promise<boolean>;
  reactions(messageIds: number[], viewerId: number): Promise<ReactionSummaries>;
  deleteExpired(now: Timestamp): Promise<number>;
}
export const MessageGroupRepository = token<MessageGroupRepository>('MessageGroupRepository');

export type TypingTarget = 'user' | 'group';

/** Who is typing to whom; entries carry their expiry so several server instances share them. */
export interface TypingRepository {
  set(userId: number, target: TypingTarget, targetId: number, expiresAt: Timestamp): Promise<void>;
  clear(userId: number, target: TypingTarget, targetId: number): Promise<void>;
  /** Users typing to the target whose entry expires after `now`. */
  active(target: TypingTarget, targetId: number, now: Timestamp): Promise<number[]>;
  purge(now: Timestamp): Promise<void>;
}
export const TypingRepository = token<TypingRepository>('TypingRepository');
