import type { AccountDataPart } from '../accounts/account-data.js';
import type { ExportRow, StoredMedia } from '../accounts/export.js';
import type { Timestamp } from '../shared/time.js';

/** Tells the fediverse an account is going: `Delete(Person)` to the inboxes that know it (docs/decisions/0050). */
export interface AccountFarewell {
  /** Runs inside the deletion's unit of work, while the account's follows and key pair are still there. */
  accountDeleted(userId: number): Promise<void>;
}

/**
 * Federation's account data part (docs/decisions/0090) with the farewell first: the erasure of the
 * follows and the key pair happens after the `Delete(Person)` deliveries are queued (and signed, as the
 * key goes with the erasure), in the same unit of work, so the account never goes without them.
 */
export class FarewellFirst implements AccountDataPart {
  readonly sections: readonly string[];

  constructor(
    private readonly inner: AccountDataPart,
    private readonly farewell: AccountFarewell,
  ) {
    this.sections = inner.sections;
  }

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    return this.inner.rows(userId, section);
  }

  media(userId: number): AsyncIterable<StoredMedia> {
    return this.inner.media(userId);
  }

  async erase(userId: number, at: Timestamp): Promise<void> {
    await this.farewell.accountDeleted(userId);
    await this.inner.erase(userId, at);
  }
}
