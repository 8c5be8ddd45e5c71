import type { ReactionChange, Timestamp } from '@plaza/domain';
import type { Kysely } from 'kysely';
import { insertIfAbsent } from './dialect.js';

function affected(result: object): boolean {
  const r = result as { numInsertedOrUpdatedRows?: bigint; numDeletedRows?: bigint; numUpdatedRows?: bigint };
  return Number(r.numInsertedOrUpdatedRows ?? r.numDeletedRows ?? r.numUpdatedRows ?? 0) > 0;
}

/**
 * The one reaction rule's storage (domain shared/reaction-rule.ts), for every table of reactions
 * keyed by a target and a user (`post_reactions`, `group_post_reactions`, `comment_reactions`): the
 * row is inserted if absent (`added`), else its type changed by a conditional update (`changed`), else
 * nothing (`unchanged`). Each outcome is decided by one conditional write, so N identical requests at
 * once add or change once. `touch` also moves `created_at` to the change's time. Call it in the
 * transaction that moves the target's counter, after the target's row lock where one is kept.
 */
export async function putReactionRow(
  trx: Kysely<any>,
  table: string,
  key: Record<string, string | number>,
  reaction: string,
  at: Timestamp,
  options: { touch?: boolean } = {},
): Promise<ReactionChange> {
  if (await insertIfAbsent(trx, table, { ...key, reaction_type: reaction, created_at: at })) return 'added';
  let update = trx.updateTable(table).set(options.touch ? { reaction_type: reaction, created_at: at } : { reaction_type: reaction });
  for (const [column, value] of Object.entries(key)) update = update.where(column, '=', value);
  return affected(await update.where('reaction_type', '<>', reaction).executeTakeFirst()) ? 'changed' : 'unchanged';
}

/** Takes a user's reaction back: false when there was none. */
export async function removeReactionRow(trx: Kysely<any>, table: string, key: Record<string, string | number>): Promise<boolean> {
  let remove = trx.deleteFrom(table);
  for (const [column, value] of Object.entries(key)) remove = remove.where(column, '=', value);
  return affected(await remove.executeTakeFirst());
}
