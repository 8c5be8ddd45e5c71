import type { ReactionChange } from '../reaction-rule.js';

/**
 * The one reaction rule's storage in the in-memory fakes (what adapters-mysql's reaction-rows.ts is to
 * SQL): the row is added if absent, else its type changed, else nothing. The caller moves its counter
 * when the answer is `added`.
 */
export function putReactionRow<R extends { reaction_type: string }>(rows: Map<string, R>, key: string, row: R): ReactionChange {
  const existing = rows.get(key);
  if (!existing) {
    rows.set(key, row);
    return 'added';
  }
  if (existing.reaction_type === row.reaction_type) return 'unchanged';
  existing.reaction_type = row.reaction_type;
  return 'changed';
}
