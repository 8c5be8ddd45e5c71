import type { Timestamp } from '../shared/time.js';

export const MAX_ALBUM_TITLE = 255;
export const MAX_ALBUM_DESCRIPTION = 2000;
export const MAX_PHOTO_CAPTION = 500;
/** Photos one album holds at most: a photo album, not a file store. */
export const MAX_ALBUM_PHOTOS = 1000;

export interface AlbumRecord {
  id: number;
  user_id: number;
  title: string;
  description: string;
  photos_count: number;
  /** The first photo's path, shown as the album's cover; null while the album is empty. */
  cover: string | null;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface PhotoRecord {
  id: number;
  album_id: number;
  user_id: number;
  /** `uploads/albums/album_….jpg`. */
  path: string;
  caption: string;
  created_at: Timestamp;
}
