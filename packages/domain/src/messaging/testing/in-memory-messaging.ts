import type {
  ConversationSummary,
  GroupMemberRecord,
  GroupMessageRecord,
  GroupRequestRecord,
  GroupRole,
  MessageGroupRecord,
  MessageGroupRepository,
  NewGroupMessage,
  NewPrivateMessage,
  PrivateMessageRecord,
  PrivateMessageRepository,
  ReactionSummaries,
} from '../ports.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';

function slice<T>(all: T[], page: PageRequest): T[] {
  return all.slice(offsetOf(page), offsetOf(page) + page.perPage);
}

const live = (m: { expires_at: Timestamp | null }, now: Timestamp) => m.expires_at === null || m.expires_at > now;

class ReactionStore {
  readonly rows = new Map<string, { message_id: number; user_id: number; reaction: string }>();
  put(messageId: number, userId: number, reaction: string) {
    this.rows.set(`${messageId}:${userId}`, { message_id: messageId, user_id: userId, reaction });
  }
  remove(messageId: number, userId: number) {
    return this.rows.delete(`${messageId}:${userId}`);
  }
  dropMessage(messageId: number) {
    for (const [k, r] of this.rows) if (r.message_id === messageId) this.rows.delete(k);
  }
  summaries(ids: number[], viewerId: number): ReactionSummaries {
    const counts = new Map<number, Record<string, number>>();
    const mine = new Map<number, string>();
    for (const r of this.rows.values()) {
      if (!ids.includes(r.message_id)) continue;
      const entry = counts.get(r.message_id) ?? {};
      entry[r.reaction] = (entry[r.reaction] ?? 0) + 1;
      counts.set(r.message_id, entry);
      if (r.user_id === viewerId) mine.set(r.message_id, r.reaction);
    }
    return { counts, mine };
  }
}

export class InMemoryPrivateMessageRepository implements PrivateMessageRepository, Snapshottable {
  readonly messages: PrivateMessageRecord[] = [];
  readonly conversationRows = new Map<string, { user_id: number; peer_id: number; cleared_before_id: number; auto_delete_time: number }>();
  private readonly reactionStore = new ReactionStore();
  private nextId = 1;

  snapshot() {
    const restore = captureState(this.messages, this.conversationRows, this.reactionStore.rows);
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }
  /** `users` is needed to filter conversations by the peer's username and to answer `conversationWith`, as the SQL adapter joins users. */
  constructor(private readonly users?: InMemoryUserRepository) {}

  private conv(userId: number, peerId: number) {
    const key = `${userId}:${peerId}`;
    let row = this.conversationRows.get(key);
    if (!row) {
      row = { user_id: userId, peer_id: peerId, cleared_before_id: 0, auto_delete_time: 0 };
      this.conversationRows.set(key, row);
    }
    return row;
  }
  private between(a: number, b: number) {
    return this.messages.filter((m) => (m.sender_id === a && m.receiver_id === b) || (m.sender_id === b && m.receiver_id === a));
  }

  async create(m: NewPrivateMessage) {
    const record: PrivateMessageRecord = { ...m, id: this.nextId++, is_read: false, edited_at: null };
    this.messages.push(record);
    this.conv(m.sender_id, m.receiver_id);
    this.conv(m.receiver_id, m.sender_id);
    return { ...record };
  }
  async findById(id: number) {
    const m = this.messages.find((x) => x.id === id);
    return m ? { ...m } : null;
  }
  async findByIds(ids: number[]) {
    return this.messages.filter((m) => ids.includes(m.id)).map((m) => ({ ...m }));
  }
  async isVisibleTo(m: PrivateMessageRecord, userId: number, now: Timestamp) {
    if (m.sender_id !== userId && m.receiver_id !== userId) return false;
    const peer = m.sender_id === userId ? m.receiver_id : m.sender_id;
    return live(m, now) && m.id > this.conv(userId, peer).cleared_before_id;
  }
  async conversationWith(userId: number, peerId: number) {
    if (!this.users) throw new Error('InMemoryPrivateMessageRepository needs the user repository to answer conversationWith');
    const peer = await this.users.findById(peerId);
    if (!peer) return null;
    const row = this.conversationRows.get(`${userId}:${peerId}`);
    return {
      peer,
      own: await this.users.findById(userId),
      clearedBeforeId: row?.cleared_before_id ?? 0,
      autoDeleteMinutes: row?.auto_delete_time ?? 0,
    };
  }

  async thread(userId: number, peerId: number, now: Timestamp, page: PageRequest, q?: string, clearedBeforeId?: number) {
    const cleared = clearedBeforeId ?? this.conv(userId, peerId).cleared_before_id;
    const all = this.between(userId, peerId)
      .filter((m) => m.id > cleared && live(m, now) && (!q || m.content.toLowerCase().includes(q.toLowerCase())))
      .sort((a, b) => b.id - a.id);
    return { items: slice(all, page).map((m) => ({ ...m })), total: all.length };
  }
  async markRead(userId: number, peerId: number) {
    for (const m of this.messages) if (m.receiver_id === userId && m.sender_id === peerId) m.is_read = true;
  }
  async conversations(userId: number, page: PageRequest, q?: string) {
    if (q && !this.users) throw new Error('InMemoryPrivateMessageRepository needs the user repository to filter conversations by username');
    const all: ConversationSummary[] = [];
    for (const row of this.conversationRows.values()) {
      if (row.user_id !== userId) continue;
      if (q && !this.users?.rows.get(row.peer_id)?.username.toLowerCase().includes(q.toLowerCase())) continue;
      const visible = this.between(userId, row.peer_id).filter((m) => m.id > row.cleared_before_id);
      if (visible.length === 0) continue;
      const last = visible.reduce((a, b) => (b.id > a.id ? b : a));
      if (last.id <= row.cleared_before_id) continue;
      all.push({
        peer_id: row.peer_id,
        last_message: { ...last },
        unread_count: visible.filter((m) => m.receiver_id === userId && !m.is_read).length,
      });
    }
    all.sort((a, b) => b.last_message.created_at.localeCompare(a.last_message.created_at) || b.last_message.id - a.last_message.id);
    return { items: slice(all, page), total: all.length };
  }
  async updateContent(id: number, content: string, editedAt: Timestamp) {
    const m = this.messages.find((x) => x.id === id);
    if (m) Object.assign(m, { content, edited_at: editedAt });
  }
  async delete(id: number) {
    const i = this.messages.findIndex((x) => x.id === id);
    if (i >= 0) this.messages.splice(i, 1);
    this.reactionStore.dropMessage(id);
  }
  async clear(userId: number, peerId: number) {
    this.conv(userId, peerId).cleared_before_id = Math.max(0, ...this.between(userId, peerId).map((m) => m.id));
  }
  async autoDeleteMinutes(userId: number, peerId: number) {
    return this.conversationRows.get(`${userId}:${peerId}`)?.auto_delete_time ?? 0;
  }
  async setAutoDeleteMinutes(userId: number, peerId: number, minutes: number) {
    this.conv(userId, peerId).auto_delete_time = minutes;
    this.conv(peerId, userId).auto_delete_time = minutes;
  }
  async react(messageId: number, userId: number, reaction: string) {
    this.reactionStore.put(messageId, userId, reaction);
  }
  async unreact(messageId: number, userId: number) {
    return this.reactionStore.remove(messageId, userId);
  }
  async reactions(messageIds: number[], viewerId: number) {
    return this.reactionStore.summaries(messageIds, viewerId);
  }
  async deleteExpired(now: Timestamp) {
    const expired = this.messages.filter((m) => !live(m, now));
    for (const m of expired) await this.delete(m.id);
    return expired.length;
  }
}

export class InMemoryMessageGroupRepository implements MessageGroupRepository, Snapshottable {
  readonly groups: MessageGroupRecord[] = [];
  readonly memberRows: GroupMemberRecord[] = [];
  readonly requestRows: GroupRequestRecord[] = [];
  readonly messageRows: GroupMessageRecord[] = [];
  private readonly reactionStore = new ReactionStore();
  private ids = { group: 1, request: 1, message: 1 };

  snapshot() {
    const restore = captureState(this.groups, this.memberRows, this.requestRows, this.messageRows, this.reactionStore.rows);
    const ids = { ...this.ids };
    return () => {
      restore();
      this.ids = ids;
    };
  }
  /** One flow of control at a time in memory: nothing to serialize. */
  async lockGroup(_id: number) {}

  async create(
    group: { name: string; avatar: string | null; creator_id: number; created_at: Timestamp },
    members: { user_id: number; role: GroupRole }[],
  ) {
    const id = this.ids.group++;
    this.groups.push({ ...group, id, auto_delete_time: 0, last_message_id: null, last_activity_at: group.created_at });
    for (const m of members) this.memberRows.push({ group_id: id, user_id: m.user_id, role: m.role, joined_at: group.created_at });
    return id;
  }
  async findById(id: number) {
    const g = this.groups.find((x) => x.id === id);
    return g ? { ...g } : null;
  }
  async update(id: number, patch: Partial<Pick<MessageGroupRecord, 'name' | 'avatar' | 'auto_delete_time'>>) {
    const g = this.groups.find((x) => x.id === id);
    if (g) Object.assign(g, patch);
  }
  async delete(id: number) {
    const i = this.groups.findIndex((x) => x.id === id);
    if (i >= 0) this.groups.splice(i, 1);
    for (const list of [this.memberRows, this.requestRows, this.messageRows] as { group_id: number }[][]) {
      for (let j = list.length - 1; j >= 0; j--) if (list[j].group_id === id) list.splice(j, 1);
    }
  }
  async groupsOf(userId: number, page: PageRequest, q?: string) {
    const mine = new Set(this.memberRows.filter((m) => m.user_id === userId).map((m) => m.group_id));
    const all = this.groups
      .filter((g) => mine.has(g.id) && (!q || g.name.toLowerCase().includes(q.toLowerCase())))
      .sort((a, b) => b.last_activity_at.localeCompare(a.last_activity_at) || b.id - a.id);
    return { items: slice(all, page).map((g) => ({ ...g })), total: all.length };
  }
  async memberCounts(groupIds: number[]) {
    const out = new Map<number, number>();
    for (const m of this.memberRows) if (groupIds.includes(m.group_id)) out.set(m.group_id, (out.get(m.group_id) ?? 0) + 1);
    return out;
  }
  async membership(groupId: number, userId: number) {
    const m = this.memberRows.find((x) => x.group_id === groupId && x.user_id === userId);
    return m ? { ...m } : null;
  }
  async members(groupId: number) {
    return this.memberRows
      .filter((m) => m.group_id === groupId)
      .sort((a, b) => a.joined_at.localeCompare(b.joined_at) || a.user_id - b.user_id)
      .map((m) => ({ ...m }));
  }
  async addMember(groupId: number, userId: number, role: GroupRole, at: Timestamp) {
    if (await this.membership(groupId, userId)) return false;
    this.memberRows.push({ group_id: groupId, user_id: userId, role, joined_at: at });
    return true;
  }
  async removeMember(groupId: number, userId: number) {
    const i = this.memberRows.findIndex((x) => x.group_id === groupId && x.user_id === userId);
    if (i < 0) return false;
    this.memberRows.splice(i, 1);
    return true;
  }
  async setRole(groupId: number, userId: number, role: GroupRole) {
    for (const m of this.memberRows) if (m.group_id === groupId && m.user_id === userId) m.role = role;
  }
  async setEveryoneRole(groupId: number, role: GroupRole) {
    for (const m of this.memberRows) if (m.group_id === groupId) m.role = role;
  }
  async requests(groupId: number) {
    return this.requestRows.filter((r) => r.group_id === groupId).map((r) => ({ ...r }));
  }
  async findRequest(id: number) {
    const r = this.requestRows.find((x) => x.id === id);
    return r ? { ...r } : null;
  }
  async createRequest(groupId: number, userId: number, requestedBy: number, at: Timestamp) {
    const existing = this.requestRows.find((r) => r.group_id === groupId && r.user_id === userId);
    if (existing) return { ...existing };
    const r = { id: this.ids.request++, group_id: groupId, user_id: userId, requested_by: requestedBy, created_at: at };
    this.requestRows.push(r);
    return { ...r };
  }
  async deleteRequest(id: number) {
    const i = this.requestRows.findIndex((x) => x.id === id);
    if (i >= 0) this.requestRows.splice(i, 1);
  }
  async createMessage(m: NewGroupMessage) {
    const record: GroupMessageRecord = { ...m, id: this.ids.message++, edited_at: null };
    this.messageRows.push(record);
    const g = this.groups.find((x) => x.id === m.group_id);
    if (g) Object.assign(g, { last_message_id: record.id, last_activity_at: m.created_at });
    return { ...record };
  }
  async findMessage(id: number) {
    const m = this.messageRows.find((x) => x.id === id);
    return m ? { ...m } : null;
  }
  async findMessages(ids: number[]) {
    return this.messageRows.filter((m) => ids.includes(m.id)).map((m) => ({ ...m }));
  }
  async messages(groupId: number, now: Timestamp, page: PageRequest) {
    const all = this.messageRows.filter((m) => m.group_id === groupId && live(m, now)).sort((a, b) => b.id - a.id);
    return {
      items: slice(all, page)
        .reverse()
        .map((m) => ({ ...m })),
      total: all.length,
    };
  }
  async updateMessage(id: number, content: string, editedAt: Timestamp) {
    const m = this.messageRows.find((x) => x.id === id);
    if (m) Object.assign(m, { content, edited_at: editedAt });
  }
  async deleteMessage(id: number) {
    const i = this.messageRows.findIndex((x) => x.id === id);
    if (i < 0) return;
    const [m] = this.messageRows.splice(i, 1);
    this.reactionStore.dropMessage(id);
    const g = this.groups.find((x) => x.id === m.group_id);
    if (g) g.last_message_id = Math.max(0, ...this.messageRows.filter((x) => x.group_id === g.id).map((x) => x.id)) || null;
  }
  async react(messageId: number, userId: number, reaction: string) {
    this.reactionStore.put(messageId, userId, reaction);
  }
  async unreact(messageId: number, userId: number) {
    return this.reactionStore.remove(messageId, userId);
  }
  async reactions(messageIds: number[], viewerId: number) {
    return this.reactionStore.summaries(messageIds, viewerId);
  }
  async deleteExpired(now: Timestamp) {
    const expired = this.messageRows.filter((m) => !live(m, now));
    for (const m of expired) await this.deleteMessage(m.id);
    return expired.length;
  }
}
