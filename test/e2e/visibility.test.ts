import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aComment, aFollow, aPost, aReport, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/**
 * One visibility rule for every path that returns a post or something of it: a private account's
 * posts are its author's and its followers', and the moderators' while a report on them is pending. Access is decided when a post is read, not
 * when it was first seen: unfollowing, or the account turning private, hides what was seen before.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ids = (posts: { id: number }[]) => posts.map((p) => p.id);

/** No user-facing setting changes it yet (user_preferences.php is not served), so the test writes the column. */
async function setPrivate(u: TestUser, on: boolean) {
  await t.database.db
    .updateTable('users')
    .set({ is_private: on ? 1 : 0 })
    .where('id', '=', u.id)
    .execute();
}

async function setRole(u: TestUser, role: 'is_admin' | 'is_moderator' | 'is_technician') {
  await t.database.db
    .updateTable('users')
    .set({ [role]: 1 })
    .where('id', '=', u.id)
    .execute();
}

async function bookmarkIds(u: TestUser): Promise<number[]> {
  const res = await t.api.get('bookmarks.php?per_page=100', { token: u.token });
  expect(res.status).toBe(200);
  expect(ids(res.body.bookmarks)).toEqual(ids(res.body.data));
  return ids(res.body.bookmarks);
}

describe('bookmarks.php applies the visibility rule when it lists', () => {
  it('drops a private account’s post, edits included, once the reader unfollows; following again shows it again', async () => {
    const [author, reader] = [await aUser(t.api), await aUser(t.api)];
    await setPrivate(author, true);
    await aFollow(t.api, reader, author);
    const post = await aPost(t.api, author, { content: 'for followers' });
    expect((await t.api.post('bookmarks.php', { post_id: post.id }, { token: reader.token })).status).toBe(200);
    expect(await bookmarkIds(reader)).toEqual([post.id]);

    expect((await t.api.delete(`follows.php?user_id=${author.id}`, undefined, { token: reader.token })).status).toBe(200);
    expect((await t.api.put(`posts.php?id=${post.id}`, { content: 'edited for followers only' }, { token: author.token })).status).toBe(
      200,
    );
    expect(await bookmarkIds(reader)).toEqual([]);
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reader.token })).status).toBe(404);

    // The bookmark was hidden, not lost: it is the reader's, and shows again with access.
    await aFollow(t.api, reader, author);
    const again = await t.api.get('bookmarks.php', { token: reader.token });
    expect(again.body.bookmarks).toMatchObject([{ id: post.id, content: 'edited for followers only', is_bookmarked: true }]);
  });

  it('drops a public post once its account turns private, for a reader who does not follow', async () => {
    const [author, reader] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author, { content: 'public for now' });
    const kept = await aPost(t.api, reader, { content: 'own post, always visible' });
    for (const id of [post.id, kept.id])
      expect((await t.api.post('bookmarks.php', { post_id: id }, { token: reader.token })).status).toBe(200);
    expect(await bookmarkIds(reader)).toEqual([kept.id, post.id]);

    await setPrivate(author, true);
    expect(await bookmarkIds(reader)).toEqual([kept.id]);
    // Like every other path to the post, removing its bookmark answers as if it did not exist.
    expect((await t.api.delete(`bookmarks.php?post_id=${post.id}`, undefined, { token: reader.token })).status).toBe(404);
    await setPrivate(author, false);
    expect(await bookmarkIds(reader)).toEqual([kept.id, post.id]);
  });

  it('pages over visible bookmarks only, so a page is never short because of hidden ones', async () => {
    const [author, other, reader] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const hidden = await aPost(t.api, author, { content: 'soon hidden' });
    const shown = [await aPost(t.api, other, { content: 'one' }), await aPost(t.api, other, { content: 'two' })];
    for (const id of [shown[0].id, hidden.id, shown[1].id]) await t.api.post('bookmarks.php', { post_id: id }, { token: reader.token });
    await setPrivate(author, true);
    const first = await t.api.get('bookmarks.php?per_page=2', { token: reader.token });
    expect(ids(first.body.bookmarks)).toEqual([shown[1].id, shown[0].id]);
    expect(first.body.pagination.has_more).toBe(false);
  });
});

describe('every other path to a post hidden from the reader', () => {
  /**
   * `author` is private; `reader` followed them, commented, reacted, was mentioned and replied to,
   * then unfollowed. `sharer` follows the author and shared the post; `reader` follows `sharer`.
   */
  async function hiddenPost() {
    const [author, reader, sharer, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await setPrivate(author, true);
    await aFollow(t.api, reader, author);
    await aFollow(t.api, sharer, author);
    await aFollow(t.api, reader, sharer);
    const post = await aPost(t.api, author, { content: `followers only, hi @${reader.username}` });
    const comment = await aComment(t.api, reader, post, { content: 'my comment' });
    await aComment(t.api, author, post, { content: 'a reply to the reader', parent_id: comment.id });
    expect((await t.api.post('comment_reactions.php', { comment_id: comment.id }, { token: author.token })).status).toBe(200);
    expect((await t.api.post('reactions.php', { post_id: post.id, reaction_type: 'love' }, { token: reader.token })).status).toBe(200);
    expect((await t.api.post('shares.php', { post_id: post.id }, { token: sharer.token })).status).toBe(200);
    const before = await t.api.get('notifications.php?per_page=100', { token: reader.token });
    expect(
      before.body.notifications
        .filter((n: { post_id: number | null }) => n.post_id === post.id)
        .map((n: { type: string }) => n.type)
        .sort(),
    ).toEqual(['mention', 'reaction', 'reply']);
    expect((await t.api.delete(`follows.php?user_id=${author.id}`, undefined, { token: reader.token })).status).toBe(200);
    return { author, reader, sharer, stranger, post, comment };
  }

  it('answers 404 for the post, its comments, its reactions and every action on them', async () => {
    const { author, reader, post, comment } = await hiddenPost();
    const as = { token: reader.token };
    const refused = [
      await t.api.get(`posts.php?id=${post.id}`, as),
      await t.api.get(`comments.php?post_id=${post.id}`, as),
      await t.api.post('comments.php', { post_id: post.id, content: 'still here?' }, as),
      await t.api.put(`comments.php?id=${comment.id}`, { content: 'edited in the dark' }, as),
      await t.api.get(`comment_reactions.php?comment_id=${comment.id}`, as),
      await t.api.post('comment_reactions.php', { comment_id: comment.id, reaction_type: 'wow' }, as),
      await t.api.delete(`comment_reactions.php?comment_id=${comment.id}`, undefined, as),
      await t.api.get(`reactions.php?post_id=${post.id}`, as),
      await t.api.post('reactions.php', { post_id: post.id, reaction_type: 'sad' }, as),
      await t.api.delete(`reactions.php?post_id=${post.id}`, undefined, as),
      await t.api.post('likes.php', { post_id: post.id }, as),
      await t.api.delete(`likes.php?post_id=${post.id}`, undefined, as),
      await t.api.post('shares.php', { post_id: post.id }, as),
      await t.api.post('bookmarks.php', { post_id: post.id }, as),
      await t.api.delete(`bookmarks.php?post_id=${post.id}`, undefined, as),
    ];
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 404));
    for (const r of refused) expect(JSON.stringify(r.body)).not.toContain('followers only');
    // Nothing the refused calls tried was done.
    const seen = await t.api.get(`comments.php?post_id=${post.id}`, { token: author.token });
    expect(seen.body.comments).toMatchObject([{ id: comment.id, content: 'my comment', reactions_count: 1 }]);
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: author.token })).body.data).toMatchObject({
      likes_count: 1,
      shares_count: 1,
      comments_count: 2,
    });
  });

  it('leaves it out of the wall, both feeds and shares of it, for the reader and for a stranger', async () => {
    const { author, reader, sharer, stranger, post } = await hiddenPost();
    for (const who of [reader, stranger]) {
      const as = { token: who.token };
      expect((await t.api.get(`posts.php?user_id=${author.id}`, as)).body.posts).toEqual([]);
      expect(ids((await t.api.get(`posts.php?user_id=${sharer.id}`, as)).body.posts)).not.toContain(post.id);
      expect(ids((await t.api.get('posts.php?per_page=100', as)).body.posts)).not.toContain(post.id);
      expect(ids((await t.api.get('posts.php?feed_type=global&per_page=100', as)).body.posts)).not.toContain(post.id);
    }
    // The sharer still follows: the share is on their wall for them, with the post.
    const theirs = await t.api.get(`posts.php?user_id=${sharer.id}`, { token: sharer.token });
    expect(theirs.body.posts).toMatchObject([{ id: post.id, shared_by_username: sharer.username }]);
  });

  it('drops the notifications that link it from the list and the unread count, and says nothing of it', async () => {
    const { reader, post } = await hiddenPost();
    const list = await t.api.get('notifications.php?per_page=100', { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.body.notifications.filter((n: { post_id: number | null }) => n.post_id === post.id)).toEqual([]);
    // The reader had no other notification: nothing of the post is left to read.
    expect(list.body.notifications).toEqual([]);
    expect(list.body.unread_count).toBe(0);
    expect((await t.api.get('notifications.php?action=count', { token: reader.token })).body.unread_count).toBe(0);
  });

  it('does not notify a mentioned user who cannot see the post, nor push to them', async () => {
    const [author, outsider, follower] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await setPrivate(author, true);
    await aFollow(t.api, follower, author);
    const pushedBefore = t.push.sent.filter((s) => s.userId === outsider.id).length;
    const post = await aPost(t.api, author, { content: `hello @${outsider.username} and @${follower.username}` });
    const outsiderSees = await t.api.get('notifications.php', { token: outsider.token });
    expect(outsiderSees.body.notifications).toEqual([]);
    expect(t.push.sent.filter((s) => s.userId === outsider.id).length).toBe(pushedBefore);
    const followerSees = await t.api.get('notifications.php', { token: follower.token });
    expect(followerSees.body.notifications).toMatchObject([{ type: 'mention', post_id: post.id }]);
  });

  it('keeps stories of a private account to its followers', async () => {
    const [author, reader] = [await aUser(t.api), await aUser(t.api)];
    await setPrivate(author, true);
    await aFollow(t.api, reader, author);
    // Stored as upload.php would have, as the author's upload.
    await placeUploaded(t, 'story_private.jpg', author);
    expect((await t.api.post('stories.php', { media: 'story_private.jpg' }, { token: author.token })).status).toBe(200);
    expect((await t.api.get(`stories.php?user_id=${author.id}`, { token: reader.token })).body.items).toHaveLength(1);
    await t.api.delete(`follows.php?user_id=${author.id}`, undefined, { token: reader.token });
    expect((await t.api.get(`stories.php?user_id=${author.id}`, { token: reader.token })).body.items).toEqual([]);
    expect((await t.api.get('stories.php', { token: reader.token })).body.items).toEqual([]);
  });

  it('shows it to moderators and admins while a report on it is pending, wherever they look the post up, and not before or after', async () => {
    const { author, sharer, post, comment } = await hiddenPost();
    const [mod, admin] = [await aUser(t.api), await aUser(t.api)];
    await setRole(mod, 'is_moderator');
    await setRole(admin, 'is_admin');
    const sees = async (who: TestUser) => {
      const as = { token: who.token };
      const one = (await t.api.get(`posts.php?id=${post.id}`, as)).status === 200;
      const onWall = ids((await t.api.get(`posts.php?user_id=${author.id}`, as)).body.posts ?? []).includes(post.id);
      const comments = (await t.api.get(`comments.php?post_id=${post.id}`, as)).status === 200;
      const reactions = (await t.api.get(`comment_reactions.php?comment_id=${comment.id}`, as)).status === 200;
      return [one, onWall, comments, reactions];
    };
    // The post, its thread and the moderator's bookmarks follow the report; the account's wall stays
    // its followers' (a moderator judges the reported post, not the account's audience).
    // Nothing to judge: a moderator is a stranger to a private account.
    for (const who of [mod, admin]) expect(await sees(who)).toEqual([false, false, false, false]);

    const report = await aReport(t.api, sharer, { post_id: post.id });
    for (const who of [mod, admin]) {
      expect(await sees(who)).toEqual([true, false, true, true]);
      expect((await t.api.post('bookmarks.php', { post_id: post.id }, { token: who.token })).status).toBe(200);
      expect(await bookmarkIds(who)).toEqual([post.id]);
    }

    // Decided (kept): the moderators see no more than before the report.
    expect((await t.api.post('reports.php', { moderator_action: 'warn_user', report_id: report.id }, { token: mod.token })).status).toBe(
      200,
    );
    for (const who of [mod, admin]) {
      expect(await sees(who)).toEqual([false, false, false, false]);
      expect(await bookmarkIds(who)).toEqual([]);
    }
  });
});

describe('one role rule', () => {
  /** Every place an account's role flags appear, read for `subject` by `viewer`. */
  async function flagsEverywhere(subject: TestUser, viewer: TestUser) {
    const post = await aPost(t.api, subject, { content: 'roles' });
    await aComment(t.api, subject, post, { content: 'roles too' });
    await aFollow(t.api, viewer, subject);
    const as = { token: viewer.token };
    const profile = (await t.api.get(`users.php?id=${subject.id}`, as)).body;
    const own = (await t.api.get('users.php', { token: subject.token })).body;
    const onePost = (await t.api.get(`posts.php?id=${post.id}`, as)).body.data;
    const wallItem = (await t.api.get(`posts.php?user_id=${subject.id}`, as)).body.posts[0];
    const commentItem = (await t.api.get(`comments.php?post_id=${post.id}`, as)).body.comments[0];
    const followItem = (await t.api.get(`follows.php?user_id=${viewer.id}&type=following`, as)).body.data[0];
    return { profile, own, onePost, wallItem, commentItem, followItem };
  }

  it('reads an admin as moderator and technician in users.php, posts, comments and follow lists alike', async () => {
    const [admin, viewer] = [await aUser(t.api), await aUser(t.api)];
    await setRole(admin, 'is_admin');
    const f = await flagsEverywhere(admin, viewer);
    for (const p of [f.profile, f.own]) {
      expect(p).toMatchObject({ is_admin: true, is_moderator: true, is_technician: true, is_militant_technician: true });
    }
    for (const item of [f.onePost, f.wallItem, f.commentItem])
      expect(item).toMatchObject({ is_moderator: true, is_militant_technician: true });
    expect(f.followItem).toMatchObject({ id: admin.id, is_militant_technician: true });
  });

  it('reads a moderator as moderator only, and a technician as technician only', async () => {
    const [mod, tech, viewer] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await setRole(mod, 'is_moderator');
    await setRole(tech, 'is_technician');
    const m = await flagsEverywhere(mod, viewer);
    expect(m.profile).toMatchObject({ is_admin: false, is_moderator: true, is_technician: false, is_militant_technician: false });
    for (const item of [m.onePost, m.commentItem]) expect(item).toMatchObject({ is_moderator: true, is_militant_technician: false });
    const k = await flagsEverywhere(tech, viewer);
    expect(k.profile).toMatchObject({ is_admin: false, is_moderator: false, is_technician: true, is_militant_technician: true });
    for (const item of [k.onePost, k.commentItem]) expect(item).toMatchObject({ is_moderator: false, is_militant_technician: true });
  });
});

describe('MEDIA_TECHNICIAN_USER_IDS', () => {
  it('makes the listed accounts technicians wherever the flags appear', async () => {
    const s = await startTestServer({ env: { MEDIA_TECHNICIAN_USER_IDS: '1' } });
    try {
      const listed = await aUser(s.api);
      const other = await aUser(s.api);
      // A fresh database numbers its first account 1.
      expect(listed.id).toBe(1);
      const post = await aPost(s.api, listed);
      const profile = (await s.api.get(`users.php?id=${listed.id}`, { token: other.token })).body;
      expect(profile).toMatchObject({ is_admin: false, is_moderator: false, is_technician: true, is_militant_technician: true });
      expect((await s.api.get(`posts.php?id=${post.id}`, { token: other.token })).body.data).toMatchObject({
        is_moderator: false,
        is_militant_technician: true,
      });
      expect((await s.api.get(`users.php?id=${other.id}`, { token: listed.token })).body).toMatchObject({
        is_technician: false,
        is_militant_technician: false,
      });
    } finally {
      await s.close();
    }
  });
});
