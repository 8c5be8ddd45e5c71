import type { CommentRecord, CommentType, FeedEntry, NewPost, PostRecord, PostView, ReactionType, StoryRecord } from '../model.js';
import type { CommentRepository, PostEngagementRepository, PostRepository, StoryRepository } from '../ports.js';
import type { NotificationInbox } from '../../notifications/inbox.js';
import { GROUP_MEMBERSHIP_NOTIFICATIONS } from '../../groups/visibility.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import type { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import type { InMemoryFollowRepository } from '../../social/testing/in-memory-social.js';
import type { InMemoryNotificationRepository } from '../../notifications/testing/in-memory-notifications.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import { InMemoryThreadedCommentRepository } from '../../shared/testing/in-memory-comments.js';
import { InMemoryPostReactions, putReactionRow } from '../../shared/testing/in-memory-reactions.js';
import { canSeePost, type Viewer } from '../visibility.js';

interface WallRow {
  id: number;
  user_id: number;
  /** Absent for a wall post, as in FeedEntry; a share of a group's or page's post names its kind. */
  post_type?: 'group' | 'page';
  post_id: number;
  is_share: boolean;
  created_at: Timestamp;
}

const newestFirst = (a: { created_at: string; id: number }, b: { created_at: string; id: number }) =>
  a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1;

function window<T>(rows: T[], page: PageRequest): T[] {
  return rows.slice(offsetOf(page), offsetOf(page) + page.perPage + 1);
}

/** Every content table in memory, shared by the fakes below as the SQL adapters share a database. */
export class InMemoryContentStore implements Snapshottable {
  readonly posts = new Map<number, PostRecord>();
  readonly wall: WallRow[] = [];
  readonly reactions = new Map<string, { post_id: number; user_id: number; reaction_type: ReactionType; created_at: Timestamp }>();
  readonly shares = new Set<string>();
  readonly bookmarks = new Map<string, { user_id: number; post_id: number; created_at: Timestamp }>();
  readonly comments = new Map<number, CommentRecord>();
  readonly commentReactions = new Map<
    string,
    { comment_type: CommentType; comment_id: number; user_id: number; reaction_type: string; created_at: Timestamp }
  >();
  readonly stories = new Map<number, StoryRecord>();
  nextId = 1;
  constructor(
    readonly users: InMemoryUserRepository,
    readonly follows: InMemoryFollowRepository,
  ) {}

  /** The content tables only: the users and follows it reads are participants of their own. */
  snapshot() {
    const restore = captureState(
      this.posts,
      this.wall,
      this.reactions,
      this.shares,
      this.bookmarks,
      this.comments,
      this.commentReactions,
      this.stories,
    );
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }

  /** Posts a pending report names (the moderation context's reports, as far as visibility reads them). */
  readonly reported = new Set<number>();

  following(viewerId: number): Set<number> {
    return new Set(this.follows.edges.filter((e) => e.follower_id === viewerId).map((e) => e.followee_id));
  }

  /**
   * The group and page posts' rules, as the surface engagement fake knows them (it sets this): walls
   * hold shares of such posts (docs/decisions/0230).
   */
  surfaceVisibility?: (type: 'group' | 'page', postId: number, userId: number) => boolean;

  /** Whether a wall entry's post is one the viewer may see, by its surface's rule. */
  entryVisibleTo(row: Pick<WallRow, 'post_type' | 'post_id'>, viewer: Viewer): boolean {
    if (!row.post_type) return this.visibleTo(row.post_id, viewer);
    return this.surfaceVisibility?.(row.post_type, row.post_id, viewer.userId) ?? false;
  }

  /** The domain's rule itself, so the fake lists filter exactly as `canSeePost` decides. */
  visibleTo(postId: number, viewer: Viewer): boolean {
    const post = this.posts.get(postId);
    const author = post && this.users.rows.get(post.user_id);
    if (!post || !author) return false;
    return canSeePost(
      viewer,
      { kind: 'account', authorId: author.id, isPrivate: author.is_private },
      { follows: this.following(viewer.userId).has(author.id), reported: this.reported.has(postId) },
    );
  }
}

export class InMemoryPostRepository implements PostRepository {
  constructor(private readonly s: InMemoryContentStore) {}

  async underReport(id: number) {
    return this.s.reported.has(id);
  }

  async create(post: NewPost) {
    const record: PostRecord = { ...post, id: this.s.nextId++, likes_count: 0, comments_count: 0, shares_count: 0, updated_at: null };
    this.s.posts.set(record.id, record);
    const wallEntryId = this.s.nextId++;
    this.s.wall.push({ id: wallEntryId, user_id: post.user_id, post_id: record.id, is_share: false, created_at: post.created_at });
    return { ...record, wall_entry_id: wallEntryId };
  }
  async findById(id: number) {
    const p = this.s.posts.get(id);
    return p ? { ...p } : null;
  }
  async update(id: number, patch: { content: string; tags?: string[]; updated_at: Timestamp }) {
    const p = this.s.posts.get(id);
    if (p) Object.assign(p, patch);
  }
  async delete(id: number) {
    if (!this.s.posts.delete(id)) return false;
    this.s.wall.splice(0, this.s.wall.length, ...this.s.wall.filter((w) => w.post_type || w.post_id !== id));
    for (const [k, r] of this.s.reactions) if (r.post_id === id) this.s.reactions.delete(k);
    for (const k of this.s.shares) if (k.startsWith(`${id}:`)) this.s.shares.delete(k);
    for (const [k, b] of this.s.bookmarks) if (b.post_id === id) this.s.bookmarks.delete(k);
    for (const [k, c] of this.s.comments) if (c.post_id === id) this.s.comments.delete(k);
    return true;
  }
  private entries(rows: WallRow[], viewer: Viewer, page: PageRequest): FeedEntry[] {
    return window(rows.filter((w) => this.s.entryVisibleTo(w, viewer)).sort(newestFirst), page).map((w) => ({
      ...(w.post_type ? { post_type: w.post_type } : {}),
      post_id: w.post_id,
      shared_by: w.is_share ? w.user_id : null,
      feed_date: w.created_at,
    }));
  }
  async feed(viewer: Viewer, page: PageRequest) {
    const authors = this.s.following(viewer.userId).add(viewer.userId);
    return this.entries(
      this.s.wall.filter((w) => authors.has(w.user_id)),
      viewer,
      page,
    );
  }
  async global(viewer: Viewer, page: PageRequest) {
    const posts = [...this.s.posts.values()]
      .filter((p) => (p.user_id === viewer.userId || !this.s.users.rows.get(p.user_id)?.is_private) && this.s.visibleTo(p.id, viewer))
      .sort(newestFirst);
    return window(posts, page).map((p) => ({ post_id: p.id, shared_by: null, feed_date: p.created_at }));
  }
  async wall(userId: number, viewer: Viewer, page: PageRequest) {
    return this.entries(
      this.s.wall.filter((w) => w.user_id === userId),
      viewer,
      page,
    );
  }
  async bookmarked(viewer: Viewer, page: PageRequest) {
    const rows = [...this.s.bookmarks.values()]
      .filter((b) => b.user_id === viewer.userId && this.s.visibleTo(b.post_id, viewer))
      .sort((a, b) => (a.created_at === b.created_at ? b.post_id - a.post_id : a.created_at < b.created_at ? 1 : -1));
    return window(rows, page).map((b) => ({ post_id: b.post_id, shared_by: null, feed_date: b.created_at }));
  }
  async addSurfaceShare(type: 'group' | 'page', postId: number, userId: number, at: Timestamp) {
    const id = this.s.nextId++;
    this.s.wall.push({ id, user_id: userId, post_type: type, post_id: postId, is_share: true, created_at: at });
    return id;
  }
  async views(entries: FeedEntry[], viewerId: number): Promise<PostView[]> {
    const authors = await this.authors([...new Set(entries.flatMap((e) => [this.s.posts.get(e.post_id)?.user_id ?? 0, e.shared_by ?? 0]))]);
    return entries.flatMap((e) => {
      const post = this.s.posts.get(e.post_id);
      const author = post && authors.get(post.user_id);
      if (!post || !author) return [];
      const reaction = this.s.reactions.get(`${post.id}:${viewerId}`);
      return [
        {
          post: { ...post },
          author,
          is_liked: reaction !== undefined,
          reaction_type: reaction?.reaction_type ?? null,
          is_bookmarked: this.s.bookmarks.has(`${viewerId}:${post.id}`),
          feed_date: e.feed_date,
          shared_by_username: e.shared_by !== null ? (authors.get(e.shared_by)?.username ?? null) : null,
        },
      ];
    });
  }
  async authors(ids: number[]) {
    const out = new Map<
      number,
      {
        id: number;
        username: string;
        avatar: string | null;
        militant_badge: string | null;
        is_technician: boolean;
        is_admin: boolean;
        is_moderator: boolean;
        is_private: boolean;
      }
    >();
    for (const id of ids) {
      const u = this.s.users.rows.get(id);
      if (u)
        out.set(id, {
          id: u.id,
          username: u.username,
          avatar: u.avatar,
          militant_badge: u.militant_badge,
          is_technician: u.is_technician,
          is_admin: u.is_admin,
          is_moderator: u.is_moderator,
          is_private: u.is_private,
        });
    }
    return out;
  }
  async countByUser(userId: number) {
    return [...this.s.posts.values()].filter((p) => p.user_id === userId).length;
  }
}

export class InMemoryPostEngagementRepository implements PostEngagementRepository {
  private readonly reactions: InMemoryPostReactions<ReactionType>;

  constructor(private readonly s: InMemoryContentStore) {
    this.reactions = new InMemoryPostReactions(s.reactions, s.posts);
  }

  async react(postId: number, userId: number, type: ReactionType, at: Timestamp) {
    return this.reactions.react(postId, userId, type, at);
  }
  async unreact(postId: number, userId: number) {
    return this.reactions.unreact(postId, userId);
  }
  async reactionCounts(postId: number) {
    const out: Record<string, number> = {};
    for (const r of this.s.reactions.values()) if (r.post_id === postId) out[r.reaction_type] = (out[r.reaction_type] ?? 0) + 1;
    return out;
  }
  async reactionsBy(userId: number, postIds: number[]) {
    const out = new Map<number, ReactionType>();
    for (const id of postIds) {
      const r = this.s.reactions.get(`${id}:${userId}`);
      if (r) out.set(id, r.reaction_type);
    }
    return out;
  }
  async share(postId: number, userId: number, at: Timestamp) {
    const key = `${postId}:${userId}`;
    if (this.s.shares.has(key)) return null;
    this.s.shares.add(key);
    const entryId = this.s.nextId++;
    this.s.wall.push({ id: entryId, user_id: userId, post_id: postId, is_share: true, created_at: at });
    const p = this.s.posts.get(postId);
    if (p) p.shares_count += 1;
    return entryId;
  }
  async bookmark(postId: number, userId: number, at: Timestamp) {
    const key = `${userId}:${postId}`;
    if (this.s.bookmarks.has(key)) return false;
    this.s.bookmarks.set(key, { user_id: userId, post_id: postId, created_at: at });
    return true;
  }
  async unbookmark(postId: number, userId: number) {
    return this.s.bookmarks.delete(`${userId}:${postId}`);
  }
}

export class InMemoryCommentRepository extends InMemoryThreadedCommentRepository<CommentRecord> implements CommentRepository {
  constructor(private readonly s: InMemoryContentStore) {
    super(s.comments, s.posts, (ids) => {
      for (const [k, r] of s.commentReactions) if (r.comment_type === 'post' && ids.includes(r.comment_id)) s.commentReactions.delete(k);
    });
  }

  /** One process, one thread of execution: nothing to wait for. */
  async lockThread(_postId: number) {}

  async create(c: { post_id: number; user_id: number; parent_id: number | null; content: string; created_at: Timestamp }) {
    return this.add({ ...c, id: this.s.nextId++, reactions_count: 0, updated_at: null });
  }
  async reactedBy(type: CommentType, commentIds: number[], userId: number) {
    return new Set(commentIds.filter((id) => this.s.commentReactions.has(`${type}:${id}:${userId}`)));
  }
  async react(type: CommentType, commentId: number, userId: number, reaction: ReactionType, at: Timestamp) {
    const change = putReactionRow(this.s.commentReactions, `${type}:${commentId}:${userId}`, {
      comment_type: type,
      comment_id: commentId,
      user_id: userId,
      reaction_type: reaction,
      created_at: at,
    });
    const c = type === 'post' ? this.s.comments.get(commentId) : undefined;
    if (change === 'added' && c) c.reactions_count += 1;
    return change;
  }
  async unreact(type: CommentType, commentId: number, userId: number) {
    if (!this.s.commentReactions.delete(`${type}:${commentId}:${userId}`)) return false;
    const c = type === 'post' ? this.s.comments.get(commentId) : undefined;
    if (c) c.reactions_count -= 1;
    return true;
  }
  async reactions(type: CommentType, commentId: number) {
    return [...this.s.commentReactions.values()]
      .filter((r) => r.comment_type === type && r.comment_id === commentId)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
      .map((r) => ({ user_id: r.user_id, reaction_type: r.reaction_type, created_at: r.created_at }));
  }
  async countReactions(type: CommentType, commentIds: number[]) {
    const ids = new Set(commentIds);
    const counts = new Map<number, number>();
    for (const r of this.s.commentReactions.values()) {
      if (r.comment_type === type && ids.has(r.comment_id)) counts.set(r.comment_id, (counts.get(r.comment_id) ?? 0) + 1);
    }
    return counts;
  }
}

export class InMemoryStoryRepository implements StoryRepository {
  constructor(private readonly s: InMemoryContentStore) {}

  async create(story: Omit<StoryRecord, 'id'>) {
    const record = { ...story, id: this.s.nextId++ };
    this.s.stories.set(record.id, record);
    return { ...record };
  }
  async findById(id: number) {
    const st = this.s.stories.get(id);
    return st ? { ...st } : null;
  }
  async delete(id: number) {
    this.s.stories.delete(id);
  }
  async activeOf(userIds: number[], now: Timestamp) {
    return [...this.s.stories.values()]
      .filter((st) => userIds.includes(st.user_id) && st.expires_at > now)
      .sort(newestFirst)
      .map((st) => ({ ...st }));
  }
  async activeForViewer(viewerId: number, now: Timestamp) {
    return this.activeOf([...this.s.following(viewerId).add(viewerId)], now);
  }
  async purgeExpired(now: Timestamp) {
    let n = 0;
    for (const [id, st] of this.s.stories) {
      if (st.expires_at <= now) {
        this.s.stories.delete(id);
        n++;
      }
    }
    return n;
  }
}

export class InMemoryNotificationInbox implements NotificationInbox {
  /** The content store tells which linked posts the reader may see, as the SQL inbox joins posts. */
  constructor(
    private readonly repo: InMemoryNotificationRepository,
    private readonly content: InMemoryContentStore,
    /**
     * Whether the reader sees the content of a community group (`canSeeGroupContent`), as the SQL inbox
     * asks the group tables; without it, no notification is hidden for its group.
     */
    private readonly groupContentVisible: (groupId: number, reader: Viewer) => boolean = () => true,
    /** The name of a community group, as the SQL inbox reads it; without it, none. */
    private readonly groupName: (groupId: number) => string | null = () => null,
  ) {}

  private of(userId: number) {
    return this.repo.rows.filter((n) => n.user_id === userId);
  }
  /** The reader's notifications, without those linking a post, or a group's content, the reader may not see. */
  private readable(reader: Viewer) {
    return this.of(reader.userId).filter(
      (n) =>
        (n.post_id === null || this.content.visibleTo(n.post_id, reader)) &&
        (n.group_id === null ||
          (GROUP_MEMBERSHIP_NOTIFICATIONS as readonly string[]).includes(n.type) ||
          this.groupContentVisible(n.group_id, reader)),
    );
  }
  async list(reader: Viewer, page: PageRequest, unreadOnly: boolean) {
    const rows = this.readable(reader)
      .filter((n) => !unreadOnly || !n.is_read)
      .sort((a, b) => b.id - a.id);
    return window(rows, page).map((n) => ({ ...n, group_name: n.group_id === null ? null : this.groupName(n.group_id) }));
  }
  async countUnread(reader: Viewer) {
    return this.readable(reader).filter((n) => !n.is_read).length;
  }
  async markRead(userId: number, id: number) {
    const n = this.of(userId).find((x) => x.id === id);
    if (!n) return false;
    n.is_read = true;
    return true;
  }
  async markAllRead(userId: number) {
    const unread = this.of(userId).filter((n) => !n.is_read);
    unread.forEach((n) => (n.is_read = true));
    return unread.length;
  }
}
