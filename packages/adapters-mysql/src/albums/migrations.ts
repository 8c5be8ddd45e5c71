import type { PlazaMigration } from '../migrations/helpers.js';
import { tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** Photo albums and their photos. */
const albumsTables: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(withId(db.schema.createTable('albums')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('photos_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cover', 'varchar(255)')
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    // A user's albums, newest first.
    await db.schema.createIndex('albums_user').on('albums').columns(['user_id', 'id']).execute();

    await tableOptions(withId(db.schema.createTable('album_photos')), dialect)
      .addColumn('album_id', 'integer', (c) => c.notNull().references('albums.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('path', 'varchar(255)', (c) => c.notNull())
      .addColumn('caption', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // An album's photos in the order they were added.
    await db.schema.createIndex('album_photos_album').on('album_photos').columns(['album_id', 'id']).execute();
    await db.schema.createIndex('album_photos_user').on('album_photos').columns(['user_id', 'id']).execute();
  },
};

export const ALBUMS_MIGRATIONS: PlazaMigrations = {
  '20261122_albums_tables': albumsTables,
};
