import { toTimestamp } from '@plaza/domain';
import { parseMediaReference, UPLOAD_TYPES, uploadTypeOfPath, type UploadType } from '@plaza/domain/media';
import type { Kysely } from 'kysely';
import { parseList } from '../json-list.js';

/**
 * Every column that stores a reference to an upload, with the column naming the account the record
 * belongs to: that account becomes the upload's owner. `list`: a JSON array of references.
 */
export const MEDIA_COLUMNS: readonly { table: string; owner: string; columns: readonly string[]; list?: boolean }[] = [
  { table: 'users', owner: 'id', columns: ['avatar', 'banner'] },
  { table: 'posts', owner: 'user_id', columns: ['media'], list: true },
  { table: 'stories', owner: 'user_id', columns: ['media'] },
  { table: 'private_messages', owner: 'sender_id', columns: ['media'] },
  { table: 'group_messages', owner: 'sender_id', columns: ['media'] },
  { table: 'message_groups', owner: 'creator_id', columns: ['avatar'] },
  { table: 'community_groups', owner: 'creator_id', columns: ['avatar', 'cover_image'] },
  { table: 'group_posts', owner: 'user_id', columns: ['media'], list: true },
  { table: 'pages', owner: 'created_by', columns: ['avatar', 'cover_image'] },
  { table: 'page_posts', owner: 'user_id', columns: ['media'] },
  { table: 'events', owner: 'creator_id', columns: ['image'] },
  { table: 'lives', owner: 'user_id', columns: ['background_image'] },
  { table: 'album_photos', owner: 'user_id', columns: ['path'] },
];

const BATCH = 1000;
const ALL_TYPES = Object.keys(UPLOAD_TYPES) as UploadType[];

/**
 * Records the files that records referenced before the uploads table existed (docs/decisions/0114):
 * one row per path, owned by the account of the first record found naming it (in `MEDIA_COLUMNS`'
 * order, then by id), marked referenced (never collected as an orphan). Size and SHA-256 stay null:
 * the migration has no access to the files, and nothing reads them yet. Values that are no upload
 * reference (`default.svg`, a remote URL) are skipped; a table a disabled context never created too.
 * Reads each table in keyset batches; an interrupted run is resumed by running it again (a path
 * recorded already is skipped).
 */
export async function adoptUploads(db: Kysely<any>): Promise<number> {
  const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
  const now = toTimestamp(new Date());
  let adopted = 0;
  for (const source of MEDIA_COLUMNS) {
    if (!tables.has(source.table)) continue;
    let after = 0;
    for (;;) {
      const rows: Record<string, unknown>[] = await db
        .selectFrom(source.table)
        .select(['id', `${source.owner} as owner`, ...source.columns])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1].id);
      const found = new Map<
        string,
        { owner_id: number; type: string; path: string; size: null; sha256: null; created_at: string; referenced_at: string }
      >();
      for (const row of rows) {
        for (const column of source.columns) {
          const value = row[column];
          if (typeof value !== 'string' || value === '') continue;
          for (const raw of source.list ? parseList(value) : [value]) {
            const ref = parseMediaReference(raw, ALL_TYPES);
            const type = ref && uploadTypeOfPath(ref.path);
            if (!ref || !type || found.has(ref.path)) continue;
            found.set(ref.path, {
              owner_id: Number(row.owner),
              type,
              path: ref.path,
              size: null,
              sha256: null,
              created_at: now,
              referenced_at: now,
            });
          }
        }
      }
      if (found.size > 0) {
        const inserted = await db
          .insertInto('uploads')
          .values([...found.values()])
          .orIgnore()
          .executeTakeFirst();
        adopted += Number(inserted.numInsertedOrUpdatedRows ?? 0);
      }
      if (rows.length < BATCH) break;
    }
  }
  return adopted;
}
