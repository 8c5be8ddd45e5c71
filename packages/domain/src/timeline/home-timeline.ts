import type { OutboxLane } from '../shared/outbox-lane.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { FollowEventListener } from '../social/follow-events.js';
import type { PostEventListener, ShareEvent, SurfaceShareEvent } from '../content/post-events.js';
import type { SurfaceShareLine } from '../content/wall-items.js';
import type { CreatedPost, PostView } from '../content/model.js';
import type { StoredHomeFeed } from '../content/stored-home-feed.js';
import type { Viewer } from '../content/visibility.js';
import { FanOutLane } from './fan-out-lane.js';

/**
 * A wall entry to write into home timelines: the post, or a share of it, on the wall of `ownerId`, as
 * its writer stored it (its id and date): the fan-out needs no read of it.
 */
export interface WallEntry {
  id: number;
  ownerId: number;
  /** Which table `postId` names: `post` (posts), `group`, `page` (docs/decisions/0230). */
  postType: 'post' | 'group' | 'page';
  postId: number;
  isShare: boolean;
  at: Timestamp;
}

/** A new post's entry on its author's wall. */
export function wallEntryOfPost(post: CreatedPost): WallEntry {
  return { id: post.wall_entry_id, ownerId: post.user_id, postType: 'post', postId: post.id, isShare: false, at: post.created_at };
}

/** A new share's entry on its sharer's wall. */
export function wallEntryOfShare(share: ShareEvent): WallEntry {
  return { id: share.entryId, ownerId: share.userId, postType: 'post', postId: share.post.id, isShare: true, at: share.at };
}

/** A new share of a group's or page's post on its sharer's wall. */
export function wallEntryOfSurfaceShare(share: SurfaceShareEvent): WallEntry {
  return { id: share.entryId, ownerId: share.userId, postType: share.post_type, postId: share.post_id, isShare: true, at: share.at };
}

/**
 * What a stored timeline can say about a page: its entries (`perPage + 1` at most, as every list),
 * each a post as the viewer sees it (read with the page: the feed is the most requested list) or a
 * share of a group's or page's post for the caller to read (docs/decisions/0230), or
 * that it cannot answer — not built yet, or the page reaches below its horizon (the point down to which
 * it is known to be exact, raised by trimming and by large backfills).
 */
export type TimelinePage = { kind: 'entries'; entries: (PostView | SurfaceShareLine)[] } | { kind: 'unbuilt' } | { kind: 'beyond' };

/**
 * The precomputed home timeline (docs/decisions/0071): for each reader, the wall entries (posts and
 * shares) of the accounts they follow and their own, newest first, written when an entry is made
 * (fan-out on write) rather than gathered at every read. It is a cache of the read-time feed
 * (`PostRepository.feed`), exact down to a horizon:
 *
 * - A timeline exists once built (at the reader's first feed read): only built timelines receive
 *   fan-out, so storage grows with the readers, not with the accounts.
 * - Reads apply the one visibility rule (`postVisibleTo`) to every entry, as the read-time feed does:
 *   privacy changes and shares of private posts need no rewrite. Removed posts go with their wall
 *   entries (foreign keys); unfollowing removes the followee's entries, following backfills them.
 */
export interface HomeTimelineRepository {
  /** A page of the viewer's timeline, the visibility rule applied, newest first, with its posts as the viewer sees them. */
  page(viewer: Viewer, page: PageRequest): Promise<TimelinePage>;
  /**
   * Builds the user's timeline from the walls (the newest `length` entries) unless it exists. Runs in
   * steps that commit one after another (outside any unit of work): the timeline is first registered,
   * so that every fan-out from then on includes it, then filled, then marked ready for reads.
   */
  build(userId: number, length: number): Promise<void>;
  /**
   * Writes the entry into the timeline of its owner and of each follower whose timeline exists, in one
   * statement that writes `inRequestMax + 1` of them at most. When it wrote that many (there may be
   * more), the entry is queued for `fanOutQueued` (a job), which writes every one: 'queued'.
   */
  fanOut(entry: WallEntry, inRequestMax: number): Promise<'done' | 'queued'>;
  /**
   * Writes up to `limit` queued entries into every timeline they belong to (owner's, followers'); returns
   * how many it did. The periodic job's work: `claimQueued`, then `fanOutEntry` for each.
   */
  fanOutQueued(limit: number): Promise<number>;
  /**
   * Claims up to `limit` queued entries that are due (never claimed, or their lease of
   * `FANOUT_LEASE_SECONDS` run out), oldest first, each with one conditional write (two instances never
   * take the same one), and answers their wall entry ids.
   */
  claimQueued(limit: number): Promise<number[]>;
  /**
   * Writes one queued entry into every timeline it belongs to and takes it off the queue, in one unit of
   * work. Idempotent: rows already written are skipped, and an entry no longer queued (done already,
   * or its post removed) writes nothing. Answers whether it was still queued.
   */
  fanOutEntry(entryId: number): Promise<boolean>;
  /** Adds the newest entries (at most `length`) of `followeeId`'s wall to `followerId`'s timeline, if it exists. */
  backfill(followerId: number, followeeId: number, length: number): Promise<void>;
  /** Removes every entry of `ownerId`'s wall from `followerId`'s timeline. */
  removeOwner(followerId: number, ownerId: number): Promise<void>;
  /** Cuts up to `batch` timelines to their newest `length` entries, raising their horizon; returns how many it cut. */
  trim(length: number, batch: number): Promise<number>;
}
export const HomeTimelineRepository = token<HomeTimelineRepository>('timeline.HomeTimelineRepository');

export interface HomeTimelineOptions {
  /** Entries kept per timeline; a page below them is read at read time. */
  length: number;
  /** Timelines a new entry is written into in its request; an entry with more is finished by a job. */
  inRequestTimelines: number;
}
/**
 * How long a claim holds a queued fan-out: a relay lost with Redis, or a process that died in the
 * middle, leaves the entry due again after it.
 */
export const FANOUT_LEASE_SECONDS = 300;

export const HOME_TIMELINE_DEFAULTS: HomeTimelineOptions = { length: 800, inRequestTimelines: 2000 };

/**
 * Keeps the home timelines: a post listener (new posts and shares fan out) and a follow listener
 * (follow backfills, unfollow removes), both called inside the unit of work of the write they follow.
 * `PostService.feed` reads through `page` and falls back to the read-time query when it answers null.
 */
export class HomeTimeline implements PostEventListener, FollowEventListener, StoredHomeFeed {
  /** The fan-out queue as a BullMQ lane (REDIS_URL; docs/decisions/0215): one job per queued entry. */
  readonly lane: OutboxLane;

  constructor(
    private readonly timelines: HomeTimelineRepository,
    readonly options: HomeTimelineOptions = HOME_TIMELINE_DEFAULTS,
  ) {
    this.lane = new FanOutLane(timelines);
  }

  async published(post: CreatedPost): Promise<void> {
    await this.timelines.fanOut(wallEntryOfPost(post), this.options.inRequestTimelines);
  }

  async shared(share: ShareEvent): Promise<void> {
    await this.timelines.fanOut(wallEntryOfShare(share), this.options.inRequestTimelines);
  }

  async surfaceShared(share: SurfaceShareEvent): Promise<void> {
    await this.timelines.fanOut(wallEntryOfSurfaceShare(share), this.options.inRequestTimelines);
  }

  async followed(followerId: number, followeeId: number): Promise<void> {
    await this.timelines.backfill(followerId, followeeId, this.options.length);
  }

  async unfollowed(followerId: number, followeeId: number): Promise<void> {
    await this.timelines.removeOwner(followerId, followeeId);
  }

  /**
   * The page from the viewer's stored timeline (built on first use), or null when the page lies below
   * what the timeline keeps: the caller reads it at read time then.
   */
  async page(viewer: Viewer, page: PageRequest): Promise<(PostView | SurfaceShareLine)[] | null> {
    let result = await this.timelines.page(viewer, page);
    if (result.kind === 'unbuilt') {
      await this.timelines.build(viewer.userId, this.options.length);
      result = await this.timelines.page(viewer, page);
    }
    return result.kind === 'entries' ? result.entries : null;
  }

  /** A job's work: the queued fan-outs of accounts with many followers, a batch at a time. */
  fanOutQueued(): Promise<number> {
    return this.timelines.fanOutQueued(20);
  }

  /** A job's work: cuts a batch of timelines back to their length. */
  trim(): Promise<number> {
    return this.timelines.trim(this.options.length, 500);
  }
}
