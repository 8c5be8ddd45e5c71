import type { PlazaMigration } from '../migrations/helpers.js';
import { tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';
import { adoptUploads } from './adopt-uploads.js';

/** The files upload.php stored, with their owner (docs/decisions/0114). */
const uploadsTable: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(withId(db.schema.createTable('uploads')), dialect)
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('path', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('size', 'bigint')
      .addColumn('sha256', 'varchar(64)')
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('referenced_at', TIMESTAMP)
      .addColumn('erased_at', TIMESTAMP)
      .execute();
    // The collection job's two reads: orphans oldest first, and the uploads of erased accounts.
    await db.schema.createIndex('uploads_orphans').on('uploads').columns(['referenced_at', 'erased_at', 'created_at']).execute();
    await db.schema.createIndex('uploads_erased').on('uploads').columns(['erased_at']).execute();
    // An erased account's uploads, marked in its deletion.
    await db.schema.createIndex('uploads_owner').on('uploads').columns(['owner_id', 'id']).execute();
  },
};

/** Files referenced before the uploads table existed get a row, owned by the account of the record naming them. */
const adoptReferencedUploads: PlazaMigration = {
  async up(db) {
    await adoptUploads(db);
  },
};

export const MEDIA_MIGRATIONS: PlazaMigrations = {
  '20261127_media_uploads': uploadsTable,
  '20261127_media_uploads_adopted': adoptReferencedUploads,
};
