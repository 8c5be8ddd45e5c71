import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anAlbum, aPage, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { uploadedMedia } from '../support/uploads.js';

/** Owned uploads (issue 27 item 3, docs/decisions/0114): references name the caller's uploads; the collection job. */
let t: TestServer;
const clock = new ManualClock('2026-06-01T08:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });
const onDisk = (url: string) => existsSync(join(t.uploadsPath, url.replace(/^uploads\//, '')));
const uploadRow = (path: string) => t.database.db.selectFrom('uploads').selectAll().where('path', '=', path).executeTakeFirst();

describe('media references name the caller’s own uploads', () => {
  it('albums.php add_photo refuses another user’s upload (400 media_not_yours, nothing added) and takes one’s own', async () => {
    const [owner, thief] = [await aUser(t.api), await aUser(t.api)];
    const theirs = await uploadedMedia(t.api, owner, 'album');
    const album = await anAlbum(t.api, thief);
    for (const photo of [theirs.filename, theirs.url]) {
      const refused = await t.api.post('albums.php', { action: 'add_photo', album_id: album.id, photo }, as(thief));
      expect(refused.status, photo).toBe(400);
      expect(refused.body).toMatchObject({ success: false, code: 'media_not_yours', details: [{ field: 'photo' }] });
    }
    expect((await t.api.get(`albums.php?id=${album.id}`, as(thief))).body.data.photos_count).toBe(0);
    expect((await uploadRow(theirs.url))?.referenced_at).toBeNull();
    const mine = await uploadedMedia(t.api, thief, 'album');
    const added = await t.api.post('albums.php', { action: 'add_photo', album_id: album.id, photo: mine.filename }, as(thief));
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(await uploadRow(mine.url)).toMatchObject({ owner_id: thief.id, type: 'album', referenced_at: expect.any(String) });
  });

  it('posts.php refuses another user’s media, and a reference of another upload type', async () => {
    const [owner, thief] = [await aUser(t.api), await aUser(t.api)];
    const theirs = await uploadedMedia(t.api, owner, 'posts');
    const before = (await t.database.db.selectFrom('posts').select('id').where('user_id', '=', thief.id).execute()).length;
    const refused = await t.api.post('posts.php', { content: 'mine now', media: [theirs.filename] }, as(thief));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'media_not_yours', details: [{ field: 'media' }] });
    expect((await t.database.db.selectFrom('posts').select('id').where('user_id', '=', thief.id).execute()).length).toBe(before);
    // An avatar upload is no post media, even one's own.
    const avatar = await uploadedMedia(t.api, thief, 'avatar');
    expect((await t.api.post('posts.php', { media: [avatar.filename] }, as(thief))).body).toMatchObject({ code: 'invalid_media' });
    const mine = await uploadedMedia(t.api, thief, 'posts');
    const posted = await t.api.post('posts.php', { content: 'mine', media: [mine.filename] }, as(thief));
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data.media).toEqual([mine.url]);
  });

  it('a profile avatar must be one’s own avatar upload; the placeholder stays accepted', async () => {
    const [owner, thief] = [await aUser(t.api), await aUser(t.api)];
    const theirs = await uploadedMedia(t.api, owner, 'avatar');
    const refused = await t.api.put('users.php', { avatar: theirs.url }, as(thief));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'media_not_yours', details: [{ field: 'avatar' }] });
    const post = await uploadedMedia(t.api, thief, 'posts');
    expect((await t.api.put('users.php', { avatar: post.filename }, as(thief))).body).toMatchObject({
      code: 'invalid_media',
      details: [{ field: 'avatar' }],
    });
    const profile = await t.api.get(`users.php?id=${thief.id}`, as(thief));
    expect(profile.body.avatar).not.toBe(theirs.url);
    const mine = await uploadedMedia(t.api, thief, 'avatar');
    expect((await t.api.put('users.php', { avatar: mine.url }, as(thief))).status).toBe(200);
    expect((await t.api.put('users.php', { avatar: 'default.svg' }, as(thief))).status).toBe(200);
  });

  it('a page takes an image or a post file a teammate uploaded, not an outsider’s', async () => {
    const [admin, editor, outsider] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const page = await aPage(t.api, admin);
    const added = await t.api.post(
      'pages.php',
      { action: 'add_team_member', page_id: page.id, username: editor.username, role: 'editor' },
      as(admin),
    );
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
    const editorsImage = await uploadedMedia(t.api, editor, 'page');
    const outsidersImage = await uploadedMedia(t.api, outsider, 'page');
    const refused = await t.api.post('pages.php', { action: 'update_page', page_id: page.id, avatar: outsidersImage.filename }, as(admin));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'media_not_yours', details: [{ field: 'avatar' }] });
    const updated = await t.api.post('pages.php', { action: 'update_page', page_id: page.id, avatar: editorsImage.filename }, as(admin));
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.avatar).toBe(editorsImage.filename);
    // A post on the page with the admin's file, by the editor.
    const adminsFile = await uploadedMedia(t.api, admin, 'posts');
    const post = await t.api.post('pages.php', { action: 'create_post', page_id: page.id, media: adminsFile.filename }, as(editor));
    expect(post.status, JSON.stringify(post.body)).toBeLessThan(300);
    // Outside the page, the same file is still the admin's alone.
    expect((await t.api.post('posts.php', { media: [adminsFile.filename] }, as(editor))).body).toMatchObject({ code: 'media_not_yours' });
  });

  it('a group takes an image another admin uploaded, not a plain member’s', async () => {
    const [alice, bob, member] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (
      await t.api.post('groups.php', { action: 'create', name: `Owned ${Date.now()}`, description: 'x', privacy: 'public' }, as(alice))
    ).body;
    const groupId = g.group_id ?? g.id ?? g.data?.id;
    for (const u of [bob, member])
      expect((await t.api.post('groups.php', { action: 'join', group_id: groupId }, as(u))).status).toBeLessThan(300);
    expect(
      (await t.api.post('groups.php', { action: 'promote_member', group_id: groupId, user_id: bob.id }, as(alice))).status,
    ).toBeLessThan(300);
    const bobs = await uploadedMedia(t.api, bob, 'group');
    const members = await uploadedMedia(t.api, member, 'group');
    expect((await t.api.put('groups.php', { id: groupId, avatar: members.filename }, as(alice))).body).toMatchObject({
      code: 'media_not_yours',
    });
    const res = await t.api.put('groups.php', { id: groupId, avatar: bobs.filename }, as(alice));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.avatar).toBe(bobs.filename);
  });
});

describe('the collect-uploads job', () => {
  it('removes an unreferenced upload older than API_UPLOAD_ORPHAN_HOURS, keeps a referenced one and a young one', async () => {
    const u = await aUser(t.api);
    const orphan = await uploadedMedia(t.api, u, 'posts');
    const used = await uploadedMedia(t.api, u, 'posts');
    expect((await t.api.post('posts.php', { media: [used.filename] }, as(u))).status).toBe(200);
    clock.advance(24 * 3600_000 + 60_000);
    const young = await uploadedMedia(t.api, u, 'posts');
    const report = (await t.runJob('collect-uploads')) as { orphans: number; erased: number; failures: unknown[] };
    expect(report.orphans).toBeGreaterThanOrEqual(1);
    expect(report.failures).toEqual([]);
    expect(onDisk(orphan.url)).toBe(false);
    expect(await uploadRow(orphan.url)).toBeUndefined();
    for (const kept of [used, young]) {
      expect(onDisk(kept.url), kept.url).toBe(true);
      expect(await uploadRow(kept.url), kept.url).toBeDefined();
    }
    // A collected upload can no longer be referenced.
    expect((await t.api.post('posts.php', { media: [orphan.filename] }, as(u))).body).toMatchObject({ code: 'invalid_media' });
    // The referenced post still shows its file.
    expect((await t.api.get(`posts.php?user_id=${u.id}`, as(u))).status).toBe(200);
  });

  it('a reference racing the collection either wins (the file stays) or is refused (the file goes), 20 at once', async () => {
    const u = await aUser(t.api);
    const files = [];
    for (let i = 0; i < 20; i++) files.push(await uploadedMedia(t.api, u, 'posts'));
    clock.advance(25 * 3600_000);
    const [, ...posts] = await Promise.all([
      t.runJob('collect-uploads'),
      ...files.map((f) => t.api.post('posts.php', { media: [f.filename] }, as(u))),
    ]);
    for (const [i, res] of posts.entries()) {
      const file = files[i];
      if (res.status === 200) {
        expect(onDisk(file.url), file.url).toBe(true);
        expect(await uploadRow(file.url)).toMatchObject({ referenced_at: expect.any(String) });
      } else {
        expect(res.body, file.url).toMatchObject({ code: 'invalid_media' });
        expect(onDisk(file.url), file.url).toBe(false);
      }
    }
    // Whatever was left unreferenced goes with the next run; nothing referenced ever does.
    await t.runJob('collect-uploads');
    for (const [i, res] of posts.entries()) expect(onDisk(files[i].url)).toBe(res.status === 200);
  });

  it('removes the files of a deleted account, referenced or not, once the deletion committed', async () => {
    const [leaving, stays] = [await aUser(t.api), await aUser(t.api)];
    const posted = await uploadedMedia(t.api, leaving, 'posts');
    const loose = await uploadedMedia(t.api, leaving, 'stories');
    const avatar = await uploadedMedia(t.api, leaving, 'avatar');
    const other = await uploadedMedia(t.api, stays, 'posts');
    expect((await t.api.post('posts.php', { media: [posted.filename] }, as(leaving))).status).toBe(200);
    expect((await t.api.put('users.php', { avatar: avatar.url }, as(leaving))).status).toBe(200);
    expect((await t.api.post('delete_account.php', { password: leaving.password }, as(leaving))).status).toBe(200);
    await t.mailSettled();
    const mail = t.mailer.sent.findLast((m) => m.to === leaving.email)!;
    const link = /http:\/\/plaza\.test\/api\/v1\/(delete_account\.php\?token=\S+)/.exec(mail.text)![1];
    expect((await t.api.get(link)).status).toBe(200);
    // Marked in the deletion's transaction; the files go with the next run.
    expect(await uploadRow(posted.url)).toMatchObject({ erased_at: expect.any(String) });
    const report = (await t.runJob('collect-uploads')) as { erased: number };
    expect(report.erased).toBe(3);
    for (const gone of [posted, loose, avatar]) {
      expect(onDisk(gone.url), gone.url).toBe(false);
      expect(await uploadRow(gone.url)).toBeUndefined();
    }
    expect(onDisk(other.url)).toBe(true);
  });
});
