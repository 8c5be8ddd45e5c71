import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import {
  MEDIA_SECTION,
  type AccountDataReader,
  type ExportedPost,
  type ExportedPosts,
  type ExportRow,
  type ExportSection,
  type StoredMedia,
} from './export.js';

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

/**
 * The export reader made of every context's part: a section is read by the part that names it, and
 * the media of every part are read one after another. Two parts naming one section is a wiring
 * mistake, refused when the reader is built (at start-up) rather than found in someone's export.
 */
export class AccountDataFromParts implements AccountDataReader {
  readonly sections: readonly ExportSection[];
  private readonly owners = new Map<ExportSection, AccountDataPart>();

  constructor(
    private readonly parts: readonly AccountDataPart[],
    private readonly outbox: ExportedPosts,
  ) {
    for (const part of parts) {
      for (const section of part.sections) {
        if (section === MEDIA_SECTION || this.owners.has(section)) throw new Error(`Export section "${section}" is claimed twice`);
        this.owners.set(section, part);
      }
    }
    this.sections = [...this.owners.keys()];
  }

  rows(userId: number, section: ExportSection): AsyncIterable<ExportRow> {
    const part = this.owners.get(section);
    if (!part) throw new Error(`No part exports the section "${section}"`);
    return part.rows(userId, section);
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for (const part of this.parts) yield* part.media(userId);
  }

  posts(userId: number): AsyncIterable<ExportedPost> {
    return this.outbox.posts(userId);
  }
}
