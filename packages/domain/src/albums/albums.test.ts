import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { PostVisibility } from '../content/visibility.js';
import { InMemoryContentStore, InMemoryPostRepository } from '../content/testing/in-memory-content.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden, NotFound } from '../shared/errors.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { InMemoryFollowRepository } from '../social/testing/in-memory-social.js';
import { AlbumService } from './album-service.js';
import { InMemoryAlbumRepository } from './testing/in-memory-albums.js';

const page = { page: 1, perPage: 20 };

function setup() {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const repo = new InMemoryAlbumRepository();
  const uploaded = new InMemoryUploads();
  const visibility = new PostVisibility(new InMemoryPostRepository(new InMemoryContentStore(users, follows)), follows);
  const albums = new AlbumService(
    repo,
    users,
    visibility,
    new ManualClock('2026-05-01T00:00:00Z'),
    new InMemoryUnitOfWork(users, repo),
    uploaded.references,
  );
  const actor = async (): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false };
  };
  return { users, follows, repo, uploaded, albums, actor };
}

describe('AlbumService on the fakes', () => {
  it('adds uploaded photos for the owner only, and deletes the album with them', async () => {
    const { albums, repo, uploaded, actor } = setup();
    const [owner, other] = [await actor(), await actor()];
    const a = await albums.create(owner, { title: 'Manif' });
    await expect(albums.addPhoto(owner, a.album.id, 'album_p1.jpg')).rejects.toMatchObject({ code: 'invalid_media' });
    await uploaded.place('uploads/albums/album_p1.jpg', owner.userId);
    await expect(albums.addPhoto(other, a.album.id, 'album_p1.jpg')).rejects.toMatchObject({ code: 'media_not_yours' });
    await uploaded.place('uploads/albums/album_other1.jpg', other.userId);
    await expect(albums.addPhoto(other, a.album.id, 'album_other1.jpg')).rejects.toBeInstanceOf(Forbidden);
    const photo = await albums.addPhoto(owner, a.album.id, 'album_p1.jpg', ' banner ');
    expect(photo).toMatchObject({ path: 'uploads/albums/album_p1.jpg', caption: 'banner' });
    expect((await albums.details(other, a.album.id, page)).album).toMatchObject({ photos_count: 1, cover: 'uploads/albums/album_p1.jpg' });
    await expect(albums.delete(other, a.album.id)).rejects.toBeInstanceOf(Forbidden);
    await albums.delete(owner, a.album.id);
    expect(repo.photoRows).toEqual([]);
    await expect(albums.details(owner, a.album.id, page)).rejects.toBeInstanceOf(NotFound);
  });

  it('shows a private account’s albums to its followers only', async () => {
    const { albums, users, follows, actor } = setup();
    const [owner, follower, stranger] = [await actor(), await actor(), await actor()];
    const a = await albums.create(owner, { title: 'Private' });
    await users.setPrivacy(owner.userId, { is_private: true });
    await follows.follow(follower.userId, owner.userId, '2026-01-01 00:00:00');
    expect((await albums.ofUser(follower, owner.userId, page)).total).toBe(1);
    await expect(albums.ofUser(stranger, owner.userId, page)).rejects.toBeInstanceOf(NotFound);
    await expect(albums.details(stranger, a.album.id, page)).rejects.toMatchObject({ code: 'album_not_found' });
  });
});
