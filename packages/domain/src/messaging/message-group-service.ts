import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { PushSender } from '../notifications/ports.js';
import type { MediaReferences } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import {
  AUTO_DELETE_CHOICES,
  type GroupMemberRecord,
  type GroupMessageRecord,
  type GroupRequestRecord,
  type MessageGroupRecord,
  type MessageGroupRepository,
} from './ports.js';
import { MessageReactions } from './message-reactions.js';
import { userMap } from '../accounts/user-map.js';
import { messageViews, type MessageViewOf } from './message-views.js';
import { checkContent, checkText, messagePreview, type SendInput } from './private-message-service.js';

export const MAX_GROUP_NAME = 100;

/** A group chat's avatar: an upload of type `group` (or the "none" placeholder the client sends), contract §12. */

export interface GroupListItem {
  group: MessageGroupRecord;
  last_message: GroupMessageRecord | null;
  members_count: number;
}

export interface GroupDetails {
  group: MessageGroupRecord;
  my_role: string;
  members: { member: GroupMemberRecord; user: UserRecord }[];
  requests: { request: GroupRequestRecord; user: UserRecord }[];
}

export type GroupMessageView = MessageViewOf<GroupMessageRecord>;

export interface GroupUpdate {
  name?: string;
  avatar?: string | null;
  auto_delete_time?: number;
  make_everyone_admin?: boolean;
}

/**
 * Group chats. Only members read or write; admins rename, approve requests and remove members;
 * a member's invitation becomes a request for the admins; nobody edits or deletes another's message.
 * Every change of membership or roles runs in one unit of work that first takes the group's lock, so
 * that what it decided from (my role, the remaining admins, the pending request) still holds when it
 * writes.
 */
export class MessageGroupService {
  constructor(
    private readonly groups: MessageGroupRepository,
    private readonly users: UserRepository,
    private readonly push: PushSender,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Checks that avatars and message media name uploaded files. */
    private readonly media: MediaReferences,
  ) {
    this.reactionRule = new MessageReactions(groups, () => this.now());
  }

  /** Reactions follow the one rule both message kinds share (message-reactions.ts). */
  private readonly reactionRule: MessageReactions;

  private groupAvatar(actor: Actor, avatar: string | null | undefined): Promise<string | null> {
    return this.media.optional(actor, 'avatar', avatar, ['group'], { placeholder: true });
  }

  private now() {
    return toTimestamp(this.clock.now());
  }

  async list(actor: Actor, page: PageRequest, q?: string): Promise<{ items: GroupListItem[]; meta: PageMeta }> {
    const { items, total } = await this.groups.groupsOf(actor.userId, page, q);
    const lastIds = items.flatMap((g) => (g.last_message_id ? [g.last_message_id] : []));
    const last = new Map((lastIds.length ? await this.groups.findMessages(lastIds) : []).map((m) => [m.id, m]));
    const counts = await this.groups.memberCounts(items.map((g) => g.id));
    return {
      items: items.map((g) => ({
        group: g,
        last_message: g.last_message_id ? (last.get(g.last_message_id) ?? null) : null,
        members_count: counts.get(g.id) ?? 0,
      })),
      meta: pageMeta(page, total),
    };
  }

  async create(actor: Actor, input: { name: string; avatar?: string | null; member_ids?: number[] }): Promise<number> {
    const name = input.name.trim();
    if (name === '') throw Invalid.field('name', 'must not be empty');
    if (name.length > MAX_GROUP_NAME) throw Invalid.field('name', `must be at most ${MAX_GROUP_NAME} characters`);
    const others = [...new Set(input.member_ids ?? [])].filter((id) => id !== actor.userId);
    const found = await userMap(this.users, others);
    const missing = others.filter((id) => !found.has(id));
    if (missing.length) throw Invalid.field('member_ids', `unknown users: ${missing.join(', ')}`, 'unknown_member');
    return this.groups.create(
      { name, avatar: await this.groupAvatar(actor, input.avatar), creator_id: actor.userId, created_at: this.now() },
      [{ user_id: actor.userId, role: 'admin' }, ...others.map((id) => ({ user_id: id, role: 'member' as const }))],
    );
  }

  async details(actor: Actor, groupId: number): Promise<GroupDetails> {
    const { group, me } = await this.memberOf(actor, groupId);
    const members = await this.groups.members(groupId);
    const requests = me.role === 'admin' ? await this.groups.requests(groupId) : [];
    const users = await userMap(this.users, [...members.map((m) => m.user_id), ...requests.map((r) => r.user_id)]);
    return {
      group,
      my_role: me.role,
      members: members.flatMap((m) => (users.has(m.user_id) ? [{ member: m, user: users.get(m.user_id)! }] : [])),
      requests: requests.flatMap((r) => (users.has(r.user_id) ? [{ request: r, user: users.get(r.user_id)! }] : [])),
    };
  }

  async update(actor: Actor, groupId: number, patch: GroupUpdate): Promise<MessageGroupRecord> {
    return this.locked(groupId, async () => {
      await this.adminOf(actor, groupId);
      const clean = await this.checkUpdate(actor, patch);
      if (Object.keys(clean).length) await this.groups.update(groupId, clean);
      if (patch.make_everyone_admin) await this.groups.setEveryoneRole(groupId, 'admin');
      return (await this.groups.findById(groupId))!;
    });
  }

  private async checkUpdate(actor: Actor, patch: GroupUpdate) {
    const clean: Partial<Pick<MessageGroupRecord, 'name' | 'avatar' | 'auto_delete_time'>> = {};
    if (patch.name !== undefined) {
      const name = patch.name.trim();
      if (name === '' || name.length > MAX_GROUP_NAME) throw Invalid.field('name', `must be 1 to ${MAX_GROUP_NAME} characters`);
      clean.name = name;
    }
    if (patch.avatar !== undefined) clean.avatar = await this.groupAvatar(actor, patch.avatar);
    if (patch.auto_delete_time !== undefined) {
      if (!(AUTO_DELETE_CHOICES as readonly number[]).includes(patch.auto_delete_time)) {
        throw Invalid.field('auto_delete_time', `must be one of ${AUTO_DELETE_CHOICES.join(', ')}`);
      }
      clean.auto_delete_time = patch.auto_delete_time;
    }
    return clean;
  }

  /**
   * Leaving: the last admin hands over to the oldest member; the last member closes the group. Under
   * the group's lock, two admins leaving at once cannot both see the other as the remaining admin.
   */
  async leave(actor: Actor, groupId: number): Promise<void> {
    await this.locked(groupId, async () => {
      const { me } = await this.memberOf(actor, groupId);
      await this.groups.removeMember(groupId, actor.userId);
      const rest = await this.groups.members(groupId);
      if (rest.length === 0) {
        await this.groups.delete(groupId);
        return;
      }
      if (me.role === 'admin' && !rest.some((m) => m.role === 'admin')) await this.groups.setRole(groupId, rest[0].user_id, 'admin');
    });
  }

  /** Admins add directly; a plain member's invitation waits for an admin's approval. */
  async addMember(actor: Actor, groupId: number, userId: number): Promise<{ added: boolean; request_id: number | null }> {
    return this.locked(groupId, async () => {
      const { me } = await this.memberOf(actor, groupId);
      if (!(await this.users.findById(userId))) throw new NotFound('User not found', 'user_not_found');
      if (await this.groups.membership(groupId, userId)) return { added: false, request_id: null };
      if (me.role === 'admin') {
        await this.groups.addMember(groupId, userId, 'member', this.now());
        return { added: true, request_id: null };
      }
      const request = await this.groups.createRequest(groupId, userId, actor.userId, this.now());
      return { added: false, request_id: request.id };
    });
  }

  async removeMember(actor: Actor, groupId: number, userId: number): Promise<void> {
    if (userId === actor.userId) return this.leave(actor, groupId);
    await this.locked(groupId, async () => {
      await this.adminOf(actor, groupId);
      if (!(await this.groups.removeMember(groupId, userId))) throw new NotFound('Not a member of this group', 'member_not_found');
    });
  }

  /** The member is added and the request removed together; a request answered meanwhile is not found. */
  async approve(actor: Actor, groupId: number, requestId: number): Promise<void> {
    await this.locked(groupId, async () => {
      const request = await this.requestOf(actor, groupId, requestId);
      await this.groups.addMember(groupId, request.user_id, 'member', this.now());
      await this.groups.deleteRequest(request.id);
    });
  }

  async reject(actor: Actor, groupId: number, requestId: number): Promise<void> {
    await this.locked(groupId, async () => {
      const request = await this.requestOf(actor, groupId, requestId);
      await this.groups.deleteRequest(request.id);
    });
  }

  async messages(actor: Actor, groupId: number, page: PageRequest): Promise<{ items: GroupMessageView[]; meta: PageMeta }> {
    await this.memberOf(actor, groupId);
    const { items, total } = await this.groups.messages(groupId, this.now(), page);
    return { items: await this.views(actor, items), meta: pageMeta(page, total) };
  }

  async send(actor: Actor, groupId: number, input: SendInput): Promise<GroupMessageRecord> {
    const { group } = await this.memberOf(actor, groupId);
    const body = await checkContent(actor, input, this.media);
    if (input.parent_id) {
      const parent = await this.groups.findMessage(input.parent_id);
      if (!parent || parent.group_id !== groupId) throw Invalid.field('parent_id', 'must be a message of this group', 'invalid_parent');
    }
    const now = this.clock.now();
    const message = await this.groups.createMessage({
      group_id: groupId,
      sender_id: actor.userId,
      ...body,
      parent_id: input.parent_id ?? null,
      created_at: toTimestamp(now),
      expires_at: group.auto_delete_time > 0 ? toTimestamp(new Date(now.getTime() + group.auto_delete_time * 60_000)) : null,
    });
    const preview = messagePreview(body.content, body.media);
    if (preview !== null) {
      const members = await this.groups.members(groupId);
      for (const m of members) {
        if (m.user_id === actor.userId) continue;
        await this.push.send(m.user_id, {
          title: group.name,
          body: `${actor.username}: ${preview}`,
          data: { type: 'group_message', group_id: String(groupId), message_preview: preview },
        });
      }
    }
    return message;
  }

  async editMessage(actor: Actor, messageId: number, content: string): Promise<GroupMessageView> {
    const message = await this.ownMessage(actor, messageId);
    // An edit follows the rules of a send, with the media the message already has.
    const text = checkText(content, message.media !== null);
    await this.groups.updateMessage(messageId, text, this.now());
    // Deleted meanwhile by a concurrent request: gone, as it would be for any later read.
    const edited = await this.groups.findMessage(messageId);
    if (!edited) throw new NotFound('Message not found', 'message_not_found');
    const [view] = await this.views(actor, [edited]);
    return view;
  }

  /** The message goes, and the group's last message moves back, together. */
  async deleteMessage(actor: Actor, messageId: number): Promise<void> {
    await this.uow.run(async () => {
      await this.ownMessage(actor, messageId);
      await this.groups.deleteMessage(messageId);
    });
  }

  async react(actor: Actor, messageId: number, reaction: string): Promise<Record<string, number>> {
    return this.reactionRule.react(actor, messageId, reaction, () => this.memberMessage(actor, messageId));
  }

  async unreact(actor: Actor, messageId: number): Promise<Record<string, number>> {
    return this.reactionRule.unreact(actor, messageId, () => this.memberMessage(actor, messageId));
  }

  /**
   * The periodic job. Not one unit of work across groups, which would hold a range of locks while
   * senders wait: the repository deletes and moves each group's last message in a unit of its own.
   */
  async deleteExpired(): Promise<number> {
    return this.groups.deleteExpired(this.now());
  }

  /** For the typing service: throws unless the actor belongs to the group. */
  async assertMember(actor: Actor, groupId: number): Promise<void> {
    await this.memberOf(actor, groupId);
  }

  private views(actor: Actor, items: GroupMessageRecord[]): Promise<GroupMessageView[]> {
    return messageViews(
      {
        users: this.users,
        findMessages: (ids) => this.groups.findMessages(ids),
        reactions: (ids, viewer) => this.groups.reactions(ids, viewer),
      },
      actor.userId,
      items,
    );
  }

  /**
   * Runs `work` in a unit of work whose first step takes the group's lock: on MySQL every read after
   * it sees what the previous holder committed.
   */
  private locked<T>(groupId: number, work: () => Promise<T>): Promise<T> {
    return this.uow.run(async () => {
      await this.groups.lockGroup(groupId);
      return work();
    });
  }

  private async memberOf(actor: Actor, groupId: number): Promise<{ group: MessageGroupRecord; me: GroupMemberRecord }> {
    const group = await this.groups.findById(groupId);
    if (!group) throw new NotFound('Group not found', 'group_not_found');
    const me = await this.groups.membership(groupId, actor.userId);
    if (!me) throw new Forbidden('You are not a member of this group', 'not_member');
    return { group, me };
  }

  private async adminOf(actor: Actor, groupId: number) {
    const found = await this.memberOf(actor, groupId);
    if (found.me.role !== 'admin') throw new Forbidden('Only admins can do this', 'not_admin');
    return found;
  }

  private async requestOf(actor: Actor, groupId: number, requestId: number): Promise<GroupRequestRecord> {
    await this.adminOf(actor, groupId);
    const request = await this.groups.findRequest(requestId);
    if (!request || request.group_id !== groupId) throw new NotFound('Request not found', 'request_not_found');
    return request;
  }

  private async memberMessage(actor: Actor, messageId: number): Promise<GroupMessageRecord> {
    const message = await this.groups.findMessage(messageId);
    if (!message || (message.expires_at !== null && message.expires_at <= this.now()))
      throw new NotFound('Message not found', 'message_not_found');
    await this.memberOf(actor, message.group_id);
    return message;
  }

  private async ownMessage(actor: Actor, messageId: number): Promise<GroupMessageRecord> {
    const message = await this.memberMessage(actor, messageId);
    if (message.sender_id !== actor.userId) throw new Forbidden('You can only change your own messages', 'not_author');
    return message;
  }
}
