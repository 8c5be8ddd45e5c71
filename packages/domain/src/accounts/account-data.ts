import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { ExportRow, StoredMedia } from './export.js';

/**
 * One bounded context's share of an account's data (docs/decisions/0093). Every context that keeps
 * rows of a user contributes a part from its module (`w.accountData(…)`), so account deletion and
 * export reach its tables without the accounts context knowing them.
 *
 * - Deletion locks the account row, runs every part's `erase` in module order inside one unit of
 *   work, then turns the account row into a tombstone.
 * - Export writes every part's sections, then one `media` section gathered from every part.
 */
export interface AccountDataPart {
  /** The export sections this part writes, in order; unique across parts (`media` is the service's). */
  readonly sections: readonly string[];
  /** One section's rows, read in bounded batches (keyset pages) so memory does not grow with the account. */
  rows(userId: number, section: string): AsyncIterable<ExportRow>;
  /** The upload references stored in this part's rows of the user (posts' media, avatars, album photos…). */
  media(userId: number): AsyncIterable<StoredMedia>;
  /**
   * Removes the user's rows, or anonymises those others' threads need, and repairs the counters of
   * others' rows that change. Runs inside the deletion's unit of work, after the account row lock.
   */
  erase(userId: number, at: Timestamp): Promise<void>;
}
/** Multi-bound: every module adds its part. */
export const AccountDataParts = token<AccountDataPart>('accounts.AccountDataParts');
