import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/** The albums context's share of a user's data: their albums and photos, which go with the account. */
export class SqlAlbumAccountData implements AccountDataPart {
  readonly sections = ['albums', 'album_photos'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    if (section === 'albums') {
      return ownedRows(this.db, 'albums', 'user_id', userId, ['id', 'title', 'description', 'photos_count', 'created_at', 'updated_at']);
    }
    return ownedRows(this.db, 'album_photos', 'user_id', userId, ['id', 'album_id', 'path', 'caption', 'created_at']);
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const p of ownedRows(this.db, 'album_photos', 'user_id', userId, ['id', 'path'])) {
      yield { value: p.path, kind: 'album', source: `album_photo:${p.id}` };
    }
  }

  async erase(userId: number, _at: Timestamp): Promise<void> {
    await this.db
      .deleteFrom('album_photos')
      .where('album_id', 'in', this.db.selectFrom('albums').select('id').where('user_id', '=', userId))
      .execute();
    await this.db.deleteFrom('album_photos').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('albums').where('user_id', '=', userId).execute();
  }
}
