import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { AlbumRecord, PhotoRecord } from '../model.js';
import type { AlbumRepository } from '../ports.js';

export class InMemoryAlbumRepository implements AlbumRepository, Snapshottable {
  readonly rows: AlbumRecord[] = [];
  readonly photoRows: PhotoRecord[] = [];
  private nextId = 1;
  private nextPhotoId = 1;

  snapshot() {
    const restore = captureState(this.rows, this.photoRows);
    const [nextId, nextPhotoId] = [this.nextId, this.nextPhotoId];
    return () => {
      restore();
      [this.nextId, this.nextPhotoId] = [nextId, nextPhotoId];
    };
  }

  async lock(_id: number) {}

  async create(album: { user_id: number; title: string; description: string; created_at: Timestamp }) {
    const row: AlbumRecord = { ...album, id: this.nextId++, photos_count: 0, cover: null, updated_at: null };
    this.rows.push(row);
    return { ...row };
  }

  async findById(id: number) {
    const row = this.rows.find((a) => a.id === id);
    return row ? { ...row } : null;
  }

  async listByUser(userId: number, page: PageRequest) {
    const all = this.rows.filter((a) => a.user_id === userId).sort((a, b) => b.id - a.id);
    return { items: all.slice(offsetOf(page), offsetOf(page) + page.perPage).map((a) => ({ ...a })), total: all.length };
  }

  async addPhoto(photo: Omit<PhotoRecord, 'id'>) {
    const album = this.rows.find((a) => a.id === photo.album_id);
    const row: PhotoRecord = { ...photo, id: this.nextPhotoId++ };
    this.photoRows.push(row);
    if (album) {
      album.photos_count++;
      album.cover ??= photo.path;
      album.updated_at = photo.created_at;
    }
    return { ...row };
  }

  async photos(albumId: number, page: PageRequest) {
    const all = this.photoRows.filter((p) => p.album_id === albumId).sort((a, b) => a.id - b.id);
    return { items: all.slice(offsetOf(page), offsetOf(page) + page.perPage).map((p) => ({ ...p })), total: all.length };
  }

  async delete(id: number) {
    for (let i = this.photoRows.length - 1; i >= 0; i--) if (this.photoRows[i].album_id === id) this.photoRows.splice(i, 1);
    const i = this.rows.findIndex((a) => a.id === id);
    if (i >= 0) this.rows.splice(i, 1);
  }
}
