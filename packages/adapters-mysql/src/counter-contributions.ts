import type { CommentType } from '@plaza/domain/content';

/**
 * Rows another module keeps that move one of a surface's counters, so that a recount of that counter
 * (surface-rows.ts, when a user's rows go) counts them too: federation's remote likes, boosts and
 * comment reactions each move the wall's counters (docs/decisions/0226). The content SQL cannot name
 * those tables itself: a composition without federation has none. The module owning the table adds
 * its contribution (`CounterContributions`, multi-bound) and the surface adds one `count(*)` of
 * `table` where `key` is the post's or comment's id. Each such table serves one surface, so the
 * key is the whole filter.
 */
export interface CounterContribution {
  /** The surface whose counter the rows move, as comment_reactions and shares name it. */
  surface: CommentType;
  /** A post's reactions (`likes_count`), a post's shares (`shares_count`) or a comment's reactions. */
  counter: 'post reactions' | 'post shares' | 'comment reactions';
  table: string;
  /** The column holding the post's (or comment's) id. */
  key: string;
}
