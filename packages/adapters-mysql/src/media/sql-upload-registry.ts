import type { Timestamp } from '@plaza/domain';
import type { NewUpload, UploadRecord, UploadRegistry, UploadTypeName } from '@plaza/domain/media';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../database.js';
import { insertedId } from '../dialect.js';
import type { UploadsTable } from './schema.js';

function toRecord(row: Selectable<UploadsTable>): UploadRecord {
  return { ...row, type: row.type as UploadTypeName, size: row.size === null ? null : Number(row.size) };
}

/**
 * The uploads table. Its queries are index-backed: `path` is unique, orphans are read through
 * (referenced_at, erased_at, created_at), erased uploads through (erased_at), an owner's through (owner_id).
 */
export class SqlUploadRegistry implements UploadRegistry {
  constructor(private readonly db: Kysely<Database>) {}

  async record(upload: NewUpload): Promise<UploadRecord> {
    const id = insertedId(await this.db.insertInto('uploads').values(upload).executeTakeFirstOrThrow());
    return { ...upload, id, referenced_at: null, erased_at: null };
  }

  async findByPath(path: string): Promise<UploadRecord | null> {
    const row = await this.db.selectFrom('uploads').selectAll().where('path', '=', path).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async markReferenced(id: number, at: Timestamp): Promise<boolean> {
    const marked = await this.db
      .updateTable('uploads')
      .set({ referenced_at: at })
      .where('id', '=', id)
      .where('referenced_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) > 0) return true;
    // Marked already (by another reference), or removed by the collection.
    return (await this.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async unreferencedBefore(before: Timestamp, limit: number): Promise<UploadRecord[]> {
    const rows = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('referenced_at', 'is', null)
      .where('erased_at', 'is', null)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async erased(limit: number): Promise<UploadRecord[]> {
    const rows = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('erased_at', 'is not', null)
      .orderBy('erased_at')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async removeCollectable(id: number, before: Timestamp): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('uploads')
      .where('id', '=', id)
      .where((eb) => eb.or([eb('erased_at', 'is not', null), eb.and([eb('referenced_at', 'is', null), eb('created_at', '<', before)])]))
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  }

  async eraseOwner(ownerId: number, at: Timestamp): Promise<number> {
    const marked = await this.db
      .updateTable('uploads')
      .set({ erased_at: at })
      .where('owner_id', '=', ownerId)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    return Number(marked.numUpdatedRows);
  }
}
