import type { Generated } from 'kysely';

/** One entry of a reader's precomputed home timeline: a wall entry of an account they follow, or their own. */
export interface HomeTimelineTable {
  user_id: number;
  entry_id: number;
  /** As its wall entry's (docs/decisions/0230). */
  post_type: Generated<string>;
  post_id: number;
  /** Whose wall the entry is on: the author, or the sharer of a share. */
  owner_id: number;
  is_share: number;
  created_at: string;
}

/**
 * A reader's timeline exists once this row does: `ready` once filled; exact for every entry at or
 * above (horizon_at, horizon_entry), or for all entries when the horizon is null.
 */
export interface HomeTimelineStateTable {
  user_id: number;
  ready: number;
  horizon_at: string | null;
  horizon_entry: number | null;
}

/** Wall entries whose fan-out to a large audience waits for the job. */
export interface HomeTimelineFanoutTable {
  entry_id: number;
  queued_at: string;
  /** Held by a claim until then (null: never claimed); due again once it has passed. */
  claimed_until: string | null;
}

export interface TimelineTables {
  home_timeline: HomeTimelineTable;
  home_timeline_state: HomeTimelineStateTable;
  home_timeline_fanout: HomeTimelineFanoutTable;
}

declare module '../database.js' {
  /** The timeline tables join the database type when this module is loaded. */
  interface Database extends TimelineTables {}
}
