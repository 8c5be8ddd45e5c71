import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { anAlbum, aFollow, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded, uploadedMedia } from '../support/uploads.js';

/** albums.php (spec "Events and albums"). */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const ok = (res: ApiResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body;
};
const addPhoto = (u: TestUser, albumId: number, body: Record<string, unknown>) =>
  t.api.post('albums.php', { action: 'add_photo', album_id: albumId, ...body }, { token: u.token });
let n = 0;
/** A file where upload.php (type album) would have stored it, as `owner`'s upload; returns its bare name. */
async function albumFile(owner: TestUser): Promise<string> {
  const name = `album_f${Date.now().toString(36)}${n++}.jpg`;
  await placeUploaded(t, name, owner);
  return name;
}

describe('albums.php', () => {
  it('creates an album, adds uploaded photos, shows it with its photos and lists own albums', async () => {
    const me = await aUser(t.api);
    const created = ok(await t.api.post('albums.php', { title: 'Cortège', description: 'Le 1er mai' }, { token: me.token }));
    expect(created.data).toEqual({
      id: created.id,
      user_id: me.id,
      username: me.username,
      avatar: 'default.svg',
      title: 'Cortège',
      description: 'Le 1er mai',
      photos_count: 0,
      cover: null,
      created_at: expect.stringMatching(TIME),
      updated_at: null,
    });
    const uploaded = await uploadedMedia(t.api, me, 'album');
    const first = ok(await addPhoto(me, created.id, { photo: uploaded.filename, caption: 'La banderole' }));
    expect(first.data).toEqual({
      id: first.id,
      album_id: created.id,
      user_id: me.id,
      path: `uploads/albums/${uploaded.filename}`,
      caption: 'La banderole',
      created_at: expect.stringMatching(TIME),
    });
    const second = await albumFile(me);
    ok(await addPhoto(me, created.id, { path: `uploads/albums/${second}` }));
    ok(await addPhoto(me, created.id, { media: await albumFile(me) }));
    const shown = ok(await t.api.get(`albums.php?id=${created.id}&per_page=2`, { token: me.token }));
    expect(shown.data).toMatchObject({ id: created.id, photos_count: 3, cover: `uploads/albums/${uploaded.filename}` });
    expect(shown.data.photos.map((x: { path: string }) => x.path)).toEqual([
      `uploads/albums/${uploaded.filename}`,
      `uploads/albums/${second}`,
    ]);
    expect(shown.meta).toEqual({ current_page: 1, per_page: 2, total: 3, total_pages: 2 });
    const other = await anAlbum(t.api, me);
    const mine = ok(await t.api.get('albums.php', { token: me.token }));
    expect(mine.data.map((a: { id: number }) => a.id)).toEqual([other.id, created.id]);
    expect(
      ok(await t.api.get(`albums.php?user_id=${me.id}&per_page=1&page=2`, { token: me.token })).data.map((a: { id: number }) => a.id),
    ).toEqual([created.id]);
  });

  it('refuses bad input: no title, a photo that is no album upload or was never uploaded, no photo at all', async () => {
    const me = await aUser(t.api);
    expect((await t.api.post('albums.php', { title: '' }, { token: me.token })).status).toBe(400);
    const album = await anAlbum(t.api, me);
    for (const body of [
      {},
      { photo: '../../etc/passwd' },
      { photo: 'uploads/posts/media_x1.jpg' },
      { photo: 'https://example.org/x.jpg' },
      { photo: 'album_neveruploaded.jpg' },
    ]) {
      const res = await addPhoto(me, album.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(ok(await t.api.get(`albums.php?id=${album.id}`, { token: me.token })).data.photos_count).toBe(0);
    expect((await t.api.get('albums.php?id=99999999', { token: me.token })).status).toBe(404);
    expect((await addPhoto(me, 99999999, { photo: await albumFile(me) })).status).toBe(404);
  });

  it('only the owner adds photos and deletes; the album goes with its photos', async () => {
    const [owner, other] = [await aUser(t.api), await aUser(t.api)];
    const album = await anAlbum(t.api, owner);
    ok(await addPhoto(owner, album.id, { photo: await albumFile(owner) }));
    const refused = await addPhoto(other, album.id, { photo: await albumFile(other) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_album_owner');
    const del = await t.api.delete(`albums.php?id=${album.id}`, undefined, { token: other.token });
    expect(del.status).toBe(403);
    ok(await t.api.get(`albums.php?id=${album.id}`, { token: other.token }));
    ok(await t.api.delete(`albums.php?id=${album.id}`, undefined, { token: owner.token }));
    expect((await t.api.get(`albums.php?id=${album.id}`, { token: owner.token })).status).toBe(404);
    expect(await t.database.db.selectFrom('album_photos').select('id').where('album_id', '=', album.id).execute()).toEqual([]);
    expect((await t.api.delete(`albums.php?id=${album.id}`, undefined, { token: owner.token })).status).toBe(404);
  });

  it('a private account’s albums are its followers’ only', async () => {
    const [owner, follower, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const album = await anAlbum(t.api, owner);
    await t.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', owner.id).execute();
    await aFollow(t.api, follower, owner);
    for (const q of [`albums.php?user_id=${owner.id}`, `albums.php?id=${album.id}`]) {
      expect((await t.api.get(q, { token: stranger.token })).status, q).toBe(404);
      ok(await t.api.get(q, { token: follower.token }));
    }
  });

  it('20 photos added at once are counted exactly; deleting while adding leaves nothing behind', async () => {
    const owner = await aUser(t.api);
    const album = await anAlbum(t.api, owner);
    const files = await Promise.all(Array.from({ length: 20 }, () => albumFile(owner)));
    const adds = await Promise.all(files.map((f) => addPhoto(owner, album.id, { photo: f })));
    expect(adds.filter((r) => r.status !== 200)).toEqual([]);
    expect(ok(await t.api.get(`albums.php?id=${album.id}`, { token: owner.token })).data.photos_count).toBe(20);
    const race = await Promise.all([
      ...files.slice(0, 10).map((f) => addPhoto(owner, album.id, { photo: f })),
      t.api.delete(`albums.php?id=${album.id}`, undefined, { token: owner.token }),
      ...files.slice(10).map((f) => addPhoto(owner, album.id, { photo: f })),
    ]);
    expect(race.filter((r) => r.status >= 500)).toEqual([]);
    expect(await t.database.db.selectFrom('album_photos').select('id').where('album_id', '=', album.id).execute()).toEqual([]);
  });
});
