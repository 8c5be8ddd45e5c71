import { Invalid, pageMeta, pageRequest } from '@plaza/domain';
import { MAX_ALBUM_DESCRIPTION, MAX_ALBUM_TITLE, MAX_PHOTO_CAPTION, type AlbumService } from '@plaza/domain/albums';
import { z } from 'zod';
import { paginationQuery, zId, zText } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { AlbumItem, PhotoItem, presentAlbum, presentPhoto } from '../presenters/albums.js';
import type { PresenterContext } from '../presenters/context.js';
import { PageMetaWire, zWireId } from '../presenters/wire.js';

const listResponse = z.object({ data: z.array(AlbumItem), meta: PageMetaWire });
const reference = z.string().max(512).optional();
/** The bodies of create and add_photo, shared with the library's `albums` use cases (docs/decisions/0130). */
export const newAlbumBody = z.object({ title: zText(MAX_ALBUM_TITLE), description: zText(MAX_ALBUM_DESCRIPTION).nullish() });
export const photoCaption = zText(MAX_PHOTO_CAPTION).nullish();

/** albums.php (spec "Events and albums"): own albums, a user's albums, an album with its photos, create, add_photo, delete. */
export function albumsScript(albums: AlbumService, p: PresenterContext): Script {
  /** One page of a user's albums under `data`, with the pagination `meta`. */
  const albumsOf = async (actor: Parameters<AlbumService['ofUser']>[0], userId: number, query: { page?: number; per_page?: number }) => {
    const req = pageRequest(query.page, query.per_page);
    const r = await albums.ofUser(actor, userId, req);
    return { data: r.items.map((v) => presentAlbum(v, p)), meta: pageMeta(req, r.total) };
  };
  return {
    name: 'albums',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object(paginationQuery),
        summary: 'My albums, newest first',
        response: listResponse,
        handle: (ctx) => albumsOf(ctx.actor, ctx.actor.userId, ctx.query),
      }),
      op({
        method: 'GET',
        select: { has: ['user_id'] },
        auth: 'required',
        query: z.object({ user_id: zId, ...paginationQuery }),
        summary: 'A user’s albums, newest first (as visible as their posts)',
        response: listResponse,
        handle: (ctx) => albumsOf(ctx.actor, ctx.query.user_id, ctx.query),
      }),
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId, ...paginationQuery }),
        summary: 'An album with its photos (paginated, in the order they were added)',
        response: z.object({ data: AlbumItem.extend({ photos: z.array(PhotoItem) }), meta: PageMetaWire }),
        handle: async (ctx) => {
          const req = pageRequest(ctx.query.page, ctx.query.per_page);
          const r = await albums.details(ctx.actor, ctx.query.id, req);
          return {
            data: { ...presentAlbum(r, p), photos: r.photos.items.map((photo) => presentPhoto(photo, p)) },
            meta: pageMeta(req, r.photos.total),
          };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: newAlbumBody,
        summary: 'Create an album',
        response: z.object({ message: z.string(), id: zWireId, album_id: zWireId, data: AlbumItem }),
        handle: async (ctx) => {
          const v = await albums.create(ctx.actor, ctx.body);
          return { message: 'Album created', id: v.album.id, album_id: v.album.id, data: presentAlbum(v, p) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'add_photo' },
        auth: 'required',
        body: z.object({ album_id: zId, photo: reference, path: reference, media: reference, caption: photoCaption }),
        summary: 'Add a photo uploaded with upload.php (type album) to my album: photo, path or media',
        response: z.object({ message: z.string(), id: zWireId, photo_id: zWireId, data: PhotoItem }),
        handle: async (ctx) => {
          const field = (['photo', 'path', 'media'] as const).find((k) => ctx.body[k] !== undefined);
          if (field === undefined) throw Invalid.field('photo', 'is required (an uploaded file)');
          const photo = await albums.addPhoto(ctx.actor, ctx.body.album_id, ctx.body[field]!, ctx.body.caption, field);
          return { message: 'Photo added', id: photo.id, photo_id: photo.id, data: presentPhoto(photo, p) };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Delete my album with its photos',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          await albums.delete(ctx.actor, ctx.query.id);
          return { message: 'Album deleted' };
        },
      }),
    ],
  };
}
