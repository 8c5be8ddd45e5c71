import type { UserRepository } from '../accounts/ports.js';
import { acceptsMessageFrom } from '../accounts/preferences.js';
import type { FollowRepository, FriendRequestRepository } from '../social/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { PushSender } from '../notifications/ports.js';
import type { MediaReferences } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { MessageReactions } from './message-reactions.js';
import { userMap } from '../accounts/user-map.js';
import { messageViews, type MessageViewOf } from './message-views.js';
import { AUTO_DELETE_CHOICES, type PrivateMessageRecord, type PrivateMessageRepository, type ReactionSummaries } from './ports.js';

export const MAX_MESSAGE_LENGTH = 10_000;
const HIDDEN_PREVIEW_PREFIXES = ['__militant_wallpaper__:', '__militant_group_call__:'];

export interface SendInput {
  content?: string | null;
  media?: string | null;
  media_type?: string | null;
  parent_id?: number | null;
}

export type MessageView = MessageViewOf<PrivateMessageRecord>;

export interface ThreadView {
  peer: UserRecord;
  auto_delete_time: number;
  messages: MessageView[];
  meta: PageMeta;
}

export interface ConversationView {
  peer: UserRecord;
  last_message: PrivateMessageRecord;
  unread_count: number;
}

/** Text of a push preview; control messages are never previewed. */
export function messagePreview(content: string, media: string | null): string | null {
  if (HIDDEN_PREVIEW_PREFIXES.some((p) => content.startsWith(p))) return null;
  if (content.trim() !== '') return content.length > 100 ? `${content.slice(0, 97)}...` : content;
  return media ? '📎' : '';
}

export { checkReaction } from './message-reactions.js';

/** A new message's body: its text, and media that must name a chat upload (private and group alike). */
export async function checkContent(
  actor: Actor,
  input: SendInput,
  references: MediaReferences,
): Promise<{ content: string; media: string | null; media_type: string | null }> {
  const media = await references.optional(actor, 'media', input.media, ['messages']);
  return { content: checkText(input.content, media !== null), media, media_type: media ? (input.media_type ?? 'image') : null };
}

/** The text of a message, new or edited: empty only when the message carries media. */
export function checkText(text: string | null | undefined, hasMedia: boolean): string {
  const content = (text ?? '').trim();
  if (content === '' && !hasMedia) throw Invalid.field('content', 'a message needs content or media', 'empty_message');
  if (content.length > MAX_MESSAGE_LENGTH) throw Invalid.field('content', `must be at most ${MAX_MESSAGE_LENGTH} characters`);
  return content;
}

/**
 * `privacy_read_receipts` turned off: the peer's reading is their own business, so the messages the
 * actor sent them show as unread to the actor.
 */
function readStateAsSeenBy(actor: Actor, peer: Pick<UserRecord, 'id' | 'read_receipts'>, views: MessageView[]): MessageView[] {
  if (peer.read_receipts) return views;
  return views.map((v) =>
    v.message.sender_id === actor.userId && v.message.receiver_id === peer.id ? { ...v, message: { ...v.message, is_read: false } } : v,
  );
}

/** Loads a batch of users by id into a map (one query). */

export class PrivateMessageService {
  constructor(
    private readonly messages: PrivateMessageRepository,
    private readonly users: UserRepository,
    private readonly push: PushSender,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** The relations `privacy_allow_messages` reads: friendship, and whether the recipient follows the sender. */
    private readonly relations: { follows: FollowRepository; friends: FriendRequestRepository },
    /** Checks that `media` names an uploaded chat file. */
    private readonly media: MediaReferences,
  ) {
    this.reactionRule = new MessageReactions(messages, () => this.now());
  }

  /** Reactions follow the one rule both message kinds share (message-reactions.ts). */
  private readonly reactionRule: MessageReactions;

  private now() {
    return toTimestamp(this.clock.now());
  }

  async send(actor: Actor, recipientId: number, input: SendInput): Promise<PrivateMessageRecord> {
    if (recipientId === actor.userId) throw Invalid.field('user_id', 'you cannot message yourself', 'cannot_message_self');
    // The recipient and the conversation's auto-delete setting in one read.
    const conversation = await this.messages.conversationWith(actor.userId, recipientId);
    const recipient = conversation?.peer;
    if (!conversation || !recipient || recipient.deleted_at !== null) throw new NotFound('User not found', 'user_not_found');
    if (!recipient.allow_messages && !acceptsMessageFrom(recipient, await this.relationTo(recipientId, actor.userId))) {
      throw new Forbidden('This user only accepts messages from friends and people they follow', 'messages_not_allowed');
    }
    const body = await checkContent(actor, input, this.media);
    const now = this.clock.now();
    if (input.parent_id) {
      const parent = await this.messages.findById(input.parent_id);
      const sameConversation =
        parent &&
        ((parent.sender_id === actor.userId && parent.receiver_id === recipientId) ||
          (parent.sender_id === recipientId && parent.receiver_id === actor.userId));
      if (!parent || !sameConversation || !(await this.messages.isVisibleTo(parent, actor.userId, toTimestamp(now)))) {
        throw Invalid.field('parent_id', 'must be a message of this conversation', 'invalid_parent');
      }
    }
    const minutes = conversation.autoDeleteMinutes;
    const message = await this.messages.create({
      sender_id: actor.userId,
      receiver_id: recipientId,
      ...body,
      parent_id: input.parent_id ?? null,
      created_at: toTimestamp(now),
      expires_at: minutes > 0 ? toTimestamp(new Date(now.getTime() + minutes * 60_000)) : null,
    });
    const preview = messagePreview(body.content, body.media);
    if (preview !== null) {
      await this.push.send(recipientId, {
        title: actor.username,
        body: preview,
        data: { type: 'message', sender_id: String(actor.userId), message_preview: preview },
      });
    }
    return message;
  }

  /** The thread with `peerId`, newest first; reading it marks the peer's messages read. */
  async thread(actor: Actor, peerId: number, page: PageRequest, q?: string): Promise<ThreadView> {
    // The peer, the actor's own account and the conversation's settings in one read; the two accounts
    // are every sender the page can show (a reply's parent is of the same conversation).
    const conversation = await this.messages.conversationWith(actor.userId, peerId);
    if (!conversation) throw new NotFound('User not found', 'user_not_found');
    const { peer, own } = conversation;
    const { items, total } = await this.messages.thread(actor.userId, peerId, this.now(), page, q, conversation.clearedBeforeId);
    await this.messages.markRead(actor.userId, peerId);
    const views = readStateAsSeenBy(actor, peer, await this.views(actor, items, [peer, own]));
    return {
      peer,
      auto_delete_time: conversation.autoDeleteMinutes,
      messages: views,
      meta: pageMeta(page, total),
    };
  }

  async conversations(actor: Actor, page: PageRequest, q?: string): Promise<{ items: ConversationView[]; meta: PageMeta }> {
    const { items, total } = await this.messages.conversations(actor.userId, page, q);
    const users = await userMap(
      this.users,
      items.map((c) => c.peer_id),
    );
    return {
      items: items.flatMap((c) =>
        users.has(c.peer_id) ? [{ peer: users.get(c.peer_id)!, last_message: c.last_message, unread_count: c.unread_count }] : [],
      ),
      meta: pageMeta(page, total),
    };
  }

  async edit(actor: Actor, messageId: number, content: string): Promise<MessageView> {
    const message = await this.ownMessage(actor, messageId);
    // An edit follows the rules of a send, with the media the message already has.
    const text = checkText(content, message.media !== null);
    await this.messages.updateContent(messageId, text, this.now());
    // Deleted meanwhile by a concurrent request: gone, as it would be for any later read.
    const edited = await this.messages.findById(messageId);
    if (!edited) throw new NotFound('Message not found', 'message_not_found');
    const receiver = await this.users.findById(edited.receiver_id);
    const [view] = receiver ? readStateAsSeenBy(actor, receiver, await this.views(actor, [edited])) : await this.views(actor, [edited]);
    return view;
  }

  /** The message goes, and both sides' last message moves back, together. */
  async delete(actor: Actor, messageId: number): Promise<void> {
    await this.uow.run(async () => {
      await this.ownMessage(actor, messageId);
      await this.messages.delete(messageId);
    });
  }

  async deleteConversation(actor: Actor, peerId: number): Promise<void> {
    // Checked first: clearing writes the conversation's rows, which must name an existing user.
    if (!(await this.users.findById(peerId))) throw new NotFound('User not found', 'user_not_found');
    await this.uow.run(() => this.messages.clear(actor.userId, peerId));
  }

  async react(actor: Actor, messageId: number, reaction: string): Promise<Record<string, number>> {
    return this.reactionRule.react(actor, messageId, reaction, () => this.visibleMessage(actor, messageId));
  }

  async unreact(actor: Actor, messageId: number): Promise<Record<string, number>> {
    return this.reactionRule.unreact(actor, messageId, () => this.visibleMessage(actor, messageId));
  }

  async settings(actor: Actor, peerId: number): Promise<{ peer: UserRecord; auto_delete_time: number }> {
    const conversation = await this.messages.conversationWith(actor.userId, peerId);
    if (!conversation) throw new NotFound('User not found', 'user_not_found');
    return { peer: conversation.peer, auto_delete_time: conversation.autoDeleteMinutes };
  }

  async setAutoDelete(actor: Actor, peerId: number, minutes: number): Promise<{ peer: UserRecord; auto_delete_time: number }> {
    if (!(AUTO_DELETE_CHOICES as readonly number[]).includes(minutes)) {
      throw Invalid.field('auto_delete_time', `must be one of ${AUTO_DELETE_CHOICES.join(', ')}`);
    }
    if (peerId === actor.userId) throw Invalid.field('user_id', 'not a conversation');
    const peer = await this.users.findById(peerId);
    if (!peer) throw new NotFound('User not found', 'user_not_found');
    await this.messages.setAutoDeleteMinutes(actor.userId, peerId, minutes, this.now());
    return { peer, auto_delete_time: minutes };
  }

  /** The periodic job: removes messages past their conversation's auto-delete time. */
  async deleteExpired(): Promise<number> {
    // Conversation by conversation, each in a unit of its own: see MessageGroupService.deleteExpired.
    return this.messages.deleteExpired(this.now());
  }

  private views(actor: Actor, items: PrivateMessageRecord[], knownUsers: (UserRecord | null)[] = []): Promise<MessageView[]> {
    return messageViews(
      {
        users: this.users,
        knownUsers,
        findMessages: (ids) => this.messages.findByIds(ids),
        reactions: (ids, viewer) => this.messages.reactions(ids, viewer),
      },
      actor.userId,
      items,
    );
  }

  private async relationTo(recipientId: number, senderId: number) {
    const [out, back, recipientFollowsSender] = await Promise.all([
      this.relations.friends.findBetween(senderId, recipientId),
      this.relations.friends.findBetween(recipientId, senderId),
      this.relations.follows.isFollowing(recipientId, senderId),
    ]);
    return { friends: out?.status === 'accepted' || back?.status === 'accepted', recipientFollowsSender };
  }

  private async visibleMessage(actor: Actor, messageId: number): Promise<PrivateMessageRecord> {
    const message = await this.messages.findById(messageId);
    if (!message) throw new NotFound('Message not found', 'message_not_found');
    if (message.sender_id !== actor.userId && message.receiver_id !== actor.userId)
      throw new Forbidden('Not your conversation', 'not_participant');
    if (!(await this.messages.isVisibleTo(message, actor.userId, this.now()))) throw new NotFound('Message not found', 'message_not_found');
    return message;
  }

  private async ownMessage(actor: Actor, messageId: number): Promise<PrivateMessageRecord> {
    const message = await this.visibleMessage(actor, messageId);
    if (message.sender_id !== actor.userId) throw new Forbidden('You can only change your own messages', 'not_author');
    return message;
  }
}
