import type { CounterContribution } from '../counter-contributions.js';

/**
 * What federation's rows add to the wall's counters (sql-remote-interactions.ts moves them as it
 * writes): a recount of those counters must count these too, or erasing a local user who liked a
 * post would take its remote likes off (docs/decisions/0226).
 */
export const FEDERATION_COUNTER_CONTRIBUTIONS: readonly CounterContribution[] = [
  { surface: 'post', counter: 'post reactions', table: 'remote_post_reactions', key: 'post_id' },
  { surface: 'post', counter: 'post shares', table: 'remote_shares', key: 'post_id' },
  { surface: 'post', counter: 'comment reactions', table: 'remote_comment_reactions', key: 'comment_id' },
];
