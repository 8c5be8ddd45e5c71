import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCommunityGroup, aGroupComment, aGroupMembership, aGroupPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/**
 * group_posts.php, group_comments.php, group_reactions.php (contract §21) and group comments in
 * comment_reactions.php: members publish; a private group's content is its members' only, everywhere
 * (lists, one item, comments, reactions, notifications), and leaving takes it away (docs/decisions/0030).
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });

/** A group of `admin` with `members` in it. */
async function groupWith(admin: TestUser, members: TestUser[], privacy: 'public' | 'private' = 'public') {
  const g = (await aCommunityGroup(t.api, admin, { privacy })).id;
  await aGroupMembership(t.api, g, members, admin);
  return g;
}

async function notificationsOf(u: TestUser) {
  const res = await t.api.get('notifications.php?per_page=100', as(u));
  expect(res.status).toBe(200);
  return res.body.notifications as {
    type: string;
    group_id: number | null;
    post_id: number | null;
    link: string | null;
    comment_id: number | null;
  }[];
}

describe('group posts', () => {
  it('members publish (201 exactly), items under posts with type "group" and group_id', async () => {
    const [alice, bob] = [await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob]);
    // Stored as upload.php would have, as bob's upload (references must name the author's uploads).
    await placeUploaded(t, 'group_post_ab12.jpg', bob);
    const res = await t.api.post('group_posts.php', { group_id: g, content: 'Meeting #Friday', media: 'group_post_ab12.jpg' }, as(bob));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, id: expect.any(Number) });
    expect(res.body.data).toMatchObject({
      id: res.body.id,
      user_id: bob.id,
      username: bob.username,
      content: 'Meeting #Friday',
      media: ['uploads/posts/group_post_ab12.jpg'],
      media_type: 'image',
      likes_count: 0,
      comments_count: 0,
      is_liked: false,
      tags: ['friday'],
      type: 'group',
      group_id: g,
    });
    const list = await t.api.get(`group_posts.php?group_id=${g}`, as(alice));
    expect(list.status).toBe(200);
    expect(list.body.posts).toEqual([res.body.data]);
    expect(list.body.pagination).toEqual({ current_page: 1, per_page: 20, has_more: false });
    expect((await t.api.get(`groups.php?id=${g}`, as(alice))).body.data.posts_count).toBe(1);
    const one = await t.api.get(`group_posts.php?id=${res.body.id}`, as(alice));
    expect(one.body.data).toEqual(res.body.data);
  });

  it('refuses non-members (403), empty posts and foreign media (400)', async () => {
    const [alice, stranger] = [await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, []);
    const refused = await t.api.post('group_posts.php', { group_id: g, content: 'hi' }, as(stranger));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_a_member');
    const empty = await t.api.post('group_posts.php', { group_id: g, content: '  ' }, as(alice));
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('empty_post');
    for (const media of ['../../etc/passwd', 'story_x.jpg', 'https://evil.example/x.jpg']) {
      const res = await t.api.post('group_posts.php', { group_id: g, content: 'x', media }, as(alice));
      expect(res.status, media).toBe(400);
      expect(res.body.details[0].field).toBe('media');
    }
    expect((await t.api.get(`groups.php?id=${g}`, as(alice))).body.data.posts_count).toBe(0);
  });

  it('pages newest first', async () => {
    const alice = await aUser(t.api);
    const g = await groupWith(alice, []);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await aGroupPost(t.api, alice, g, { content: `p${i}` })).id);
    const first = await t.api.get(`group_posts.php?group_id=${g}&per_page=2`, as(alice));
    expect(first.body.posts.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.pagination.has_more).toBe(true);
    const second = await t.api.get(`group_posts.php?group_id=${g}&per_page=2&page=2`, as(alice));
    expect(second.body.posts.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
    expect(second.body.pagination.has_more).toBe(false);
  });

  it('edits (author, id in the body) and deletes (author or group admin) with comments and reactions', async () => {
    const [alice, bob, carol] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob, carol]);
    const post = (await aGroupPost(t.api, bob, g)).id;
    expect((await t.api.put('group_posts.php', { id: post, content: 'Not mine' }, as(carol))).status).toBe(403);
    const edit = await t.api.put('group_posts.php', { id: post, content: 'Moved to Saturday' }, as(bob));
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ content: 'Moved to Saturday', updated_at: expect.any(String) });
    const comment = (await aGroupComment(t.api, carol, post)).id;
    await t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'like' }, as(bob));
    await t.api.post('group_reactions.php', { post_id: post, reaction_type: 'like' }, as(carol));
    expect((await t.api.delete(`group_posts.php?id=${post}`, undefined, as(carol))).status).toBe(403);
    expect((await t.api.delete(`group_posts.php?id=${post}`, undefined, as(alice))).status).toBe(200);
    expect((await t.api.get(`group_posts.php?id=${post}`, as(alice))).status).toBe(404);
    const db = t.database.db;
    expect(await db.selectFrom('group_comments').select('id').where('post_id', '=', post).execute()).toEqual([]);
    expect(await db.selectFrom('group_post_reactions').select('user_id').where('post_id', '=', post).execute()).toEqual([]);
    expect(
      await db
        .selectFrom('comment_reactions')
        .select('user_id')
        .where('comment_type', '=', 'group')
        .where('comment_id', '=', comment)
        .execute(),
    ).toEqual([]);
    expect((await t.api.get(`groups.php?id=${g}`, as(alice))).body.data.posts_count).toBe(0);
  });
});

describe('a private group’s content', () => {
  it('is invisible to non-members everywhere, 403 on the list as the client expects, and leaving takes it away', async () => {
    const [alice, bob, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob], 'private');
    const post = (await aGroupPost(t.api, alice, g)).id;
    const comment = (await aGroupComment(t.api, alice, post)).id;
    const reads = [
      `group_posts.php?id=${post}`,
      `group_comments.php?post_id=${post}`,
      `comment_reactions.php?comment_id=${comment}&comment_type=group`,
      `groups.php?id=${g}`,
      `groups.php?id=${g}&members=1`,
    ];
    const writes: [string, string, unknown][] = [
      ['POST', 'group_comments.php', { post_id: post, content: 'hi' }],
      ['PUT', 'group_comments.php', { id: comment, content: 'hi' }],
      ['POST', 'group_reactions.php', { post_id: post, reaction_type: 'like' }],
      ['POST', 'comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'like' }],
      ['DELETE', `comment_reactions.php?comment_id=${comment}&comment_type=group`, undefined],
      ['DELETE', `group_reactions.php?post_id=${post}`, undefined],
      ['DELETE', `group_comments.php?id=${comment}`, undefined],
      ['DELETE', `group_posts.php?id=${post}`, undefined],
      ['PUT', 'group_posts.php', { id: post, content: 'hi' }],
    ];
    const check = async (u: TestUser, who: string) => {
      expect((await t.api.get(`group_posts.php?group_id=${g}`, as(u))).status, `${who} list`).toBe(404);
      for (const url of reads) expect((await t.api.get(url, as(u))).status, `${who} GET ${url}`).toBe(404);
      for (const [method, url, body] of writes)
        expect((await t.api.request(method, url, body, as(u))).status, `${who} ${method} ${url}`).toBe(404);
    };
    for (const url of reads) expect((await t.api.get(url, as(bob))).status, `member GET ${url}`).toBe(200);
    await check(stranger, 'stranger');
    // Someone who asked to join knows the group: the list answers 403, content stays hidden.
    await t.api.post('groups.php', { action: 'join', group_id: g }, as(stranger));
    const listed = await t.api.get(`group_posts.php?group_id=${g}`, as(stranger));
    expect(listed.status).toBe(403);
    expect(listed.body).toMatchObject({ success: false, code: 'not_a_member' });
    expect((await t.api.get(`group_posts.php?id=${post}`, as(stranger))).status).toBe(404);
    // bob leaves: everything goes dark for him.
    await t.api.delete(`groups.php?id=${g}`, undefined, as(bob));
    await check(bob, 'former member');
  });

  it('is open to read in a public group; commenting and reacting need seeing it, publishing needs membership', async () => {
    const [alice, passer] = [await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, []);
    const post = (await aGroupPost(t.api, alice, g)).id;
    expect((await t.api.get(`group_posts.php?group_id=${g}`, as(passer))).body.posts).toHaveLength(1);
    expect((await t.api.post('group_comments.php', { post_id: post, content: 'Nice' }, as(passer))).status).toBe(201);
    expect((await t.api.post('group_reactions.php', { post_id: post }, as(passer))).status).toBe(200);
    expect((await t.api.post('group_posts.php', { group_id: g, content: 'me too' }, as(passer))).status).toBe(403);
  });

  it('notifications about it reach members only, and go away when they leave', async () => {
    const [alice, bob, carol] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob, carol], 'private');
    const post = (await aGroupPost(t.api, bob, g)).id;
    const comment = (await aGroupComment(t.api, bob, post)).id;
    await aGroupComment(t.api, alice, post, { parent_id: comment });
    await t.api.post('group_reactions.php', { post_id: post, reaction_type: 'love' }, as(carol));
    await t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'like' }, as(carol));
    const seen = (await notificationsOf(bob)).filter((n) => n.group_id === g && !n.type.startsWith('group_'));
    expect(seen.map((n) => n.type).sort()).toEqual(['comment', 'reaction', 'reaction']);
    for (const n of seen) expect(n).toMatchObject({ post_id: null, link: `group_detail.php?id=${g}#post-${post}` });
    const before = (await t.api.get('notifications.php?action=count', as(bob))).body.unread_count;
    await t.api.delete(`groups.php?id=${g}`, undefined, as(bob));
    expect((await notificationsOf(bob)).filter((n) => n.group_id === g && !n.type.startsWith('group_'))).toEqual([]);
    expect((await t.api.get('notifications.php?action=count', as(bob))).body.unread_count).toBe(before - 3);
    // A member no longer in the group is not notified of new activity on their post.
    await t.api.post('group_reactions.php', { post_id: post, reaction_type: 'like' }, as(alice));
    expect(
      await t.database.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', bob.id)
        .where('from_user_id', '=', alice.id)
        .where('type', '=', 'reaction')
        .execute(),
    ).toEqual([]);
  });
});

describe('group comments', () => {
  it('nest replies, answer 201 on create, edit with id in the body, delete with replies', async () => {
    const [alice, bob] = [await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob]);
    const post = (await aGroupPost(t.api, alice, g)).id;
    const create = await t.api.post('group_comments.php', { post_id: post, content: 'Root' }, as(bob));
    expect(create.status).toBe(201);
    const root = create.body.id;
    const reply = (await aGroupComment(t.api, alice, post, { parent_id: root, content: 'Reply' })).id;
    const deep = (await aGroupComment(t.api, bob, post, { parent_id: reply, content: 'Deep' })).id;
    const other = await aGroupPost(t.api, alice, g);
    const wrongParent = await t.api.post('group_comments.php', { post_id: other.id, content: 'x', parent_id: root }, as(bob));
    expect(wrongParent.status).toBe(400);
    expect(wrongParent.body.details[0].field).toBe('parent_id');
    const list = await t.api.get(`group_comments.php?post_id=${post}`, as(bob));
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      id: root,
      post_id: post,
      user_id: bob.id,
      parent_id: null,
      content: 'Root',
      reactions_count: 0,
      has_reacted: false,
    });
    expect(list.body.data[0].replies[0]).toMatchObject({
      id: reply,
      parent_id: root,
      replies: [{ id: deep, parent_id: reply, replies: [] }],
    });
    expect((await t.api.put('group_comments.php', { id: root, content: 'Not yours' }, as(alice))).status).toBe(403);
    const edit = await t.api.put('group_comments.php', { id: root, content: 'Edited' }, as(bob));
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ id: root, content: 'Edited' });
    expect((await t.api.get(`group_posts.php?id=${post}`, as(bob))).body.data.comments_count).toBe(3);
    // The group's admin may delete any comment; its replies go with it.
    expect((await t.api.delete(`group_comments.php?id=${root}`, undefined, as(alice))).status).toBe(200);
    expect((await t.api.get(`group_comments.php?post_id=${post}`, as(bob))).body.data).toEqual([]);
    expect((await t.api.get(`group_posts.php?id=${post}`, as(bob))).body.data.comments_count).toBe(0);
    // Comment notifications: alice (the post's author) was told of bob's two comments, bob of alice's reply.
    expect((await notificationsOf(alice)).filter((n) => n.type === 'comment' && n.group_id === g)).toHaveLength(2);
    expect((await notificationsOf(bob)).filter((n) => n.type === 'reply' && n.group_id === g)).toHaveLength(1);
  });

  it('take reactions through comment_reactions.php with comment_type group, in their own id space', async () => {
    const [alice, bob] = [await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob]);
    const post = (await aGroupPost(t.api, alice, g)).id;
    const comment = (await aGroupComment(t.api, alice, post)).id;
    const react = await t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'haha' }, as(bob));
    expect(react.status).toBe(200);
    expect(react.body).toMatchObject({ success: true, comment_id: comment, reaction_type: 'haha', reactions_count: 1, has_reacted: true });
    expect(
      (await t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'wow' }, as(bob))).body
        .reactions_count,
    ).toBe(1);
    const list = await t.api.get(`group_comments.php?post_id=${post}`, as(bob));
    expect(list.body.data[0]).toMatchObject({ id: comment, reactions_count: 1, has_reacted: true });
    expect((await t.api.get(`group_comments.php?post_id=${post}`, as(alice))).body.data[0].has_reacted).toBe(false);
    const who = await t.api.get(`comment_reactions.php?comment_id=${comment}&comment_type=group`, as(alice));
    expect(who.body.data).toMatchObject([{ user_id: bob.id, reaction_type: 'wow' }]);
    // Told of the reaction and of its change (the one reaction rule, docs/decisions/0120), with the group's link.
    const reactionNotes = (await notificationsOf(alice)).filter((n) => n.type === 'reaction' && n.comment_id === comment);
    expect(reactionNotes).toHaveLength(2);
    expect(reactionNotes.map((n) => n.link)).toEqual([`group_detail.php?id=${g}#post-${post}`, `group_detail.php?id=${g}#post-${post}`]);
    // A post comment with the same id is another comment.
    expect((await t.api.get(`comment_reactions.php?comment_id=${comment}&comment_type=post`, as(alice))).body.data ?? []).not.toMatchObject(
      [{ user_id: bob.id, reaction_type: 'wow' }],
    );
    const remove = await t.api.delete(`comment_reactions.php?comment_id=${comment}&comment_type=group`, undefined, as(bob));
    expect(remove.body).toMatchObject({ removed: true, reactions_count: 0, has_reacted: false });
    expect((await t.api.post('comment_reactions.php', { comment_id: 999999, comment_type: 'group' }, as(bob))).status).toBe(404);
  });
});

describe('group reactions', () => {
  it('one per user, replaced by another type, removed by DELETE; the author told of the reaction and of its change', async () => {
    const [alice, bob] = [await aUser(t.api), await aUser(t.api)];
    const g = await groupWith(alice, [bob]);
    const post = (await aGroupPost(t.api, alice, g)).id;
    const first = await t.api.post('group_reactions.php', { post_id: post, reaction_type: 'like' }, as(bob));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, post_id: post, reaction_type: 'like', likes_count: 1 });
    expect((await t.api.post('group_reactions.php', { post_id: post, reaction_type: 'angry' }, as(bob))).body.likes_count).toBe(1);
    const seen = await t.api.get(`group_posts.php?id=${post}`, as(bob));
    expect(seen.body.data).toMatchObject({ is_liked: true, reaction_type: 'angry', likes_count: 1 });
    // A changed reaction tells the author as on the wall (docs/decisions/0120; it told no one here before).
    const told = (await notificationsOf(alice)).filter((n) => n.type === 'reaction' && n.group_id === g);
    expect(told).toHaveLength(2);
    expect(told.map((n) => ({ post_id: n.post_id, link: n.link }))).toEqual([
      { post_id: null, link: `group_detail.php?id=${g}#post-${post}` },
      { post_id: null, link: `group_detail.php?id=${g}#post-${post}` },
    ]);
    const removed = await t.api.delete(`group_reactions.php?post_id=${post}`, undefined, as(bob));
    expect(removed.body).toMatchObject({ removed: true, likes_count: 0 });
    // Taking it back tells no one.
    expect((await notificationsOf(alice)).filter((n) => n.type === 'reaction' && n.group_id === g)).toHaveLength(2);
    expect((await t.api.delete(`group_reactions.php?post_id=${post}`, undefined, as(bob))).body).toMatchObject({
      removed: false,
      likes_count: 0,
    });
    expect((await t.api.post('group_reactions.php', { post_id: post, reaction_type: 'meh' }, as(bob))).status).toBe(400);
  });
});
