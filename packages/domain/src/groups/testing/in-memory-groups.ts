import type { ReactionType } from '../../content/model.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import { InMemoryThreadedCommentRepository } from '../../shared/testing/in-memory-comments.js';
import { InMemoryPostReactions } from '../../shared/testing/in-memory-reactions.js';
import type { Timestamp } from '../../shared/time.js';
import type {
  GroupChanges,
  GroupCommentRecord,
  GroupPostRecord,
  GroupRecord,
  GroupRelation,
  GroupRole,
  JoinRequestRecord,
  MembershipRecord,
  NewGroup,
  NewGroupPost,
} from '../model.js';
import type { GroupCommentRepository, GroupPostRepository, GroupRepository } from '../ports.js';

function window<T>(rows: T[], page: PageRequest): T[] {
  return rows.slice(offsetOf(page), offsetOf(page) + page.perPage + 1).map((r) => ({ ...r }));
}

const key = (groupId: number, userId: number) => `${groupId}:${userId}`;

/** The rows of the three group ports, shared so that deleting a group or a post takes what hangs on it. */
export class InMemoryGroupStore implements Snapshottable {
  readonly groups = new Map<number, GroupRecord>();
  readonly members = new Map<string, MembershipRecord & { seq: number }>();
  readonly requests = new Map<string, JoinRequestRecord & { seq: number }>();
  readonly invitations = new Map<string, { group_id: number; user_id: number; invited_by: number; created_at: Timestamp }>();
  readonly posts = new Map<number, GroupPostRecord>();
  readonly postReactions = new Map<string, { post_id: number; user_id: number; reaction_type: ReactionType; created_at: Timestamp }>();
  readonly comments = new Map<number, GroupCommentRecord>();
  nextId = 1;
  seq = 1;

  /** Told the ids of group comments that went, so the content fake drops their reactions as the SQL adapter does. */
  constructor(readonly onCommentsDeleted: (ids: number[]) => void = () => {}) {}

  snapshot() {
    const restore = captureState(this.groups, this.members, this.requests, this.invitations, this.posts, this.postReactions, this.comments);
    const [nextId, seq] = [this.nextId, this.seq];
    return () => {
      restore();
      this.nextId = nextId;
      this.seq = seq;
    };
  }

  deleteComments(ids: number[]) {
    for (const id of ids) {
      const c = this.comments.get(id);
      if (!c) continue;
      this.comments.delete(id);
      const post = this.posts.get(c.post_id);
      if (post) post.comments_count -= 1;
    }
    this.onCommentsDeleted(ids);
  }

  deletePost(id: number) {
    const post = this.posts.get(id);
    if (!post) return false;
    this.deleteComments([...this.comments.values()].filter((c) => c.post_id === id).map((c) => c.id));
    for (const [k, r] of this.postReactions) if (r.post_id === id) this.postReactions.delete(k);
    this.posts.delete(id);
    const group = this.groups.get(post.group_id);
    if (group) group.posts_count -= 1;
    return true;
  }
}

export class InMemoryGroupRepository implements GroupRepository {
  constructor(readonly s: InMemoryGroupStore = new InMemoryGroupStore()) {}

  async create(g: NewGroup) {
    const group: GroupRecord = { ...g, id: this.s.nextId++, members_count: 0, posts_count: 0, updated_at: null };
    this.s.groups.set(group.id, group);
    await this.addMember(group.id, g.creator_id, 'admin', g.created_at);
    return { ...group };
  }
  async findById(id: number) {
    const g = this.s.groups.get(id);
    return g ? { ...g } : null;
  }
  async update(id: number, changes: GroupChanges) {
    const g = this.s.groups.get(id);
    if (g) Object.assign(g, changes);
  }
  async delete(id: number) {
    for (const p of [...this.s.posts.values()]) if (p.group_id === id) this.s.deletePost(p.id);
    for (const m of [this.s.members, this.s.requests, this.s.invitations] as Map<string, { group_id: number }>[]) {
      for (const [k, v] of m) if (v.group_id === id) m.delete(k);
    }
    this.s.groups.delete(id);
  }
  /** One flow of control at a time in memory: nothing to serialise. */
  async lock(id: number) {
    return this.s.groups.has(id);
  }
  private matches(g: GroupRecord, q: string | null) {
    if (!q) return true;
    const needle = q.toLowerCase();
    return g.name.toLowerCase().includes(needle) || g.description.toLowerCase().includes(needle);
  }
  async listJoined(userId: number, q: string | null, page: PageRequest) {
    const mine = [...this.s.members.values()].filter((m) => m.user_id === userId).sort((a, b) => b.seq - a.seq);
    const rows = mine.map((m) => this.s.groups.get(m.group_id)!).filter((g) => g && this.matches(g, q));
    return window(rows, page);
  }
  async listDiscover(userId: number, q: string | null, page: PageRequest) {
    const rows = [...this.s.groups.values()]
      .filter((g) => g.privacy === 'public' && !this.s.members.has(key(g.id, userId)) && this.matches(g, q))
      .sort((a, b) => b.members_count - a.members_count || b.id - a.id);
    return window(rows, page);
  }
  async relation(groupId: number, userId: number): Promise<GroupRelation> {
    return {
      role: this.s.members.get(key(groupId, userId))?.role ?? null,
      invited: this.s.invitations.has(key(groupId, userId)),
      requested: this.s.requests.has(key(groupId, userId)),
    };
  }
  async relations(groupIds: number[], userId: number) {
    const out = new Map<number, GroupRelation>();
    for (const id of groupIds) out.set(id, await this.relation(id, userId));
    return out;
  }
  async addMember(groupId: number, userId: number, role: GroupRole, at: Timestamp) {
    const g = this.s.groups.get(groupId);
    if (!g || this.s.members.has(key(groupId, userId))) return false;
    this.s.members.set(key(groupId, userId), { group_id: groupId, user_id: userId, role, joined_at: at, seq: this.s.seq++ });
    g.members_count += 1;
    return true;
  }
  async removeMember(groupId: number, userId: number) {
    if (!this.s.members.delete(key(groupId, userId))) return false;
    const g = this.s.groups.get(groupId);
    if (g) g.members_count -= 1;
    return true;
  }
  async setRole(groupId: number, userId: number, role: GroupRole) {
    const m = this.s.members.get(key(groupId, userId));
    if (!m) return false;
    m.role = role;
    return true;
  }
  private membersOf(groupId: number) {
    return [...this.s.members.values()].filter((m) => m.group_id === groupId).sort((a, b) => a.seq - b.seq);
  }
  async members(groupId: number, page: PageRequest) {
    const all = this.membersOf(groupId);
    const ordered = [...all.filter((m) => m.role === 'admin'), ...all.filter((m) => m.role !== 'admin')];
    return window(ordered, page).map(({ seq: _, ...m }) => m);
  }
  async adminIds(groupId: number) {
    return this.membersOf(groupId)
      .filter((m) => m.role === 'admin')
      .map((m) => m.user_id);
  }
  async longestMember(groupId: number, except: number) {
    const m = this.membersOf(groupId).find((x) => x.user_id !== except);
    if (!m) return null;
    const { seq: _, ...rest } = m;
    return rest;
  }
  async addRequest(groupId: number, userId: number, at: Timestamp) {
    if (this.s.requests.has(key(groupId, userId))) return false;
    this.s.requests.set(key(groupId, userId), { group_id: groupId, user_id: userId, created_at: at, seq: this.s.seq++ });
    return true;
  }
  async removeRequest(groupId: number, userId: number) {
    return this.s.requests.delete(key(groupId, userId));
  }
  async requests(groupId: number, page: PageRequest) {
    const rows = [...this.s.requests.values()].filter((r) => r.group_id === groupId).sort((a, b) => a.seq - b.seq);
    return window(rows, page).map(({ seq: _, ...r }) => r);
  }
  async addInvitation(groupId: number, userId: number, invitedBy: number, at: Timestamp) {
    if (this.s.invitations.has(key(groupId, userId))) return false;
    this.s.invitations.set(key(groupId, userId), { group_id: groupId, user_id: userId, invited_by: invitedBy, created_at: at });
    return true;
  }
  async removeInvitation(groupId: number, userId: number) {
    return this.s.invitations.delete(key(groupId, userId));
  }
}

export class InMemoryGroupPostRepository implements GroupPostRepository {
  private readonly reactions: InMemoryPostReactions<ReactionType>;

  constructor(readonly s: InMemoryGroupStore) {
    this.reactions = new InMemoryPostReactions(s.postReactions, s.posts);
  }

  /** Group posts a pending report names (the moderation context's reports, as far as groups read them). */
  readonly reported = new Set<number>();

  async underReport(id: number) {
    return this.reported.has(id);
  }

  async create(p: NewGroupPost) {
    const post: GroupPostRecord = {
      ...p,
      media: [...p.media],
      tags: [...p.tags],
      id: this.s.nextId++,
      likes_count: 0,
      comments_count: 0,
      updated_at: null,
    };
    this.s.posts.set(post.id, post);
    const g = this.s.groups.get(p.group_id);
    if (g) g.posts_count += 1;
    return { ...post };
  }
  async findById(id: number) {
    const p = this.s.posts.get(id);
    return p ? { ...p, media: [...p.media], tags: [...p.tags] } : null;
  }
  async update(id: number, changes: { content: string; updated_at: Timestamp }) {
    const p = this.s.posts.get(id);
    if (p) Object.assign(p, changes);
  }
  async delete(id: number) {
    return this.s.deletePost(id);
  }
  async listByGroup(groupId: number, page: PageRequest) {
    return window(
      [...this.s.posts.values()].filter((p) => p.group_id === groupId).sort((a, b) => b.id - a.id),
      page,
    );
  }
  async react(postId: number, userId: number, reaction: ReactionType, at: Timestamp) {
    return this.reactions.react(postId, userId, reaction, at);
  }
  async unreact(postId: number, userId: number) {
    return this.reactions.unreact(postId, userId);
  }
  async reactionsBy(userId: number, postIds: number[]) {
    return this.reactions.by(userId, postIds);
  }
}

export class InMemoryGroupCommentRepository
  extends InMemoryThreadedCommentRepository<GroupCommentRecord>
  implements GroupCommentRepository
{
  constructor(readonly s: InMemoryGroupStore) {
    super(s.comments, s.posts, (ids) => s.onCommentsDeleted(ids));
  }

  async create(c: Omit<GroupCommentRecord, 'id' | 'updated_at'>) {
    return this.add({ ...c, id: this.s.nextId++, updated_at: null });
  }
  /** One flow of control at a time in memory: nothing to serialise; tells whether the comment exists. */
  async lock(id: number) {
    return this.s.comments.has(id);
  }
}
