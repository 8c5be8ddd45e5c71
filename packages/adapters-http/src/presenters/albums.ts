import type { AlbumView } from '@plaza/domain/albums';
import type { PhotoRecord } from '@plaza/domain/albums';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { avatarOf, zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** An album (albums.php; docs/decisions/0038): `cover` is its first photo's path. */
export const AlbumItem = z.object({
  id: zWireId,
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  title: z.string(),
  description: z.string(),
  photos_count: zCount,
  cover: z.string().nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});

/** A photo: `path` is relative to the main web host (`uploads/albums/album_….jpg`). */
export const PhotoItem = z.object({
  id: zWireId,
  album_id: zWireId,
  user_id: zWireId,
  path: z.string(),
  caption: z.string(),
  created_at: zTimestamp,
});

export function presentAlbum(v: AlbumView, p: PresenterContext): z.input<typeof AlbumItem> {
  const a = v.album;
  return {
    id: a.id,
    user_id: a.user_id,
    username: v.owner.username,
    avatar: avatarOf(v.owner),
    title: a.title,
    description: a.description,
    photos_count: a.photos_count,
    cover: a.cover,
    created_at: wireTime(p, a.created_at),
    updated_at: a.updated_at === null ? null : wireTime(p, a.updated_at),
  };
}

export function presentPhoto(photo: PhotoRecord, p: PresenterContext): z.input<typeof PhotoItem> {
  return {
    id: photo.id,
    album_id: photo.album_id,
    user_id: photo.user_id,
    path: photo.path,
    caption: photo.caption,
    created_at: wireTime(p, photo.created_at),
  };
}
