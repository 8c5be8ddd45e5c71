import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { BATCH, keyset } from '../batches.js';
import type { Database } from '../database.js';

/** The albums context's share of a user's data: their albums and photos, which go with the account. */
export class SqlAlbumAccountData implements AccountDataPart {
  readonly sections = ['albums', 'album_photos'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    if (section === 'albums') {
      return keyset(
        (after) =>
          db
            .selectFrom('albums')
            .select(['id', 'title', 'description', 'photos_count', 'created_at', 'updated_at'])
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(BATCH)
            .execute(),
        (r) => r.id,
      );
    }
    return keyset(
      (after) =>
        db.selectFrom('album_photos').select(['id', 'album_id', 'path', 'caption', 'created_at']).where('user_id', '=', userId).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
      (r) => r.id,
    );
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const p of keyset(
      (after) => this.db.selectFrom('album_photos').select(['id', 'path']).where('user_id', '=', userId).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
      (r) => r.id,
    )) {
      yield { value: p.path, kind: 'album', source: `album_photo:${p.id}` };
    }
  }

  async erase(userId: number, _at: Timestamp): Promise<void> {
    await this.db.deleteFrom('album_photos').where('album_id', 'in', this.db.selectFrom('albums').select('id').where('user_id', '=', userId)).execute();
    await this.db.deleteFrom('album_photos').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('albums').where('user_id', '=', userId).execute();
  }
}
