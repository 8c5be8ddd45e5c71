import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aComment, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function types(u: TestUser) {
  const res = await t.api.get('notifications.php?per_page=100', { token: u.token });
  return (res.body.notifications as { type: string }[]).map((n) => n.type);
}

describe('comments.php', () => {
  it('lists root comments with nested replies in the contract shape, and counts them on the post', async () => {
    const [author, a, b] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const post = (await aPost(t.api, author)).id;
    const root = (await aComment(t.api, a, post, { content: 'first!' })).id;
    const reply = (await aComment(t.api, b, post, { content: 'reply', parent_id: root })).id;
    const nested = (await aComment(t.api, a, post, { content: 'nested', parent_id: reply })).id;
    const second = (await aComment(t.api, b, post, { content: 'second root' })).id;
    const res = await t.api.get(`comments.php?post_id=${post}&page=1`, { token: author.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([root, second]);
    const first = res.body.data[0];
    expect(first).toMatchObject({
      id: root,
      post_id: post,
      user_id: a.id,
      username: a.username,
      parent_id: null,
      content: 'first!',
      reactions_count: 0,
      has_reacted: false,
    });
    expect(typeof first.avatar).toBe('string');
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(first.replies).toHaveLength(1);
    expect(first.replies[0]).toMatchObject({ id: reply, parent_id: root, user_id: b.id });
    expect(first.replies[0].replies[0]).toMatchObject({ id: nested, parent_id: reply, replies: [] });
    const p = await t.api.get(`posts.php?id=${post}`, { token: author.token });
    expect(p.body.data.comments_count).toBe(4);

    // Deleting a comment removes its replies and keeps the counter right.
    expect((await t.api.delete(`comments.php?id=${reply}`, undefined, { token: b.token })).status).toBe(200);
    const after = await t.api.get(`comments.php?post_id=${post}`, { token: author.token });
    expect(after.body.data[0].replies).toEqual([]);
    expect((await t.api.get(`posts.php?id=${post}`, { token: author.token })).body.data.comments_count).toBe(2);
  });

  it('paginates root comments 20 per page', async () => {
    const u = await aUser(t.api);
    const post = (await aPost(t.api, u)).id;
    for (let i = 0; i < 23; i++) await aComment(t.api, u, post, { content: `c${i}` });
    const p1 = await t.api.get(`comments.php?post_id=${post}&page=1`, { token: u.token });
    const p2 = await t.api.get(`comments.php?post_id=${post}&page=2`, { token: u.token });
    const p3 = await t.api.get(`comments.php?post_id=${post}&page=3`, { token: u.token });
    expect([p1.body.data.length, p2.body.data.length, p3.body.data.length]).toEqual([20, 3, 0]);
  });

  it('validates: empty content, unknown post, a parent from another post', async () => {
    const u = await aUser(t.api);
    const p1 = (await aPost(t.api, u)).id;
    const p2 = (await aPost(t.api, u)).id;
    const onP1 = (await aComment(t.api, u, p1, { content: 'on p1' })).id;
    expect((await t.api.post('comments.php', { post_id: p1, content: '  ' }, { token: u.token })).status).toBe(400);
    expect((await t.api.post('comments.php', { post_id: 99999999, content: 'x' }, { token: u.token })).status).toBe(404);
    const wrongParent = await t.api.post('comments.php', { post_id: p2, content: 'x', parent_id: onP1 }, { token: u.token });
    expect(wrongParent.status).toBe(400);
    expect(wrongParent.body.success).toBe(false);
    expect((await t.api.get(`comments.php?post_id=${p2}`, { token: u.token })).body.data).toEqual([]);
  });

  it('lets only the author edit or delete a comment; others get 403 and nothing changes', async () => {
    const [author, other] = [await aUser(t.api), await aUser(t.api)];
    const post = (await aPost(t.api, author)).id;
    const c = (await aComment(t.api, author, post, { content: 'mine' })).id;
    expect((await t.api.put(`comments.php?id=${c}`, { content: 'hacked' }, { token: other.token })).status).toBe(403);
    expect((await t.api.delete(`comments.php?id=${c}`, undefined, { token: other.token })).status).toBe(403);
    const list = await t.api.get(`comments.php?post_id=${post}`, { token: author.token });
    expect(list.body.data[0].content).toBe('mine');
    const edit = await t.api.put(`comments.php?id=${c}`, { content: 'edited' }, { token: author.token });
    expect(edit.status).toBe(200);
    expect((await t.api.get(`comments.php?post_id=${post}`, { token: author.token })).body.data[0].content).toBe('edited');
    expect((await t.api.delete(`comments.php?id=${c}`, undefined, { token: author.token })).status).toBe(200);
    expect((await t.api.get(`comments.php?post_id=${post}`, { token: author.token })).body.data).toEqual([]);
  });

  it('notifies comments, replies and mentions to others, never for own actions', async () => {
    const [author, commenter, replier, mentioned] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const post = (await aPost(t.api, author, { content: `hello @${mentioned.username} and @${author.username} and @nobody_at_all` })).id;
    expect(await types(mentioned)).toEqual(['mention']);
    expect(await types(author)).toEqual([]);
    await aComment(t.api, author, post, { content: 'own comment' });
    expect(await types(author)).toEqual([]);
    const c = (await aComment(t.api, commenter, post, { content: 'nice' })).id;
    const r = (await aComment(t.api, replier, post, { content: `agreed @${mentioned.username}`, parent_id: c })).id;
    expect(await types(author)).toEqual(['comment', 'comment']);
    expect(await types(commenter)).toEqual(['reply']);
    expect(await types(mentioned)).toEqual(['mention', 'mention']);
    await aComment(t.api, commenter, post, { content: 'replying to a reply', parent_id: r });
    expect(await types(replier)).toEqual(['reply']);
    expect(await types(commenter)).toEqual(['reply']);
  });
});

describe('comment_reactions.php', () => {
  it('reacts once per user per comment, lists, removes; unknown type is 400', async () => {
    const [author, fan, fan2] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const post = (await aPost(t.api, author)).id;
    const c = (await aComment(t.api, author, post, { content: 'react to me' })).id;
    const r1 = await t.api.post(
      'comment_reactions.php',
      { comment_id: c, comment_type: 'post', reaction_type: 'like' },
      { token: fan.token },
    );
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({ success: true, reactions_count: 1 });
    expect(
      (await t.api.post('comment_reactions.php', { comment_id: c, comment_type: 'post', reaction_type: 'love' }, { token: fan.token })).body
        .reactions_count,
    ).toBe(1);
    await Promise.all([fan2].map((f) => t.api.post('comment_reactions.php', { comment_id: c, comment_type: 'post' }, { token: f.token })));
    const list = await t.api.get(`comments.php?post_id=${post}`, { token: fan.token });
    expect(list.body.data[0]).toMatchObject({ reactions_count: 2, has_reacted: true });
    expect((await t.api.get(`comments.php?post_id=${post}`, { token: author.token })).body.data[0].has_reacted).toBe(false);
    const who = await t.api.get(`comment_reactions.php?comment_id=${c}&comment_type=post`, { token: author.token });
    expect(who.body.data.map((r: { user_id: number }) => r.user_id).sort()).toEqual([fan.id, fan2.id].sort());

    const bad = await t.api.post(
      'comment_reactions.php',
      { comment_id: c, comment_type: 'video', reaction_type: 'like' },
      { token: fan.token },
    );
    expect(bad.status).toBe(400);
    expect(
      (await t.api.post('comment_reactions.php', { comment_id: c, comment_type: 'post', reaction_type: 'meh' }, { token: fan.token }))
        .status,
    ).toBe(400);
    expect((await t.api.post('comment_reactions.php', { comment_id: 99999999, comment_type: 'post' }, { token: fan.token })).status).toBe(
      404,
    );

    const del = await t.api.delete(`comment_reactions.php?comment_id=${c}&comment_type=post`, undefined, { token: fan.token });
    expect(del.status).toBe(200);
    expect(del.body.reactions_count).toBe(1);
    expect((await t.api.get(`comments.php?post_id=${post}`, { token: fan.token })).body.data[0]).toMatchObject({
      reactions_count: 1,
      has_reacted: false,
    });
  });
});
