import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { AlbumRecord, PhotoRecord } from './model.js';

export interface Paged<T> {
  items: T[];
  total: number;
}

/** Photo albums and their photos. */
export interface AlbumRepository {
  /** Takes the album's write lock until the unit of work ends (a no-op outside one). */
  lock(id: number): Promise<void>;
  create(album: { user_id: number; title: string; description: string; created_at: Timestamp }): Promise<AlbumRecord>;
  findById(id: number): Promise<AlbumRecord | null>;
  /** A user's albums, newest first. */
  listByUser(userId: number, page: PageRequest): Promise<Paged<AlbumRecord>>;
  /** Adds a photo; photos_count (and the cover of an empty album) move with it. Call under the album's lock. */
  addPhoto(photo: Omit<PhotoRecord, 'id'>): Promise<PhotoRecord>;
  /** An album's photos in the order they were added. */
  photos(albumId: number, page: PageRequest): Promise<Paged<PhotoRecord>>;
  /** Deletes the album with its photos. */
  delete(id: number): Promise<void>;
}
export const AlbumRepository = token<AlbumRepository>('AlbumRepository');
