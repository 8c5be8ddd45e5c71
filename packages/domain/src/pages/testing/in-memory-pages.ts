import type { ReactionType } from '../../content/model.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { PageCommentRecord, PageFields, PageFollowRecord, PagePostRecord, PageRecord, PageRole, TeamMemberRecord } from '../model.js';
import type { PagePostRepository, PageRepository, Paged } from '../ports.js';

function pageOf<T>(all: T[], page: PageRequest): Paged<T> {
  return { items: all.slice(offsetOf(page), offsetOf(page) + page.perPage).map((x) => ({ ...x })), total: all.length };
}

export class InMemoryPageRepository implements PageRepository, Snapshottable {
  readonly rows: PageRecord[] = [];
  readonly members: TeamMemberRecord[] = [];
  readonly follows: PageFollowRecord[] = [];
  private nextId = 1;

  snapshot() {
    const restore = captureState(this.rows, this.members, this.follows);
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }

  async lock(_id: number) {}

  async create(page: PageFields & { created_by: number; created_at: Timestamp }) {
    const row: PageRecord = { ...page, id: this.nextId++, followers_count: 0, updated_at: null };
    this.rows.push(row);
    this.members.push({ page_id: row.id, user_id: page.created_by, role: 'admin', created_at: page.created_at });
    return { ...row };
  }

  async findById(id: number) {
    const row = this.rows.find((p) => p.id === id);
    return row ? { ...row } : null;
  }

  async findByIds(ids: number[]) {
    return this.rows.filter((p) => ids.includes(p.id)).map((p) => ({ ...p }));
  }

  async update(id: number, patch: Partial<PageFields>, at: Timestamp) {
    const row = this.rows.find((p) => p.id === id);
    if (row) Object.assign(row, patch, { updated_at: at });
  }

  async managedBy(userId: number, page: PageRequest) {
    const ids = new Set(this.members.filter((m) => m.user_id === userId).map((m) => m.page_id));
    return pageOf(
      this.rows.filter((p) => ids.has(p.id)).sort((a, b) => b.id - a.id),
      page,
    );
  }

  async followedBy(userId: number, page: PageRequest) {
    const mine = this.follows
      .filter((f) => f.user_id === userId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.page_id - a.page_id);
    return pageOf(mine.map((f) => this.rows.find((p) => p.id === f.page_id)!).filter(Boolean), page);
  }

  async discover(userId: number, q: string | null, page: PageRequest) {
    const excluded = new Set([
      ...this.members.filter((m) => m.user_id === userId).map((m) => m.page_id),
      ...this.follows.filter((f) => f.user_id === userId).map((f) => f.page_id),
    ]);
    const needle = q?.toLowerCase() ?? null;
    const found = this.rows
      .filter((p) => p.privacy === 'public' && !excluded.has(p.id) && (!needle || p.name.toLowerCase().includes(needle)))
      .sort((a, b) => b.followers_count - a.followers_count || b.id - a.id);
    return pageOf(found, page);
  }

  async rolesOf(userId: number, pageIds: number[]) {
    return new Map(
      this.members.filter((m) => m.user_id === userId && pageIds.includes(m.page_id)).map((m) => [m.page_id, m.role] as const),
    );
  }

  async followsOf(userId: number, pageIds: number[]) {
    return new Set(this.follows.filter((f) => f.user_id === userId && pageIds.includes(f.page_id)).map((f) => f.page_id));
  }

  async follow(pageId: number, userId: number, at: Timestamp) {
    const page = this.rows.find((p) => p.id === pageId);
    if (!page || this.follows.some((f) => f.page_id === pageId && f.user_id === userId)) return false;
    this.follows.push({ page_id: pageId, user_id: userId, created_at: at });
    page.followers_count++;
    return true;
  }

  async unfollow(pageId: number, userId: number) {
    const i = this.follows.findIndex((f) => f.page_id === pageId && f.user_id === userId);
    if (i < 0) return false;
    this.follows.splice(i, 1);
    const page = this.rows.find((p) => p.id === pageId);
    if (page) page.followers_count--;
    return true;
  }

  async followers(pageId: number, page: PageRequest) {
    return pageOf(
      this.follows.filter((f) => f.page_id === pageId).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.user_id - a.user_id),
      page,
    );
  }

  async team(pageId: number, page: PageRequest) {
    const rank = (r: PageRole) => (r === 'admin' ? 0 : 1);
    return pageOf(
      this.members
        .filter((m) => m.page_id === pageId)
        .sort((a, b) => rank(a.role) - rank(b.role) || a.created_at.localeCompare(b.created_at) || a.user_id - b.user_id),
      page,
    );
  }

  async setRole(pageId: number, userId: number, role: PageRole, at: Timestamp) {
    const found = this.members.find((m) => m.page_id === pageId && m.user_id === userId);
    if (!found) {
      this.members.push({ page_id: pageId, user_id: userId, role, created_at: at });
      return 'added' as const;
    }
    if (found.role === role) return 'unchanged' as const;
    found.role = role;
    return 'changed' as const;
  }

  async removeMember(pageId: number, userId: number) {
    const i = this.members.findIndex((m) => m.page_id === pageId && m.user_id === userId);
    if (i < 0) return false;
    this.members.splice(i, 1);
    return true;
  }

  async countAdmins(pageId: number) {
    return this.members.filter((m) => m.page_id === pageId && m.role === 'admin').length;
  }
}

export class InMemoryPagePostRepository implements PagePostRepository, Snapshottable {
  readonly rows: PagePostRecord[] = [];
  readonly reactions: { post_id: number; user_id: number; reaction_type: ReactionType; created_at: Timestamp }[] = [];
  readonly commentRows: PageCommentRecord[] = [];
  readonly commentReactionRows: { comment_id: number; user_id: number; reaction_type: string; created_at: Timestamp }[] = [];
  private nextId = 1;
  private nextCommentId = 1;

  snapshot() {
    const restore = captureState(this.rows, this.reactions, this.commentRows, this.commentReactionRows);
    const [nextId, nextCommentId] = [this.nextId, this.nextCommentId];
    return () => {
      restore();
      [this.nextId, this.nextCommentId] = [nextId, nextCommentId];
    };
  }

  async lock(_postId: number) {}

  async create(post: Omit<PagePostRecord, 'id' | 'like_count' | 'comment_count' | 'updated_at'>) {
    const row: PagePostRecord = { ...post, id: this.nextId++, like_count: 0, comment_count: 0, updated_at: null };
    this.rows.push(row);
    return { ...row };
  }

  async findById(id: number) {
    const row = this.rows.find((p) => p.id === id);
    return row ? { ...row } : null;
  }

  async update(id: number, content: string, at: Timestamp) {
    const row = this.rows.find((p) => p.id === id);
    if (row) Object.assign(row, { content, updated_at: at });
  }

  async delete(id: number) {
    const comments = new Set(this.commentRows.filter((c) => c.post_id === id).map((c) => c.id));
    remove(this.commentReactionRows, (r) => comments.has(r.comment_id));
    remove(this.commentRows, (c) => c.post_id === id);
    remove(this.reactions, (r) => r.post_id === id);
    remove(this.rows, (p) => p.id === id);
  }

  async list(pageId: number, page: PageRequest) {
    return pageOf(
      this.rows.filter((p) => p.page_id === pageId).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id),
      page,
    );
  }

  async reactionsOf(userId: number, postIds: number[]) {
    return new Map(
      this.reactions.filter((r) => r.user_id === userId && postIds.includes(r.post_id)).map((r) => [r.post_id, r.reaction_type] as const),
    );
  }

  async setReaction(postId: number, userId: number, type: ReactionType | null, at: Timestamp) {
    const post = this.rows.find((p) => p.id === postId);
    if (!post) return;
    const i = this.reactions.findIndex((r) => r.post_id === postId && r.user_id === userId);
    if (type === null) {
      if (i >= 0) {
        this.reactions.splice(i, 1);
        post.like_count--;
      }
    } else if (i >= 0) {
      this.reactions[i].reaction_type = type;
    } else {
      this.reactions.push({ post_id: postId, user_id: userId, reaction_type: type, created_at: at });
      post.like_count++;
    }
  }

  async createComment(c: { post_id: number; user_id: number; content: string; created_at: Timestamp }) {
    const row: PageCommentRecord = { ...c, id: this.nextCommentId++, reactions_count: 0, updated_at: null };
    this.commentRows.push(row);
    const post = this.rows.find((p) => p.id === c.post_id);
    if (post) post.comment_count++;
    return { ...row };
  }

  async findComment(id: number) {
    const row = this.commentRows.find((c) => c.id === id);
    return row ? { ...row } : null;
  }

  async updateComment(id: number, content: string, at: Timestamp) {
    const row = this.commentRows.find((c) => c.id === id);
    if (row) Object.assign(row, { content, updated_at: at });
  }

  async deleteComment(id: number) {
    const row = this.commentRows.find((c) => c.id === id);
    if (!row) return false;
    remove(this.commentReactionRows, (r) => r.comment_id === id);
    remove(this.commentRows, (c) => c.id === id);
    const post = this.rows.find((p) => p.id === row.post_id);
    if (post) post.comment_count--;
    return true;
  }

  async comments(postId: number, page: PageRequest) {
    return pageOf(
      this.commentRows.filter((c) => c.post_id === postId).sort((a, b) => a.id - b.id),
      page,
    );
  }

  async commentsReactedBy(userId: number, commentIds: number[]) {
    return new Set(
      this.commentReactionRows.filter((r) => r.user_id === userId && commentIds.includes(r.comment_id)).map((r) => r.comment_id),
    );
  }

  async lockComment(_commentId: number) {}

  async adjustCommentReactions(commentId: number, delta: 1 | -1) {
    const comment = this.commentRows.find((c) => c.id === commentId);
    if (comment) comment.reactions_count += delta;
  }

  /** Stands for content's comment_reactions rows of type `page` (the SQL adapter reads that table). */
  addCommentReaction(commentId: number, userId: number, at: Timestamp) {
    this.commentReactionRows.push({ comment_id: commentId, user_id: userId, reaction_type: 'like', created_at: at });
  }
}

function remove<T>(rows: T[], pred: (r: T) => boolean) {
  for (let i = rows.length - 1; i >= 0; i--) if (pred(rows[i])) rows.splice(i, 1);
}
