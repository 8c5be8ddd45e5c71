import type { FeedEntry, PostView } from '../../content/model.js';
import type { SurfaceShareLine } from '../../content/wall-items.js';
import { FANOUT_LEASE_SECONDS, type HomeTimelineRepository, type TimelinePage, type WallEntry } from '../home-timeline.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { Viewer } from '../../content/visibility.js';
import { type InMemoryContentStore, InMemoryPostRepository } from '../../content/testing/in-memory-content.js';

interface Row {
  user_id: number;
  entry_id: number;
  post_type?: 'group' | 'page';
  post_id: number;
  owner_id: number;
  is_share: boolean;
  created_at: Timestamp;
}

interface Key {
  at: Timestamp;
  id: number;
}

const newer = (a: Key, b: Key) => a.at > b.at || (a.at === b.at && a.id > b.id);
const keyOf = (r: { created_at: Timestamp; id?: number; entry_id?: number }): Key => ({ at: r.created_at, id: r.entry_id ?? r.id ?? 0 });
const newestFirst = (a: Row, b: Row) => (newer(keyOf(a), keyOf(b)) ? -1 : newer(keyOf(b), keyOf(a)) ? 1 : 0);

/**
 * The home timeline over the in-memory content store, with the SQL adapter's semantics: timelines
 * exist once built, fan-out reaches built ones only, a horizon bounds what is exact, and an entry goes
 * when its wall entry goes (the SQL foreign key's cascade: filtered at every read here).
 */
export class InMemoryHomeTimelineRepository implements HomeTimelineRepository, Snapshottable {
  readonly rows: Row[] = [];
  readonly states = new Map<number, { ready: boolean; horizon: Key | null }>();
  readonly queue: number[] = [];
  /** Claimed queue entries and the end of their lease (FANOUT_LEASE_SECONDS from the claim). */
  readonly leases = new Map<number, number>();

  /** Reads the page's posts as the SQL adapter does in the page's own query. */
  private readonly posts: InMemoryPostRepository;

  constructor(
    private readonly s: InMemoryContentStore,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.posts = new InMemoryPostRepository(s);
  }

  snapshot() {
    return captureState(this.rows, this.states, this.queue, this.leases);
  }

  async page(viewer: Viewer, page: PageRequest): Promise<TimelinePage> {
    const state = this.states.get(viewer.userId);
    if (!state?.ready) return { kind: 'unbuilt' };
    const horizon = state.horizon;
    const rows = this.live(viewer.userId)
      .filter((r) => !horizon || !newer(horizon, keyOf(r)))
      .filter((r) => this.s.entryVisibleTo(r, viewer))
      .sort(newestFirst)
      .slice(offsetOf(page), offsetOf(page) + page.perPage + 1);
    if (rows.length <= page.perPage && horizon) return { kind: 'beyond' };
    // Wall posts read as the SQL page reads them; shares of group and page posts as lines (docs/decisions/0230).
    const entries: FeedEntry[] = rows.map((r) => ({
      post_id: r.post_id,
      shared_by: r.is_share ? r.owner_id : null,
      feed_date: r.created_at,
    }));
    const sharers = await this.posts.authors(rows.filter((r) => r.post_type).map((r) => r.owner_id));
    const out: (PostView | SurfaceShareLine)[] = [];
    for (const [i, r] of rows.entries()) {
      if (r.post_type) {
        out.push({
          post_type: r.post_type,
          post_id: r.post_id,
          shared_by_username: sharers.get(r.owner_id)?.username ?? null,
          feed_date: r.created_at,
        });
      } else out.push(...(await this.posts.views([entries[i]], viewer.userId)));
    }
    return { kind: 'entries', entries: out };
  }

  async build(userId: number, length: number): Promise<void> {
    if (this.states.get(userId)?.ready) return;
    if (!this.states.has(userId)) this.states.set(userId, { ready: false, horizon: null });
    const walls = new Set([userId, ...this.s.following(userId)]);
    this.insert(userId, this.wallRows((w) => walls.has(w.user_id)).slice(0, length));
    this.states.set(userId, { ready: true, horizon: this.nth(userId, length) });
  }

  async fanOut(entry: WallEntry, inRequestMax: number): Promise<'done' | 'queued'> {
    const row = {
      id: entry.id,
      user_id: entry.ownerId,
      ...(entry.postType !== 'post' ? { post_type: entry.postType } : {}),
      post_id: entry.postId,
      is_share: entry.isShare,
      created_at: entry.at,
    };
    // As the SQL statement's limit: the owner's and the followers' built timelines, `inRequestMax + 1` at most.
    const readers = [entry.ownerId, ...this.followersOf(entry.ownerId)].filter((u) => this.states.has(u)).slice(0, inRequestMax + 1);
    for (const reader of readers) this.insert(reader, [row]);
    if (readers.length <= inRequestMax) return 'done';
    if (!this.queue.includes(entry.id)) this.queue.push(entry.id);
    return 'queued';
  }

  async fanOutQueued(limit: number): Promise<number> {
    let done = 0;
    for (const id of await this.claimQueued(limit)) if (await this.fanOutEntry(id)) done += 1;
    return done;
  }

  async claimQueued(limit: number): Promise<number[]> {
    const now = this.now().getTime();
    const due = this.queue.filter((id) => (this.leases.get(id) ?? 0) <= now).slice(0, limit);
    for (const id of due) this.leases.set(id, now + FANOUT_LEASE_SECONDS * 1000);
    return due;
  }

  async fanOutEntry(entryId: number): Promise<boolean> {
    const at = this.queue.indexOf(entryId);
    if (at < 0) return false;
    this.toReaders(entryId);
    this.queue.splice(at, 1);
    this.leases.delete(entryId);
    return true;
  }

  async backfill(followerId: number, followeeId: number, length: number): Promise<void> {
    const state = this.states.get(followerId);
    if (!state) return;
    const horizon = state.horizon;
    const walls = this.wallRows((w) => w.user_id === followeeId && (!horizon || !newer(horizon, keyOf(w))));
    this.insert(followerId, walls.slice(0, length));
    const [nth, beyond] = walls.slice(length - 1, length + 1);
    if (nth && beyond && (!horizon || newer(keyOf(nth), horizon))) state.horizon = keyOf(nth);
  }

  async removeOwner(followerId: number, ownerId: number): Promise<void> {
    this.rows.splice(0, this.rows.length, ...this.rows.filter((r) => !(r.user_id === followerId && r.owner_id === ownerId)));
  }

  async trim(length: number, batch: number): Promise<number> {
    let cut = 0;
    for (const [userId, state] of [...this.states].filter(([, s]) => s.ready).slice(0, batch)) {
      const last = this.nth(userId, length);
      if (!last) continue;
      const before = this.rows.length;
      this.rows.splice(0, this.rows.length, ...this.rows.filter((r) => r.user_id !== userId || !newer(last, keyOf(r))));
      if (this.rows.length === before) continue;
      cut += 1;
      if (!state.horizon || newer(last, state.horizon)) state.horizon = last;
    }
    return cut;
  }

  /** The user's rows whose wall entry still exists (the cascade of the SQL foreign key). */
  private live(userId: number): Row[] {
    const entries = new Set(this.s.wall.map((w) => w.id));
    return this.rows.filter((r) => r.user_id === userId && entries.has(r.entry_id));
  }

  private wallRows(which: (w: InMemoryContentStore['wall'][number]) => boolean) {
    return this.s.wall.filter(which).sort((a, b) => (newer(keyOf(a), keyOf(b)) ? -1 : newer(keyOf(b), keyOf(a)) ? 1 : 0));
  }

  private followersOf(userId: number): number[] {
    return this.s.follows.edges.filter((e) => e.followee_id === userId).map((e) => e.follower_id);
  }

  private toReaders(entryId: number): void {
    const wall = this.s.wall.find((w) => w.id === entryId);
    if (!wall) return;
    for (const reader of [wall.user_id, ...this.followersOf(wall.user_id)]) if (this.states.has(reader)) this.insert(reader, [wall]);
  }

  private insert(userId: number, walls: InMemoryContentStore['wall']): void {
    for (const w of walls) {
      if (this.rows.some((r) => r.user_id === userId && r.entry_id === w.id)) continue;
      this.rows.push({
        user_id: userId,
        entry_id: w.id,
        ...(w.post_type ? { post_type: w.post_type } : {}),
        post_id: w.post_id,
        owner_id: w.user_id,
        is_share: w.is_share,
        created_at: w.created_at,
      });
    }
  }

  private nth(userId: number, n: number): Key | null {
    const row = this.live(userId).sort(newestFirst)[n - 1];
    return row ? keyOf(row) : null;
  }
}
