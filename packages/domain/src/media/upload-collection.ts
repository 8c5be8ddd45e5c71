import type { AccountDataPart } from '../accounts/account-data.js';
import type { Clock } from '../shared/clock.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import type { UploadFiles, UploadRecord, UploadRegistry } from './uploads.js';

/** What one run of the collection removed (logged as one JSON line). */
export interface UploadCollectionReport {
  /** Files nothing referenced within the orphan delay. */
  orphans: number;
  /** Files of erased accounts. */
  erased: number;
  /** Records removed whose file was already gone. */
  missing: number;
  /** Records removed whose file could not be deleted (kept on disk; the paths are in `failures`). */
  failures: { path: string; error: string }[];
}

/**
 * The collection job (docs/decisions/0114): removes the files of erased accounts, and the uploads
 * that no accepted reference marked within `orphanHours` (0: those are kept). Works in batches of
 * `batch` records read through index-backed queries, at most `maxBatches` per run so that a large
 * backlog is spread over several runs. Each record is removed by a conditional delete before its
 * file: a reference accepted meanwhile wins (the record stays, so does the file), and a reference
 * checked after the delete finds no record and is refused.
 */
export class UploadCollector {
  constructor(
    private readonly registry: UploadRegistry,
    private readonly files: UploadFiles,
    private readonly clock: Clock,
    private readonly settings: { orphanHours: number; batch?: number; maxBatches?: number },
  ) {}

  async collect(): Promise<UploadCollectionReport> {
    const report: UploadCollectionReport = { orphans: 0, erased: 0, missing: 0, failures: [] };
    const batch = this.settings.batch ?? 200;
    const now = this.clock.now();
    const before = toTimestamp(addSeconds(now, -this.settings.orphanHours * 3600));
    const kinds: ['erased' | 'orphans', (limit: number) => Promise<UploadRecord[]>][] = [
      ['erased', (limit) => this.registry.erased(limit)],
    ];
    if (this.settings.orphanHours > 0) kinds.push(['orphans', (limit) => this.registry.unreferencedBefore(before, limit)]);
    for (const [kind, next] of kinds) {
      for (let round = 0; round < (this.settings.maxBatches ?? 50); round++) {
        const rows = await next(batch);
        let progressed = false;
        for (const row of rows) {
          if (await this.removeOne(row, before, report)) {
            report[kind] += 1;
            progressed = true;
          }
        }
        // A short batch was the last; a batch whose every record was taken meanwhile would come back the same.
        if (rows.length < batch || !progressed) break;
      }
    }
    return report;
  }

  private async removeOne(row: UploadRecord, before: Timestamp, report: UploadCollectionReport): Promise<boolean> {
    if (!(await this.registry.removeCollectable(row.id, before))) return false;
    try {
      if (!(await this.files.remove(row.path))) report.missing += 1;
    } catch (error) {
      report.failures.push({ path: row.path, error: error instanceof Error ? error.message : String(error) });
    }
    return true;
  }
}

/**
 * The media context's share of account deletion (0090, 0093): the account's uploads are marked erased
 * inside the deletion's unit of work, and the collection job removes their files once it committed
 * (a file deleted before a rollback could not be put back). Nothing to export: every part lists the
 * media its own rows reference.
 */
export class UploadsAccountData implements AccountDataPart {
  readonly sections = [] as const;

  constructor(private readonly registry: UploadRegistry) {}

  async *rows(): AsyncGenerator<never> {}

  async *media(): AsyncGenerator<never> {}

  async erase(userId: number, at: Timestamp): Promise<void> {
    await this.registry.eraseOwner(userId, at);
  }
}
