import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPage, aPageComment, aPagePost, anAlbum, anEvent, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/** The pages, events and albums contexts' shares of an account (docs/decisions/0093): export and deletion. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function deletionLink(u: TestUser): Promise<string> {
  const res = await t.api.post('delete_account.php', { password: u.password }, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await t.mailSettled();
  const mail = t.mailer.sent.findLast((m) => m.to === u.email)!;
  const url = /(http:\/\/plaza\.test\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
  return url.replace('http://plaza.test/api/v1/', '');
}

/** `a` with something in every section of the three contexts, and `b` around it; `n` numbers a's files (each is one account's upload). */
async function busy(n = 1) {
  const [a, b, c] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
  await placeUploaded(t, `uploads/posts/media_pageexport${n}.jpg`, a);
  await placeUploaded(t, `uploads/albums/album_export${n}.jpg`, a);
  await placeUploaded(t, `uploads/events/event_export${n}.jpg`, a);
  // a runs one page alone (it goes with a) and one with b as editor (b takes it over).
  const alone = await aPage(t.api, a, { name: 'Alone' });
  const shared = await aPage(t.api, a, { name: 'Shared' });
  await t.api.post(
    'pages.php',
    { action: 'add_team_member', page_id: shared.id, username: b.username, role: 'editor' },
    { token: a.token },
  );
  const aPost = await aPagePost(t.api, a, shared, { media: `media_pageexport${n}.jpg` });
  // a's traces on b's page: a follow, a reaction, a comment, a comment reaction.
  const bPage = await aPage(t.api, b, { name: 'B page' });
  const bPost = await aPagePost(t.api, b, bPage);
  await t.api.post('pages.php', { action: 'follow', page_id: bPage.id }, { token: a.token });
  await t.api.post('pages.php', { action: 'react', post_id: bPost.id, type: 'love' }, { token: a.token });
  await aPageComment(t.api, a, bPost, { content: 'a on b' });
  const bComment = await aPageComment(t.api, b, bPost, { content: 'b on b' });
  await t.api.post('comment_reactions.php', { comment_id: bComment.id, comment_type: 'page', reaction_type: 'like' }, { token: a.token });
  await t.api.post('comment_reactions.php', { comment_id: bComment.id, comment_type: 'page', reaction_type: 'like' }, { token: c.token });
  // Events: a organises one (b joined), and joined b's.
  const aEvent = await anEvent(t.api, a, { image: `uploads/events/event_export${n}.jpg` });
  await t.api.post('events.php', { action: 'join', event_id: aEvent.id }, { token: b.token });
  const bEvent = await anEvent(t.api, b);
  await t.api.post('events.php', { action: 'join', event_id: bEvent.id }, { token: a.token });
  await t.api.post('events.php', { action: 'invite', event_id: bEvent.id, user_id: c.id }, { token: a.token });
  // An album with a photo.
  const album = await anAlbum(t.api, a, { title: 'Export album' });
  await t.api.post('albums.php', { action: 'add_photo', album_id: album.id, photo: `album_export${n}.jpg` }, { token: a.token });
  return { a, b, c, alone, shared, aPost, bPage, bPost, bComment, aEvent, bEvent, album };
}

describe('pages, events and albums in export.php and account deletion', () => {
  it('exports the user’s pages, follows, posts, comments, reactions, events and albums, with their media', async () => {
    const x = await busy();
    const res = await fetch(`${t.url}/api/v1/export.php`, { headers: { Authorization: `Bearer ${x.a.token}` } });
    expect(res.status).toBe(200);
    const data = (await res.json()) as Record<string, any>;
    expect(data.page_team.map((r: { page_id: number; role: string }) => [r.page_id, r.role])).toEqual([
      [x.alone.id, 'admin'],
      [x.shared.id, 'admin'],
    ]);
    expect(data.page_follows).toEqual([expect.objectContaining({ page_id: x.bPage.id, page_name: 'B page' })]);
    expect(data.page_posts).toEqual([expect.objectContaining({ id: x.aPost.id, media: 'media_pageexport1.jpg' })]);
    expect(data.page_comments).toEqual([expect.objectContaining({ post_id: x.bPost.id, content: 'a on b' })]);
    expect(data.page_reactions).toEqual([expect.objectContaining({ post_id: x.bPost.id, reaction_type: 'love' })]);
    expect(data.events).toEqual([expect.objectContaining({ id: x.aEvent.id, image: 'uploads/events/event_export1.jpg' })]);
    expect(data.event_participations.map((r: { event_id: number }) => r.event_id)).toEqual([x.aEvent.id, x.bEvent.id]);
    expect(data.albums).toEqual([expect.objectContaining({ id: x.album.id, title: 'Export album', photos_count: 1 })]);
    expect(data.album_photos).toEqual([expect.objectContaining({ album_id: x.album.id, path: 'uploads/albums/album_export1.jpg' })]);
    expect(data.media).toEqual(
      expect.arrayContaining([
        { path: 'uploads/posts/media_pageexport1.jpg', source: `page_post:${x.aPost.id}` },
        { path: 'uploads/events/event_export1.jpg', source: `event:${x.aEvent.id}` },
        expect.objectContaining({ path: 'uploads/albums/album_export1.jpg' }),
      ]),
    );
  });

  it('deletes the account’s rows, repairs others’ counters and hands a shared page over', async () => {
    const x = await busy(2);
    const done = await t.api.get(await deletionLink(x.a));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const db = t.database.db;
    const rows = async (
      table:
        | 'page_admins'
        | 'page_follows'
        | 'page_posts'
        | 'page_comments'
        | 'page_post_reactions'
        | 'event_participants'
        | 'event_invites'
        | 'album_photos',
      col: 'user_id' | 'invited_by',
    ) => (await db.selectFrom(table).select(col).where(col, '=', x.a.id).execute()).length;
    for (const table of [
      'page_admins',
      'page_follows',
      'page_posts',
      'page_comments',
      'page_post_reactions',
      'event_participants',
      'album_photos',
    ] as const) {
      expect(await rows(table, 'user_id'), table).toBe(0);
    }
    expect(await rows('event_invites', 'invited_by')).toBe(0);
    expect(
      await db
        .selectFrom('comment_reactions')
        .select('comment_id')
        .where('comment_type', '=', 'page')
        .where('user_id', '=', x.a.id)
        .execute(),
    ).toEqual([]);
    expect(await db.selectFrom('albums').select('id').where('user_id', '=', x.a.id).execute()).toEqual([]);
    expect(await db.selectFrom('events').select('id').where('creator_id', '=', x.a.id).execute()).toEqual([]);
    // The page a ran alone is gone; the shared one is b's now, as admin.
    expect((await t.api.get(`pages.php?id=${x.alone.id}`, { token: x.b.token })).status).toBe(404);
    expect((await t.api.get(`pages.php?id=${x.shared.id}`, { token: x.b.token })).body.data.user_role).toBe('admin');
    // Others' counters follow.
    const bPage = (await t.api.get(`pages.php?id=${x.bPage.id}`, { token: x.b.token })).body.data;
    expect(bPage.followers_count).toBe(0);
    const bPost = (await t.api.get(`pages.php?path=${x.bPage.id}/posts`, { token: x.b.token })).body.data[0];
    expect(bPost).toMatchObject({ like_count: 0, comment_count: 1 });
    const comments = (await t.api.get(`pages.php?path=${x.bPage.id}/comments/${x.bPost.id}`, { token: x.b.token })).body.data;
    expect(comments).toEqual([expect.objectContaining({ id: x.bComment.id, reactions_count: 1 })]);
    expect((await t.api.get(`events.php?id=${x.bEvent.id}`, { token: x.b.token })).body.data.participants_count).toBe(1);
    expect((await t.api.get(`events.php?id=${x.aEvent.id}`, { token: x.b.token })).status).toBe(404);
  });
});
