import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aPage, aPageComment, aPagePost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded, uploadedMedia } from '../support/uploads.js';

/** pages.php (spec "Pages", Authentication 9, Errors 3–4; contract §22) and page comments in comment_reactions.php. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const post = (u: TestUser, body: Record<string, unknown>) => t.api.post('pages.php', body, { token: u.token });
const put = (u: TestUser, body: Record<string, unknown>) => t.api.put('pages.php', body, { token: u.token });
const del = (u: TestUser, body: Record<string, unknown>, query = '') => t.api.delete(`pages.php${query}`, body, { token: u.token });
const get = (u: TestUser, query: string) => t.api.get(`pages.php?${query}`, { token: u.token });
const ok = (res: ApiResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body;
};

async function pageWithTeam() {
  const [admin, editor, outsider] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
  const page = await aPage(t.api, admin);
  ok(await post(admin, { action: 'add_team_member', page_id: page.id, username: editor.username, role: 'editor' }));
  return { admin, editor, outsider, page: page.id };
}

describe('pages.php: pages, lists and details', () => {
  it('creates a page with or without action, answers its id, and shows it with the contract’s keys', async () => {
    const me = await aUser(t.api);
    const created = ok(
      await post(me, { name: 'Syndicat des locataires', description: 'Ensemble', category: 'Syndicat', website: 'https://example.org' }),
    );
    expect(created.id).toEqual(expect.any(Number));
    expect(created.page_id).toBe(created.id);
    const withAction = ok(await post(me, { action: 'create', name: 'Infokiosque', category: 'Infokiosque' }));
    expect(withAction.id).toBeGreaterThan(created.id);
    const details = ok(await get(me, `id=${created.id}`)).data;
    expect(details).toEqual({
      id: created.id,
      name: 'Syndicat des locataires',
      description: 'Ensemble',
      category: 'Syndicat',
      avatar: 'default.svg',
      cover_image: null,
      privacy: 'public',
      followers_count: 0,
      follower_count: 0,
      is_followed: false,
      user_role: 'admin',
      created_at: expect.stringMatching(TIME),
      location: '',
      website: 'https://example.org',
      social_twitter: '',
      social_mastodon: '',
      social_instagram: '',
      social_tiktok: '',
      social_facebook: '',
      social_bluesky: '',
      created_by: me.id,
      updated_at: null,
    });
    const other = await aUser(t.api);
    expect(ok(await get(other, `id=${created.id}`)).data.user_role).toBeNull();
    // Mine, newest first, paginated.
    const mine = ok(await get(me, 'page=1&per_page=1'));
    expect(mine.data.map((p: { id: number }) => p.id)).toEqual([withAction.id]);
    expect(mine.meta).toEqual({ current_page: 1, per_page: 1, total: 2, total_pages: 2 });
    expect(ok(await get(me, 'page=2&per_page=1')).data.map((p: { id: number }) => p.id)).toEqual([created.id]);
    expect(ok(await get(other, '')).data).toEqual([]);
  });

  it('refuses bad input with 4xx: no name, a bad website, an avatar that is no upload, an unknown id', async () => {
    const me = await aUser(t.api);
    for (const body of [
      { name: '' },
      { name: '   ' },
      { name: 'x', website: 'javascript:alert(1)' },
      { name: 'x', avatar: '../../etc/passwd' },
      { name: 'x', privacy: 'secret' },
    ]) {
      const res = await post(me, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await get(me, 'id=99999999')).status).toBe(404);
    expect((await post(me, { action: 'follow', page_id: 99999999 })).status).toBe(404);
  });

  it('discovers public pages one neither follows nor runs, filtered by q, and lists followed pages', async () => {
    const [owner, reader] = [await aUser(t.api), await aUser(t.api)];
    const tag = `z${Date.now().toString(36)}`;
    const a = await aPage(t.api, owner, { name: `${tag} Alpha` });
    const b = await aPage(t.api, owner, { name: `${tag} Beta` });
    const hidden = await aPage(t.api, owner, { name: `${tag} Hidden`, privacy: 'private' });
    const found = ok(await get(reader, `discover=1&q=${tag}`));
    expect(found.data.map((p: { id: number }) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.data[0]).toMatchObject({ is_followed: false, followers_count: 0, user_role: null });
    expect(ok(await get(owner, `discover=1&q=${tag}`)).data).toEqual([]);
    ok(await post(reader, { action: 'follow', page_id: b.id }));
    expect(ok(await get(reader, `discover=1&q=${tag}`)).data.map((p: { id: number }) => p.id)).toEqual([a.id]);
    const followed = ok(await get(reader, 'followed=1'));
    expect(followed.data).toHaveLength(1);
    expect(followed.data[0]).toMatchObject({ id: b.id, is_followed: true, followers_count: 1, follower_count: 1 });
    expect((await get(reader, `discover=1&q=${tag} Hidden`)).body.data).toEqual([]);
    expect(hidden.id).toBeGreaterThan(0);
  });
});

describe('pages.php: follows and followers', () => {
  it('follows once, unfollows by POST, by DELETE with page_id (body or query) and by DELETE action=unfollow', async () => {
    const [owner, fan] = [await aUser(t.api), await aUser(t.api)];
    const page = await aPage(t.api, owner);
    const first = ok(await post(fan, { action: 'follow', page_id: page.id }));
    expect(first).toMatchObject({ page_id: page.id, is_followed: true, followers_count: 1 });
    expect(ok(await post(fan, { action: 'follow', page_id: page.id })).followers_count).toBe(1);
    expect(ok(await get(fan, `id=${page.id}`)).data).toMatchObject({ is_followed: true, followers_count: 1 });
    expect(ok(await post(fan, { action: 'unfollow', page_id: page.id }))).toMatchObject({ is_followed: false, followers_count: 0 });
    ok(await post(fan, { action: 'follow', page_id: page.id }));
    expect(ok(await del(fan, { page_id: page.id })).followers_count).toBe(0);
    ok(await post(fan, { action: 'follow', page_id: page.id }));
    expect(ok(await del(fan, {}, `?page_id=${page.id}`)).followers_count).toBe(0);
    ok(await post(fan, { action: 'follow', page_id: page.id }));
    expect(ok(await del(fan, { action: 'unfollow', page_id: page.id })).followers_count).toBe(0);
    expect((await del(fan, {})).status).toBe(400);
  });

  it('lists followers with the contract’s keys; only admins remove one', async () => {
    const { admin, editor, page } = await pageWithTeam();
    const fan = await aUser(t.api);
    ok(await post(fan, { action: 'follow', page_id: page }));
    const followers = ok(await get(fan, `path=${page}/followers`));
    expect(followers.data).toEqual([
      { id: fan.id, user_id: fan.id, username: fan.username, avatar: 'default.svg', cause: '', followed_at: expect.stringMatching(TIME) },
    ]);
    expect(followers.meta.total).toBe(1);
    const refused = await del(editor, { action: 'remove_follower', page_id: page, user_id: fan.id });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_page_admin');
    expect(ok(await del(admin, { action: 'remove_follower', page_id: page, user_id: fan.id })).followers_count).toBe(0);
    expect((await del(admin, { action: 'remove_follower', page_id: page, user_id: fan.id })).status).toBe(404);
  });
});

describe('pages.php: page posts (spec "Page post (create)", Errors 3 and 4)', () => {
  it('lets admins and editors publish, with the contract’s item keys (like_count, comment_count, bare media)', async () => {
    const { admin, editor, outsider, page } = await pageWithTeam();
    const text = ok(await post(admin, { action: 'create_post', page_id: page, content: 'Assemblée jeudi' }));
    await placeUploaded(t, 'uploads/posts/media_ab12.jpg', editor);
    await placeUploaded(t, 'uploads/posts/media_v1.mp4', editor);
    expect(text.id).toEqual(expect.any(Number));
    const media = ok(await post(editor, { action: 'create_post', page_id: page, media: 'uploads/posts/media_ab12.jpg' }));
    expect(media.data).toEqual({
      id: media.id,
      page_id: page,
      user_id: editor.id,
      username: editor.username,
      avatar: 'default.svg',
      content: '',
      media: 'media_ab12.jpg',
      media_type: 'image',
      like_count: 0,
      comment_count: 0,
      user_reaction: '',
      type: 'page',
      created_at: expect.stringMatching(TIME),
      updated_at: null,
    });
    expect(ok(await post(editor, { action: 'create_post', page_id: page, content: 'clip', media: 'media_v1.mp4' })).data.media_type).toBe(
      'video',
    );
    const listed = ok(await get(outsider, `path=${page}/posts&per_page=2`));
    expect(listed.data.map((p: { id: number }) => p.id)).toHaveLength(2);
    expect(listed.meta).toEqual({ current_page: 1, per_page: 2, total: 3, total_pages: 2 });
    expect(ok(await get(outsider, `path=${page}/posts&page=2&per_page=2`)).data.map((p: { id: number }) => p.id)).toEqual([text.id]);
  });

  it('Error 3: a page post with neither content nor media is invalid', async () => {
    const { admin, page } = await pageWithTeam();
    for (const body of [{}, { content: '' }, { content: '   ', media: '' }, { content: null, media: null }]) {
      const res = await post(admin, { action: 'create_post', page_id: page, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'empty_post' });
    }
    expect((await post(admin, { action: 'create_post', page_id: page, media: 'https://tracker.example/pixel.gif' })).status).toBe(400);
    // Well formed, but no file upload.php stored.
    const missing = await post(admin, { action: 'create_post', page_id: page, media: 'media_neveruploaded.jpg' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('invalid_media');
    // A file uploaded through upload.php is accepted, by its bare name.
    const file = await uploadedMedia(t.api, admin, 'posts');
    expect(ok(await post(admin, { action: 'create_post', page_id: page, media: file.filename })).data.media).toBe(file.filename);
    await del(admin, { action: 'delete_post', post_id: ok(await get(admin, `path=${page}/posts`)).data[0].id });
    expect(ok(await get(admin, `path=${page}/posts`)).data).toEqual([]);
  });

  it('Error 4: create_post by a caller not in page_admins is refused (a follower, a former member)', async () => {
    const { admin, outsider, page } = await pageWithTeam();
    ok(await post(outsider, { action: 'follow', page_id: page }));
    const res = await post(outsider, { action: 'create_post', page_id: page, content: 'let me in' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'not_page_admin' });
    // Removed from the team, one can no longer publish.
    const former = await aUser(t.api);
    ok(await post(admin, { action: 'add_team_member', page_id: page, username: former.username, role: 'editor' }));
    ok(await post(former, { action: 'create_post', page_id: page, content: 'while on the team' }));
    ok(await del(admin, { action: 'remove_team_member', page_id: page, user_id: former.id }));
    expect((await post(former, { action: 'create_post', page_id: page, content: 'after' })).status).toBe(403);
    expect(ok(await get(admin, `path=${page}/posts`)).data).toHaveLength(1);
  });

  it('edits: the author only; deletes: the author, the page’s admins; not an editor or a stranger', async () => {
    const { admin, editor, outsider, page } = await pageWithTeam();
    const byEditor = await aPagePost(t.api, editor, page);
    const byAdmin = await aPagePost(t.api, admin, page);
    expect(ok(await put(editor, { action: 'update_post', post_id: byEditor.id, content: 'corrected' })).data).toMatchObject({
      content: 'corrected',
      updated_at: expect.stringMatching(TIME),
    });
    expect((await put(admin, { action: 'update_post', post_id: byEditor.id, content: 'hijack' })).status).toBe(403);
    expect((await put(outsider, { action: 'update_post', post_id: byEditor.id, content: 'hijack' })).status).toBe(403);
    expect((await del(editor, { action: 'delete_post', post_id: byAdmin.id })).status).toBe(403);
    expect((await del(outsider, { action: 'delete_post', post_id: byAdmin.id })).status).toBe(403);
    ok(await del(admin, { action: 'delete_post', post_id: byEditor.id }));
    ok(await del(admin, { action: 'delete_post', post_id: byAdmin.id }));
    expect((await del(admin, { action: 'delete_post', post_id: byAdmin.id })).status).toBe(404);
  });

  it('deletes a post with its reactions, comments and the comments’ reactions, in one unit', async () => {
    const { admin, outsider, page } = await pageWithTeam();
    const p = await aPagePost(t.api, admin, page);
    ok(await post(outsider, { action: 'react', post_id: p.id, type: 'love' }));
    const c = await aPageComment(t.api, outsider, p.id);
    ok(
      await t.api.post('comment_reactions.php', { comment_id: c.id, comment_type: 'page', reaction_type: 'like' }, { token: admin.token }),
    );
    ok(await del(admin, { action: 'delete_post', post_id: p.id }));
    const db = t.database.db;
    expect(await db.selectFrom('page_posts').select('id').where('id', '=', p.id).execute()).toEqual([]);
    expect(await db.selectFrom('page_post_reactions').select('user_id').where('post_id', '=', p.id).execute()).toEqual([]);
    expect(await db.selectFrom('page_comments').select('id').where('post_id', '=', p.id).execute()).toEqual([]);
    expect(
      await db
        .selectFrom('comment_reactions')
        .select('user_id')
        .where('comment_type', '=', 'page')
        .where('comment_id', '=', c.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('pages.php: reactions and comments', () => {
  it('react takes the key `type`, answers 200 exactly, changes and takes back a reaction', async () => {
    const { admin, outsider, page } = await pageWithTeam();
    const p = await aPagePost(t.api, admin, page);
    const first = await post(outsider, { action: 'react', post_id: p.id, type: 'love' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, post_id: p.id, like_count: 1, user_reaction: 'love' });
    expect(ok(await post(admin, { action: 'react', post_id: p.id })).user_reaction).toBe('like');
    expect(ok(await post(outsider, { action: 'react', post_id: p.id, type: 'wow' }))).toMatchObject({
      like_count: 2,
      user_reaction: 'wow',
    });
    expect(ok(await get(outsider, `path=${page}/posts`)).data[0]).toMatchObject({ like_count: 2, user_reaction: 'wow' });
    expect(ok(await post(outsider, { action: 'react', post_id: p.id, type: 'wow' }))).toMatchObject({ like_count: 1, user_reaction: '' });
    expect(ok(await get(outsider, `path=${page}/posts`)).data[0]).toMatchObject({ like_count: 1, user_reaction: '' });
    expect((await post(outsider, { action: 'react', post_id: p.id, type: 'thumbs_up' })).status).toBe(400);
    expect((await post(outsider, { action: 'react', post_id: 99999999, type: 'like' })).status).toBe(404);
  });

  it('comments with the contract’s keys (user_avatar), counted on the post; edits by the author only', async () => {
    const { admin, editor, outsider, page } = await pageWithTeam();
    const p = await aPagePost(t.api, admin, page);
    const c = ok(await post(outsider, { action: 'comment', post_id: p.id, content: 'On sera là' }));
    expect(c.id).toEqual(expect.any(Number));
    const list = ok(await get(admin, `path=${page}/comments/${p.id}`));
    expect(list.data).toEqual([
      {
        id: c.id,
        post_id: p.id,
        user_id: outsider.id,
        username: outsider.username,
        user_avatar: 'default.svg',
        avatar: 'default.svg',
        content: 'On sera là',
        reactions_count: 0,
        has_reacted: false,
        created_at: expect.stringMatching(TIME),
        updated_at: null,
      },
    ]);
    expect(ok(await get(admin, `path=${page}/posts`)).data[0].comment_count).toBe(1);
    expect((await post(outsider, { action: 'comment', post_id: p.id, content: '  ' })).status).toBe(400);
    expect(ok(await put(outsider, { action: 'update_comment', comment_id: c.id, content: 'edited' })).data.content).toBe('edited');
    expect((await put(admin, { action: 'update_comment', comment_id: c.id, content: 'hijack' })).status).toBe(403);
    // The post's path must name the post's page.
    const otherPage = await aPage(t.api, admin);
    expect((await get(admin, `path=${otherPage.id}/comments/${p.id}`)).status).toBe(404);
    // Deleting: a stranger no; the page's team (an editor) and the author yes.
    const stranger = await aUser(t.api);
    expect((await del(stranger, { action: 'delete_comment', comment_id: c.id })).status).toBe(403);
    ok(await del(editor, { action: 'delete_comment', comment_id: c.id }));
    const mine = await aPageComment(t.api, outsider, p.id);
    ok(await del(outsider, { action: 'delete_comment', comment_id: mine.id }));
    expect(ok(await get(admin, `path=${page}/posts`)).data[0].comment_count).toBe(0);
    expect((await del(outsider, { action: 'delete_comment', comment_id: mine.id })).status).toBe(404);
  });

  it('comment_reactions.php reaches page comments (comment_type page, their own id space)', async () => {
    const { admin, outsider, page } = await pageWithTeam();
    const p = await aPagePost(t.api, admin, page);
    const c = await aPageComment(t.api, admin, p.id);
    const r = ok(
      await t.api.post(
        'comment_reactions.php',
        { comment_id: c.id, comment_type: 'page', reaction_type: 'like' },
        { token: outsider.token },
      ),
    );
    expect(r).toMatchObject({ comment_id: c.id, reactions_count: 1, has_reacted: true });
    ok(
      await t.api.post(
        'comment_reactions.php',
        { comment_id: c.id, comment_type: 'page', reaction_type: 'love' },
        { token: outsider.token },
      ),
    );
    const listed = ok(await get(outsider, `path=${page}/comments/${p.id}`)).data[0];
    expect(listed).toMatchObject({ reactions_count: 1, has_reacted: true });
    const who = ok(await t.api.get(`comment_reactions.php?comment_id=${c.id}&comment_type=page`, { token: admin.token }));
    expect(who.count).toBe(1);
    // The author is told of the reaction and of its change (the one reaction rule, issue 28), with a link to the page.
    const n = await t.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', admin.id)
      .where('type', '=', 'reaction')
      .where('comment_id', '=', c.id)
      .orderBy('id')
      .execute();
    expect(n).toHaveLength(2);
    expect(n[0]).toMatchObject({ from_user_id: outsider.id, post_id: null, link: `page_detail.php?id=${page}`, reaction_type: 'like' });
    expect(n[1]).toMatchObject({ from_user_id: outsider.id, post_id: null, link: `page_detail.php?id=${page}`, reaction_type: 'love' });
    expect(
      ok(await t.api.delete(`comment_reactions.php?comment_id=${c.id}&comment_type=page`, undefined, { token: outsider.token })),
    ).toMatchObject({ removed: true, reactions_count: 0 });
    expect(ok(await get(outsider, `path=${page}/comments/${p.id}`)).data[0]).toMatchObject({ reactions_count: 0, has_reacted: false });
    expect(
      (
        await t.api.post(
          'comment_reactions.php',
          { comment_id: 99999999, comment_type: 'page', reaction_type: 'like' },
          { token: outsider.token },
        )
      ).status,
    ).toBe(404);
  });
});

describe('pages.php: the team (page_admins, roles admin and editor)', () => {
  it('adds by username, changes roles, lists admins first, keeps the last admin', async () => {
    const { admin, editor, outsider, page } = await pageWithTeam();
    const team = ok(await get(outsider, `path=${page}/team`));
    expect(team.data).toEqual([
      { user_id: admin.id, username: admin.username, avatar: 'default.svg', role: 'admin', added_at: expect.stringMatching(TIME) },
      { user_id: editor.id, username: editor.username, avatar: 'default.svg', role: 'editor', added_at: expect.stringMatching(TIME) },
    ]);
    expect(ok(await get(editor, `id=${page}`)).data.user_role).toBe('editor');
    expect((await post(admin, { action: 'add_team_member', page_id: page, username: editor.username, role: 'admin' })).status).toBe(409);
    expect((await post(admin, { action: 'add_team_member', page_id: page, username: 'nobody_by_that_name', role: 'editor' })).status).toBe(
      404,
    );
    expect((await post(admin, { action: 'add_team_member', page_id: page, username: outsider.username, role: 'owner' })).status).toBe(400);
    // Editors do not manage the team or the page.
    for (const body of [
      { action: 'add_team_member', page_id: page, username: outsider.username, role: 'editor' },
      { action: 'update_team_role', page_id: page, user_id: editor.id, role: 'admin' },
      { action: 'update_page', page_id: page, name: 'Taken over' },
    ]) {
      const res = await post(editor, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
    }
    expect((await del(editor, { action: 'remove_team_member', page_id: page, user_id: admin.id })).status).toBe(403);
    // The last admin can neither step down nor be removed.
    const last = await post(admin, { action: 'update_team_role', page_id: page, user_id: admin.id, role: 'editor' });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('last_admin');
    expect((await del(admin, { action: 'remove_team_member', page_id: page, user_id: admin.id })).body.code).toBe('last_admin');
    expect(ok(await post(admin, { action: 'update_team_role', page_id: page, user_id: editor.id, role: 'admin' })).role).toBe('admin');
    ok(await del(admin, { action: 'remove_team_member', page_id: page, user_id: admin.id }));
    expect(ok(await get(editor, `path=${page}/team`)).data.map((m: { user_id: number; role: string }) => [m.user_id, m.role])).toEqual([
      [editor.id, 'admin'],
    ]);
    // An editor may leave on their own.
    ok(await post(editor, { action: 'add_team_member', page_id: page, username: outsider.username, role: 'editor' }));
    ok(await del(outsider, { action: 'remove_team_member', page_id: page, user_id: outsider.id }));
    expect((await del(editor, { action: 'remove_team_member', page_id: page, user_id: outsider.id })).status).toBe(404);
  });

  it('update_page by an admin changes only the fields sent', async () => {
    const { admin, outsider, page } = await pageWithTeam();
    const updated = ok(
      await post(admin, {
        action: 'update_page',
        page_id: page,
        description: 'Nouvelle description',
        location: 'Lyon',
        social_mastodon: '@collectif@example.org',
        privacy: 'public',
      }),
    ).data;
    expect(updated).toMatchObject({
      description: 'Nouvelle description',
      location: 'Lyon',
      social_mastodon: '@collectif@example.org',
      category: 'Collectif',
      updated_at: expect.stringMatching(TIME),
    });
    expect((await post(outsider, { action: 'update_page', page_id: page, description: 'x' })).status).toBe(403);
    expect((await post(admin, { action: 'update_page', page_id: page, name: '' })).status).toBe(400);
  });
});

describe('pages.php: site moderators', () => {
  it('remove posts and comments of a public page, but neither publish nor run it, nor see a private page', async () => {
    const { admin, outsider, page } = await pageWithTeam();
    const mod = await aUser(t.api);
    await t.database.db.updateTable('users').set({ is_moderator: 1 }).where('id', '=', mod.id).execute();
    const p1 = await aPagePost(t.api, admin, page);
    const c = await aPageComment(t.api, outsider, p1.id);
    expect((await post(mod, { action: 'create_post', page_id: page, content: 'x' })).status).toBe(403);
    expect((await post(mod, { action: 'update_page', page_id: page, description: 'x' })).status).toBe(403);
    expect((await put(mod, { action: 'update_post', post_id: p1.id, content: 'x' })).status).toBe(403);
    ok(await del(mod, { action: 'delete_comment', comment_id: c.id }));
    ok(await del(mod, { action: 'delete_post', post_id: p1.id }));
    ok(await post(admin, { action: 'update_page', page_id: page, privacy: 'private' }));
    expect((await get(mod, `id=${page}`)).status).toBe(404);
  });
});

describe('pages.php: a private page is its team’s only', () => {
  it('is a 404 to others everywhere: details, posts, comments, followers, follow, react, comment, comment reactions', async () => {
    const { admin, editor, outsider, page } = await pageWithTeam();
    const p = await aPagePost(t.api, editor, page);
    const c = await aPageComment(t.api, admin, p.id);
    ok(await post(outsider, { action: 'follow', page_id: page }));
    ok(await post(admin, { action: 'update_page', page_id: page, privacy: 'private' }));
    for (const q of [`id=${page}`, `path=${page}/posts`, `path=${page}/comments/${p.id}`, `path=${page}/followers`, `path=${page}/team`]) {
      expect((await get(outsider, q)).status, q).toBe(404);
      ok(await get(editor, q));
    }
    expect((await post(outsider, { action: 'react', post_id: p.id, type: 'like' })).status).toBe(404);
    expect((await post(outsider, { action: 'comment', post_id: p.id, content: 'hello' })).status).toBe(404);
    expect((await post(outsider, { action: 'follow', page_id: page })).status).toBe(404);
    expect(
      (
        await t.api.post(
          'comment_reactions.php',
          { comment_id: c.id, comment_type: 'page', reaction_type: 'like' },
          { token: outsider.token },
        )
      ).status,
    ).toBe(404);
    // A follower keeps the follow row, but the list no longer shows the page; unfollowing still works.
    expect(ok(await get(outsider, 'followed=1')).data.map((x: { id: number }) => x.id)).not.toContain(page);
    ok(await post(outsider, { action: 'unfollow', page_id: page }));
    // Public again: visible again.
    ok(await post(admin, { action: 'update_page', page_id: page, privacy: 'public' }));
    ok(await get(outsider, `path=${page}/posts`));
  });
});

describe('pages.php: concurrent follows and reactions', () => {
  it('20 follows and 20 reactions at once leave exact counts', async () => {
    const owner = await aUser(t.api);
    const page = await aPage(t.api, owner);
    const p = await aPagePost(t.api, owner, page);
    const fans = await Promise.all(Array.from({ length: 20 }, () => aUser(t.api)));
    for (let round = 0; round < 2; round++) {
      const follows = await Promise.all(
        fans.flatMap((f) => [post(f, { action: 'follow', page_id: page.id }), post(f, { action: 'follow', page_id: page.id })]),
      );
      expect(follows.filter((r) => r.status >= 500)).toEqual([]);
      const reacts = await Promise.all(fans.map((f) => post(f, { action: 'react', post_id: p.id, type: 'like' })));
      expect(reacts.filter((r) => r.status !== 200)).toEqual([]);
      const row = await t.database.db.selectFrom('pages').select('followers_count').where('id', '=', page.id).executeTakeFirstOrThrow();
      expect(Number(row.followers_count)).toBe(20);
      const likes = await t.database.db.selectFrom('page_posts').select('like_count').where('id', '=', p.id).executeTakeFirstOrThrow();
      // Round 0 adds 20 reactions; round 1 (the same reaction again) takes them all back.
      expect(Number(likes.like_count)).toBe(round === 0 ? 20 : 0);
      const rows = await t.database.db.selectFrom('page_post_reactions').select('user_id').where('post_id', '=', p.id).execute();
      expect(rows).toHaveLength(round === 0 ? 20 : 0);
    }
    // One user's 20 identical reactions at once: toggled one after another, an even number leaves none.
    const one = fans[0];
    const same = await Promise.all(Array.from({ length: 20 }, () => post(one, { action: 'react', post_id: p.id, type: 'love' })));
    expect(same.filter((r) => r.status !== 200)).toEqual([]);
    expect(
      Number(
        (await t.database.db.selectFrom('page_posts').select('like_count').where('id', '=', p.id).executeTakeFirstOrThrow()).like_count,
      ),
    ).toBe(0);
    // 20 concurrent comment reactions on one page comment.
    const c = await aPageComment(t.api, owner, p.id);
    const cr = await Promise.all(
      fans.map((f) =>
        t.api.post('comment_reactions.php', { comment_id: c.id, comment_type: 'page', reaction_type: 'like' }, { token: f.token }),
      ),
    );
    expect(cr.filter((r) => r.status !== 200)).toEqual([]);
    const count = await t.database.db
      .selectFrom('page_comments')
      .select('reactions_count')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.reactions_count)).toBe(20);
    const notes = await t.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', owner.id)
      .where('type', '=', 'reaction')
      .where('comment_id', '=', c.id)
      .execute();
    expect(notes).toHaveLength(20);
  });

  it('two admins stepping down at once leave one admin', async () => {
    const { admin, editor, page } = await pageWithTeam();
    ok(await post(admin, { action: 'update_team_role', page_id: page, user_id: editor.id, role: 'admin' }));
    const answers = await Promise.all([
      del(admin, { action: 'remove_team_member', page_id: page, user_id: admin.id }),
      del(editor, { action: 'remove_team_member', page_id: page, user_id: editor.id }),
      post(admin, { action: 'update_team_role', page_id: page, user_id: admin.id, role: 'editor' }),
      post(editor, { action: 'update_team_role', page_id: page, user_id: editor.id, role: 'editor' }),
    ]);
    expect(answers.filter((r) => r.status >= 500)).toEqual([]);
    const admins = await t.database.db
      .selectFrom('page_admins')
      .select('user_id')
      .where('page_id', '=', page)
      .where('role', '=', 'admin')
      .execute();
    expect(admins).toHaveLength(1);
  });
});
