import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { PostVisibility } from '../content/visibility.js';
import { viewerOf } from '../content/visibility.js';
import type { MediaReferences } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import {
  MAX_ALBUM_DESCRIPTION,
  MAX_ALBUM_PHOTOS,
  MAX_ALBUM_TITLE,
  MAX_PHOTO_CAPTION,
  type AlbumRecord,
  type PhotoRecord,
} from './model.js';
import type { AlbumRepository, Paged } from './ports.js';

export interface AlbumView {
  album: AlbumRecord;
  owner: UserRecord;
}

/**
 * Photo albums (albums.php; docs/decisions/0038). An album is seen by whoever sees its owner's posts
 * (the one visibility rule: a private account's albums are its followers'); only its owner changes it.
 */
export class AlbumService {
  constructor(
    private readonly albums: AlbumRepository,
    private readonly users: UserRepository,
    private readonly visibility: PostVisibility,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly media: MediaReferences,
  ) {}

  /** The user's albums, newest first: 404 for an account the caller may not see. */
  async ofUser(actor: Actor, userId: number, req: PageRequest): Promise<Paged<AlbumView>> {
    const owner = await this.visibleOwner(actor, userId);
    const found = await this.albums.listByUser(userId, req);
    return { total: found.total, items: found.items.map((album) => ({ album, owner })) };
  }

  async details(actor: Actor, albumId: number, req: PageRequest): Promise<AlbumView & { photos: Paged<PhotoRecord> }> {
    const album = await this.albums.findById(albumId);
    if (!album) throw new NotFound('Album not found', 'album_not_found');
    let owner: UserRecord;
    try {
      owner = await this.visibleOwner(actor, album.user_id);
    } catch (e) {
      if (e instanceof NotFound) throw new NotFound('Album not found', 'album_not_found');
      throw e;
    }
    return { album, owner, photos: await this.albums.photos(albumId, req) };
  }

  async create(actor: Actor, input: { title: string; description?: string | null }): Promise<AlbumView> {
    const title = input.title.trim();
    if (!title) throw Invalid.field('title', 'must not be empty');
    if (title.length > MAX_ALBUM_TITLE) throw Invalid.field('title', `must be at most ${MAX_ALBUM_TITLE} characters`);
    const description = (input.description ?? '').trim();
    if (description.length > MAX_ALBUM_DESCRIPTION)
      throw Invalid.field('description', `must be at most ${MAX_ALBUM_DESCRIPTION} characters`);
    const album = await this.albums.create({ user_id: actor.userId, title, description, created_at: toTimestamp(this.clock.now()) });
    return { album, owner: (await this.users.findById(actor.userId))! };
  }

  /** The owner adds a file upload.php stored (type album): `album_….jpg` or `uploads/albums/album_….jpg`. */
  async addPhoto(actor: Actor, albumId: number, raw: string, caption?: string | null, field = 'photo'): Promise<PhotoRecord> {
    const ref = await this.media.require(actor, field, raw, ['album']);
    const text = (caption ?? '').trim();
    if (text.length > MAX_PHOTO_CAPTION) throw Invalid.field('caption', `must be at most ${MAX_PHOTO_CAPTION} characters`);
    return this.uow.run(async () => {
      await this.albums.lock(albumId);
      const album = await this.ownAlbum(actor, albumId);
      if (album.photos_count >= MAX_ALBUM_PHOTOS) throw new Conflict(`An album holds at most ${MAX_ALBUM_PHOTOS} photos`, 'album_full');
      return this.albums.addPhoto({
        album_id: albumId,
        user_id: actor.userId,
        path: ref.path,
        caption: text,
        created_at: toTimestamp(this.clock.now()),
      });
    });
  }

  /** The owner deletes an album with its photos, in one unit. */
  async delete(actor: Actor, albumId: number): Promise<void> {
    await this.uow.run(async () => {
      await this.albums.lock(albumId);
      await this.ownAlbum(actor, albumId);
      await this.albums.delete(albumId);
    });
  }

  private async ownAlbum(actor: Actor, albumId: number): Promise<AlbumRecord> {
    const album = await this.albums.findById(albumId);
    if (!album) throw new NotFound('Album not found', 'album_not_found');
    if (album.user_id !== actor.userId) throw new Forbidden('Only the owner can change this album', 'not_album_owner');
    return album;
  }

  private async visibleOwner(actor: Actor, userId: number): Promise<UserRecord> {
    const owner = await this.users.findById(userId);
    if (!owner || owner.deleted_at || !(await this.visibility.canSeeAccount(viewerOf(actor), owner)))
      throw new NotFound('User not found', 'user_not_found');
    return owner;
  }
}
