import { type PageRequest, type Timestamp } from '@plaza/domain';
import type { AlbumRecord, AlbumRepository, PhotoRecord } from '@plaza/domain/albums';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../database.js';
import { insertedId, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { AlbumsTable } from './schema.js';
import { pagedWithTotal } from '../paged-list.js';

function toAlbum(row: Selectable<AlbumsTable>): AlbumRecord {
  return { ...row, photos_count: Number(row.photos_count) };
}

export class SqlAlbumRepository implements AlbumRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lock(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'albums', id);
  }

  async create(album: { user_id: number; title: string; description: string; created_at: Timestamp }) {
    const id = insertedId(await this.db.insertInto('albums').values(album).executeTakeFirstOrThrow());
    return { ...album, id, photos_count: 0, cover: null, updated_at: null };
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('albums').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAlbum(row) : null;
  }

  async listByUser(userId: number, req: PageRequest) {
    const base = this.db.selectFrom('albums').where('user_id', '=', userId);
    const { rows, total } = await pagedWithTotal(base, req, (q) => q.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toAlbum), total };
  }

  async addPhoto(photo: Omit<PhotoRecord, 'id'>) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'albums', photo.album_id);
      const id = insertedId(await trx.insertInto('album_photos').values(photo).executeTakeFirstOrThrow());
      await trx
        .updateTable('albums')
        .set({ photos_count: sql`photos_count + 1`, cover: sql`coalesce(cover, ${photo.path})`, updated_at: photo.created_at })
        .where('id', '=', photo.album_id)
        .execute();
      return { ...photo, id };
    });
  }

  async photos(albumId: number, req: PageRequest) {
    const base = this.db.selectFrom('album_photos').where('album_id', '=', albumId);
    const { rows, total } = await pagedWithTotal(base, req, (q) => q.selectAll().orderBy('id'));
    return { items: rows, total };
  }

  async delete(id: number) {
    await this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'albums', id);
      await trx.deleteFrom('album_photos').where('album_id', '=', id).execute();
      await trx.deleteFrom('albums').where('id', '=', id).execute();
    });
  }
}
