import { addSeconds, offsetOf, type PageRequest, toTimestamp } from '@plaza/domain';
import type { PostView, SurfaceShareLine, Viewer } from '@plaza/domain/content';
import { FANOUT_LEASE_SECONDS, type HomeTimelineRepository, type TimelinePage, type WallEntry } from '@plaza/domain/timeline';
import { type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { entryVisibleTo } from '../content/surface-post-visibility.js';
import { toPostView, withPostView } from '../content/post-view-columns.js';
import { insertIfAbsent, type SqlDialect } from '../dialect.js';
import { prepared, preparedStatement } from '../prepared.js';
import type { Database } from '../database.js';
import type { HomeTimelineStateTable } from './schema.js';

/** Followee ids per statement when a timeline is built: keeps `in (…)` lists within every driver's limits. */
const BUILD_CHUNK = 2000;

interface Key {
  at: string;
  id: number;
}

/** What the page query reads besides the post view: the reader's state and the entry. */
interface PageRow {
  ready: number | boolean;
  horizon_at: string | null;
  horizon_entry: number | null;
  entry_id: number | null;
  entry_created_at: string | null;
  entry_is_share: number | boolean | null;
  entry_post_type: string | null;
  entry_post_id: number | null;
  sharer_username: string | null;
}

function after(a: Key, b: Key): boolean {
  return a.at > b.at || (a.at === b.at && a.id > b.id);
}

/** A select over wall entries `w`, whose columns `entryColumns` writes for a reader. */
type WallSelect = ExpressionBuilder<Database & { w: Database['wall_entries'] }, 'w'>;

/**
 * The home timeline on MySQL/MariaDB and SQLite (docs/decisions/0071). Every write is one statement
 * of the `insert … select` kind, idempotent (`insert ignore` / `insert or ignore` on the primary key
 * (user_id, entry_id)): a fan-out, a backfill and a build that overlap write each entry once.
 */
export class SqlHomeTimelineRepository implements HomeTimelineRepository {
  /** Where the trim job resumes: timelines are cut round-robin by user id. */
  private trimCursor = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async page(viewer: Viewer, page: PageRequest): Promise<TimelinePage> {
    // One query whatever the page: the reader's state (by primary key), the newest entries of its
    // range and their posts as the reader sees them. Pages are counted here rather than by OFFSET, so
    // that the state comes back even when no entry is left for the page (a timeline is at most
    // `length` entries long: this stays small).
    const skip = offsetOf(page);
    const rows = await this.pageQueries[viewer.moderator ? 1 : 0](this.db, viewer.userId, skip + page.perPage + 1);
    const state = rows[0];
    if (!state || !state.ready) return { kind: 'unbuilt' };
    // Entries at or above the horizon only: they are a prefix of the newest-first order, so keeping
    // them out of the newest `limit` equals asking the index for them.
    const horizon: Key | null = state.horizon_at === null ? null : { at: state.horizon_at, id: state.horizon_entry ?? 0 };
    const entries = rows
      .flatMap((r) =>
        r.entry_id === null || r.entry_created_at === null ? [] : [{ row: r, key: { at: r.entry_created_at, id: r.entry_id } }],
      )
      .filter((e) => !horizon || !after(horizon, e.key))
      .sort((a, b) => (after(a.key, b.key) ? -1 : after(b.key, a.key) ? 1 : 0))
      .slice(skip);
    // A short page is the end of the feed only when the timeline holds everything.
    if (entries.length <= page.perPage && horizon) return { kind: 'beyond' };
    const views = entries.flatMap(({ row, key }): (PostView | SurfaceShareLine)[] => {
      // A share of a group's or page's post: its post is read by the caller from its surface (docs/decisions/0230).
      if ((row.entry_post_type === 'group' || row.entry_post_type === 'page') && row.entry_post_id !== null) {
        return [{ post_type: row.entry_post_type, post_id: row.entry_post_id, shared_by_username: row.sharer_username, feed_date: key.at }];
      }
      const view = toPostView(row, { feed_date: key.at, shared_by_username: row.entry_is_share ? row.sharer_username : null });
      return view ? [view] : [];
    });
    return { kind: 'entries', entries: views };
  }

  /**
   * The reader's state, left-joined to the newest `limit` visible entries of its index (user_id,
   * created_at, entry_id), each through the one visibility rule (one range read backwards, stopped at
   * `limit`), then to each entry's post, author, sharer and the reader's reaction and bookmark by key.
   * A timeline without entries (a new account's) is the state row alone; no state row, no timeline
   * yet. Built once per kind of viewer (prepared.ts): this is the feed, the most requested list.
   */
  private pageQuery(moderator: boolean) {
    return prepared((userId: number, limit: number) =>
      withPostView<PageRow>(
        this.db
          .selectFrom('home_timeline_state as s')
          .leftJoin(
            (eb) =>
              eb
                .selectFrom('home_timeline as t')
                .select(['t.post_type', 't.post_id', 't.owner_id', 't.is_share', 't.created_at', 't.entry_id'])
                .where('t.user_id', '=', userId)
                .where((w) => entryVisibleTo({ userId, moderator }, w.ref('t.post_type'), w.ref('t.post_id')))
                .orderBy('t.created_at', 'desc')
                .orderBy('t.entry_id', 'desc')
                .limit(limit)
                .as('e'),
            (join) => join.onTrue(),
          )
          // Only a wall post's entry names a row of posts.
          .leftJoin('posts as p', (j) => j.onRef('p.id', '=', 'e.post_id').on('e.post_type', '=', 'post'))
          .leftJoin('users as sh', 'sh.id', 'e.owner_id')
          .select([
            's.ready',
            's.horizon_at',
            's.horizon_entry',
            'e.entry_id',
            'e.created_at as entry_created_at',
            'e.is_share as entry_is_share',
            'e.post_type as entry_post_type',
            'e.post_id as entry_post_id',
            'sh.username as sharer_username',
          ])
          .where('s.user_id', '=', userId),
        userId,
      ),
    );
  }

  private readonly pageQueries = [this.pageQuery(false), this.pageQuery(true)];

  async build(userId: number, length: number): Promise<void> {
    const existing = await this.state(userId);
    if (existing?.ready) return;
    // 1. Registered (committed on its own): every fan-out from now on writes to this timeline too.
    //    Entries of transactions still open are waited for by the fill's locking read on MySQL, and
    //    SQLite runs one writer at a time: no entry falls between the fan-out and the fill.
    if (!existing) await insertIfAbsent(this.db, 'home_timeline_state', { user_id: userId, ready: 0 });
    // 2. Filled with the newest `length` entries of each group of walls: together they hold the
    //    newest `length` of all, so the timeline is exact down to its `length`-th entry.
    const followees = (await this.db.selectFrom('follows').select('followee_id').where('follower_id', '=', userId).execute()).map(
      (r) => r.followee_id,
    );
    const walls = [userId, ...followees];
    for (let i = 0; i < walls.length; i += BUILD_CHUNK) {
      const ids = walls.slice(i, i + BUILD_CHUNK);
      await this.insertEntries(
        this.db
          .selectFrom('wall_entries as w')
          .select((eb) => this.entryColumns(eb, userId))
          .where('w.user_id', 'in', ids)
          .orderBy('w.created_at', 'desc')
          .orderBy('w.id', 'desc')
          .limit(length),
      );
    }
    // 3. Ready, with its horizon at its `length`-th entry when it has that many (walls may hold more).
    //    Only the first of concurrent builds marks it: a later one's horizon, read earlier, could be
    //    below one the trim has raised since, over entries it has already cut.
    const horizon = await this.nth(userId, length);
    await this.db
      .updateTable('home_timeline_state')
      .set({ ready: 1, horizon_at: horizon?.at ?? null, horizon_entry: horizon?.id ?? null })
      .where('user_id', '=', userId)
      .where('ready', '=', 0)
      .execute();
  }

  async fanOut(entry: WallEntry, inRequestMax: number): Promise<'done' | 'queued'> {
    // One statement whatever the audience: the entry is written as values (its writer gave its id and
    // date), so nothing reads `wall_entries`: an `insert … select` from it would take shared next-key
    // locks on its index, whose last gap every new post inserts into, and so make concurrent posts
    // wait for each other's commit. Its limit bounds the request's work; reaching it means there may be
    // more timelines to write, which the job does after the commit (idempotent: rows written here are
    // skipped). This unit of work has just written the entry, so no other writer can have put it in a
    // timeline yet: every row selected is a row inserted, and the count tells whether the limit was hit.
    const written = await this.fanOutNow(
      this.db,
      entry.id,
      entry.postType,
      entry.postId,
      entry.ownerId,
      entry.isShare ? 1 : 0,
      entry.at,
      inRequestMax + 1,
    );
    if (Number(written.numAffectedRows ?? 0) <= inRequestMax) return 'done';
    await insertIfAbsent(this.db, 'home_timeline_fanout', { entry_id: entry.id, queued_at: toTimestamp(this.now()) });
    return 'queued';
  }

  /** The timeline row's columns, but its reader's, of a wall entry given as values. */
  private entryValues(entryId: number, postType: string, postId: number, ownerId: number, isShare: number, at: string) {
    return [
      sql<number>`${entryId}`.as('entry_id'),
      sql<string>`${postType}`.as('post_type'),
      sql<number>`${postId}`.as('post_id'),
      sql<number>`${ownerId}`.as('owner_id'),
      sql<number>`${isShare}`.as('is_share'),
      sql<string>`${at}`.as('created_at'),
    ] as const;
  }

  /**
   * The owner's timeline and every follower's that exists, `limit` at most, in one statement run with
   * every new post and share (prepared.ts).
   */
  private readonly fanOutNow = preparedStatement(
    (entryId: number, postType: string, postId: number, ownerId: number, isShare: number, at: string, limit: number) =>
      this.insertEntriesQuery(
        this.db
          .selectFrom('home_timeline_state as s')
          .select(['s.user_id', ...this.entryValues(entryId, postType, postId, ownerId, isShare, at)])
          .where('s.user_id', '=', ownerId)
          .unionAll(
            this.db
              .selectFrom('follows as f')
              .innerJoin('home_timeline_state as s', 's.user_id', 'f.follower_id')
              .select(['f.follower_id as user_id', ...this.entryValues(entryId, postType, postId, ownerId, isShare, at)])
              .where('f.followee_id', '=', ownerId),
          )
          .limit(limit),
      ),
  );

  async fanOutQueued(limit: number): Promise<number> {
    // The same claim and per-entry write as the BullMQ lane's (docs/decisions/0215).
    let done = 0;
    for (const entryId of await this.claimQueued(limit)) if (await this.fanOutEntry(entryId)) done += 1;
    return done;
  }

  async claimQueued(limit: number): Promise<number[]> {
    const now = this.now();
    const at = toTimestamp(now);
    const until = toTimestamp(addSeconds(now, FANOUT_LEASE_SECONDS));
    const due = await this.db
      .selectFrom('home_timeline_fanout')
      .select(['entry_id', 'claimed_until'])
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
      .orderBy('queued_at')
      .orderBy('entry_id')
      .limit(limit)
      .execute();
    const claimed: number[] = [];
    for (const row of due) {
      // Taken only if nobody claimed it since it was read: one conditional write.
      const taken = await this.db
        .updateTable('home_timeline_fanout')
        .set({ claimed_until: until })
        .where('entry_id', '=', row.entry_id)
        .where((eb) => (row.claimed_until === null ? eb('claimed_until', 'is', null) : eb('claimed_until', '=', row.claimed_until)))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) claimed.push(row.entry_id);
    }
    return claimed;
  }

  async fanOutEntry(entryId: number): Promise<boolean> {
    // As every write here, through the ambient unit of work (this.db joins the transaction).
    return this.db.transaction().execute(async () => {
      // Locks the queue row on MySQL: a second delivery of the same entry waits, then finds it gone.
      let q = this.db.selectFrom('home_timeline_fanout').select('entry_id').where('entry_id', '=', entryId);
      if (this.dialect === 'mysql') q = q.forUpdate();
      if (!(await q.executeTakeFirst())) return false;
      await this.fanOutToReaders(entryId);
      await this.db.deleteFrom('home_timeline_fanout').where('entry_id', '=', entryId).execute();
      return true;
    });
  }

  async backfill(followerId: number, followeeId: number, length: number): Promise<void> {
    const state = await this.state(followerId, true);
    if (!state) return;
    const horizon: Key | null = state.horizon_at !== null ? { at: state.horizon_at, id: state.horizon_entry ?? 0 } : null;
    const newerThanHorizon = (q: ReturnType<typeof this.wallOf>) =>
      horizon
        ? q.where((eb) =>
            eb.or([eb('w.created_at', '>', horizon.at), eb.and([eb('w.created_at', '=', horizon.at), eb('w.id', '>=', horizon.id)])]),
          )
        : q;
    await this.insertEntries(
      newerThanHorizon(this.wallOf(followeeId))
        .select((eb) => this.entryColumns(eb, followerId))
        .orderBy('w.created_at', 'desc')
        .orderBy('w.id', 'desc')
        .limit(length),
    );
    // The followee's wall did not fit: the timeline is exact only down to its `length`-th entry.
    const [nth, beyond] = await newerThanHorizon(this.wallOf(followeeId))
      .select(['w.created_at', 'w.id'])
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id', 'desc')
      .limit(2)
      .offset(length - 1)
      .execute();
    if (nth && beyond) await this.raiseHorizon(followerId, horizon, { at: nth.created_at, id: nth.id });
  }

  async removeOwner(followerId: number, ownerId: number): Promise<void> {
    await this.db.deleteFrom('home_timeline').where('user_id', '=', followerId).where('owner_id', '=', ownerId).execute();
  }

  async trim(length: number, batch: number): Promise<number> {
    const users = await this.db
      .selectFrom('home_timeline_state')
      .select('user_id')
      .where('ready', '=', 1)
      .where('user_id', '>', this.trimCursor)
      .orderBy('user_id')
      .limit(batch)
      .execute();
    this.trimCursor = users.length < batch ? 0 : users[users.length - 1].user_id;
    let cut = 0;
    for (const { user_id } of users) {
      const last = await this.nth(user_id, length);
      if (!last) continue;
      await this.db.transaction().execute(async () => {
        const state = await this.state(user_id, true);
        if (!state) return;
        const deleted = await this.db
          .deleteFrom('home_timeline')
          .where('user_id', '=', user_id)
          .where((eb) => eb.or([eb('created_at', '<', last.at), eb.and([eb('created_at', '=', last.at), eb('entry_id', '<', last.id)])]))
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) return;
        cut += 1;
        await this.raiseHorizon(user_id, state.horizon_at !== null ? { at: state.horizon_at, id: state.horizon_entry ?? 0 } : null, last);
      });
    }
    return cut;
  }

  /**
   * Writes one wall entry into every timeline it belongs to, in one statement: its owner's and its
   * owner's followers', those that exist. The owner's too, as the request's limit may have cut any row.
   */
  private async fanOutToReaders(entryId: number): Promise<void> {
    const entry = this.db.selectFrom('wall_entries as w').where('w.id', '=', entryId);
    await this.insertEntries(
      entry
        .innerJoin('home_timeline_state as s', 's.user_id', 'w.user_id')
        .select((eb) => this.entryColumns(eb, sql.ref<number>('w.user_id')))
        .unionAll(
          entry
            .innerJoin('follows as f', 'f.followee_id', 'w.user_id')
            .innerJoin('home_timeline_state as s', 's.user_id', 'f.follower_id')
            .select((eb) => this.entryColumns(eb, sql.ref<number>('f.follower_id'))),
        ),
    );
  }

  private wallOf(ownerId: number) {
    return this.db.selectFrom('wall_entries as w').where('w.user_id', '=', ownerId);
  }

  /** The timeline row of the wall entry `w` for `reader`: a bound id, or a column (`sql.ref`). */
  private entryColumns(eb: WallSelect, reader: number | RawBuilder<number>) {
    return [
      (typeof reader === 'number' ? sql<number>`${reader}` : reader).as('user_id'),
      eb.ref('w.id').as('entry_id'),
      eb.ref('w.post_type').as('post_type'),
      eb.ref('w.post_id').as('post_id'),
      eb.ref('w.user_id').as('owner_id'),
      eb.ref('w.is_share').as('is_share'),
      eb.ref('w.created_at').as('created_at'),
    ] as const;
  }

  /**
   * `insert ignore … select` (`insert or ignore` on SQLite): rows already there (same reader and entry)
   * are skipped. Only derived rows of existing ones are written, so nothing else can be ignored.
   */
  private async insertEntries(select: SelectQueryBuilder<any, any, any>): Promise<void> {
    await this.insertEntriesQuery(select).execute();
  }

  private insertEntriesQuery(select: SelectQueryBuilder<any, any, any>) {
    return this.db
      .insertInto('home_timeline')
      .orIgnore()
      .columns(['user_id', 'entry_id', 'post_type', 'post_id', 'owner_id', 'is_share', 'created_at'])
      .expression(select);
  }

  private async state(userId: number, forUpdate = false): Promise<HomeTimelineStateTable | undefined> {
    let q = this.db.selectFrom('home_timeline_state').selectAll().where('user_id', '=', userId);
    if (forUpdate && this.dialect === 'mysql') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  /** The key of the reader's `n`-th newest entry, if the timeline has that many. */
  private async nth(userId: number, n: number): Promise<Key | null> {
    const row = await this.db
      .selectFrom('home_timeline')
      .select(['created_at', 'entry_id'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('entry_id', 'desc')
      .limit(1)
      .offset(n - 1)
      .executeTakeFirst();
    return row ? { at: row.created_at, id: row.entry_id } : null;
  }

  private async raiseHorizon(userId: number, current: Key | null, to: Key): Promise<void> {
    if (current && !after(to, current)) return;
    await this.db
      .updateTable('home_timeline_state')
      .set({ horizon_at: to.at, horizon_entry: to.id })
      .where('user_id', '=', userId)
      .execute();
  }
}
