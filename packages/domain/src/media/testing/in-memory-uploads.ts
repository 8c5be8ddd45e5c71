import { ManualClock, type Clock } from '../../shared/clock.js';
import { toTimestamp, type Timestamp } from '../../shared/time.js';
import { parseMediaReference, UPLOAD_TYPES, type UploadType } from '../reference.js';
import { MediaReferences } from '../references.js';
import { uploadTypeOfPath, type NewUpload, type UploadFiles, type UploadRecord, type UploadRegistry } from '../uploads.js';
import { InMemoryUploadedMedia } from './in-memory-media.js';

/** The uploads table as an array. */
export class InMemoryUploadRegistry implements UploadRegistry {
  readonly rows: UploadRecord[] = [];
  private seq = 0;

  async record(upload: NewUpload): Promise<UploadRecord> {
    if (this.rows.some((r) => r.path === upload.path)) throw new Error(`duplicate upload path ${upload.path}`);
    const row: UploadRecord = { ...upload, id: ++this.seq, referenced_at: null, erased_at: null };
    this.rows.push(row);
    return { ...row };
  }

  async findByPath(path: string): Promise<UploadRecord | null> {
    const row = this.rows.find((r) => r.path === path);
    return row ? { ...row } : null;
  }

  async markReferenced(id: number, at: Timestamp): Promise<boolean> {
    const row = this.rows.find((r) => r.id === id);
    if (!row) return false;
    row.referenced_at ??= at;
    return true;
  }

  async unreferencedBefore(before: Timestamp, limit: number): Promise<UploadRecord[]> {
    return this.rows
      .filter((r) => r.referenced_at === null && r.erased_at === null && r.created_at < before)
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async erased(limit: number): Promise<UploadRecord[]> {
    return this.rows
      .filter((r) => r.erased_at !== null)
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async removeCollectable(id: number, before: Timestamp): Promise<boolean> {
    const at = this.rows.findIndex((r) => r.id === id && (r.erased_at !== null || (r.referenced_at === null && r.created_at < before)));
    if (at < 0) return false;
    this.rows.splice(at, 1);
    return true;
  }

  async eraseOwner(ownerId: number, at: Timestamp): Promise<number> {
    const rows = this.rows.filter((r) => r.owner_id === ownerId && r.erased_at === null);
    for (const r of rows) r.erased_at = at;
    return rows.length;
  }
}

/** The stored files of an `InMemoryUploadedMedia`: every file is one byte. */
export class InMemoryUploadFiles implements UploadFiles {
  constructor(private readonly uploaded: InMemoryUploadedMedia) {}

  async digest(path: string): Promise<{ size: number; sha256: string }> {
    if (!this.uploaded.paths.has(path)) throw new Error(`no file ${path}`);
    return { size: 1, sha256: '0'.repeat(64) };
  }

  async remove(path: string): Promise<boolean> {
    return this.uploaded.paths.delete(path);
  }
}

/**
 * The uploads directory and table together, for services' unit tests: `place(reference, owner)` puts a
 * file where upload.php would have and records it as the owner's, and `references` checks against both.
 */
export class InMemoryUploads {
  readonly files = new InMemoryUploadedMedia();
  readonly registry = new InMemoryUploadRegistry();
  readonly references: MediaReferences;

  constructor(readonly clock: Clock = new ManualClock()) {
    this.references = new MediaReferences(this.files, this.registry, clock);
  }

  /** A file at the path `reference` names (a bare name or a path), uploaded by `ownerId`. */
  async place(reference: string, ownerId: number): Promise<void> {
    const ref = parseMediaReference(reference, Object.keys(UPLOAD_TYPES) as UploadType[]);
    const type = ref && uploadTypeOfPath(ref.path);
    if (!ref || !type) throw new Error(`not an upload reference: ${reference}`);
    await this.files.place(ref.path);
    await this.registry.record({
      owner_id: ownerId,
      type,
      path: ref.path,
      size: 1,
      sha256: null,
      created_at: toTimestamp(this.clock.now()),
    });
  }
}
