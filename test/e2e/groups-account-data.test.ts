import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCommunityGroup, aGroupComment, aGroupMembership, aGroupPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/** The groups context's share of an account (docs/decisions/0030, 0093): export and deletion. */
let t: TestServer;
const clock = new ManualClock('2026-04-20T12:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });

async function deletionLink(u: TestUser): Promise<string> {
  const res = await t.api.post('delete_account.php', { password: u.password }, as(u));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await t.mailSettled();
  const mail = t.mailer.sent.findLast((m) => m.to === u.email)!;
  const url = /(http:\/\/plaza\.test\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
  return url.replace('http://plaza.test/api/v1/', '');
}

describe('groups in export.php and delete_account.php', () => {
  it('exports memberships, group posts with their media, comments and reactions', async () => {
    const [me, other] = [await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, other, { name: 'Exported group' })).id;
    await aGroupMembership(t.api, g, [me]);
    // Stored as upload.php would have, as my upload (references must name the author's uploads).
    await placeUploaded(t, 'group_post_e1.jpg', me);
    const post = (await aGroupPost(t.api, me, g, { content: 'my group post', media: 'group_post_e1.jpg' })).id;
    const theirs = (await aGroupPost(t.api, other, g, { content: 'THEIR GROUP POST' })).id;
    await aGroupComment(t.api, me, theirs, { content: 'my group comment' });
    await t.api.post('group_reactions.php', { post_id: theirs, reaction_type: 'wow' }, as(me));
    const res = await fetch(`${t.url}/api/v1/export.php`, { headers: { Authorization: `Bearer ${me.token}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data.group_memberships).toEqual([expect.objectContaining({ group_id: g, group_name: 'Exported group', role: 'member' })]);
    expect(data.group_posts).toEqual([
      expect.objectContaining({ id: post, group_id: g, content: 'my group post', media: ['group_post_e1.jpg'] }),
    ]);
    expect(data.group_comments).toEqual([expect.objectContaining({ post_id: theirs, content: 'my group comment' })]);
    expect(data.group_post_reactions).toEqual([expect.objectContaining({ post_id: theirs, reaction_type: 'wow' })]);
    expect(data.media).toContainEqual({ path: 'uploads/posts/group_post_e1.jpg', source: `group_post:${post}` });
    expect(text).not.toMatch(/THEIR GROUP POST/);
  });

  it('erases the account’s group rows, hands its groups over, keeps answered comments emptied, and recounts', async () => {
    const [a, b, c] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const handed = (await aCommunityGroup(t.api, a)).id;
    await aGroupMembership(t.api, handed, [b, c]);
    const alone = (await aCommunityGroup(t.api, a, { privacy: 'private' })).id;
    const own = (await aGroupPost(t.api, a, handed)).id;
    await aGroupComment(t.api, b, own);
    const theirs = (await aGroupPost(t.api, b, handed)).id;
    await aGroupComment(t.api, a, theirs, { content: 'bare' });
    const answered = (await aGroupComment(t.api, a, theirs, { content: 'answered' })).id;
    await aGroupComment(t.api, c, theirs, { content: 'reply', parent_id: answered });
    await t.api.post('group_reactions.php', { post_id: theirs }, as(a));
    await t.api.post('comment_reactions.php', { comment_id: answered, comment_type: 'group' }, as(b));
    const cGroup = (await aCommunityGroup(t.api, c, { privacy: 'private' })).id;
    await t.api.post('groups.php', { action: 'join', group_id: cGroup }, as(a));

    expect((await t.api.get(await deletionLink(a))).status).toBe(200);

    const db = t.database.db;
    expect(await db.selectFrom('group_members').select('group_id').where('user_id', '=', a.id).execute()).toEqual([]);
    expect(await db.selectFrom('group_join_requests').select('group_id').where('user_id', '=', a.id).execute()).toEqual([]);
    expect(await db.selectFrom('group_posts').select('id').where('user_id', '=', a.id).execute()).toEqual([]);
    expect(await db.selectFrom('group_post_reactions').select('post_id').where('user_id', '=', a.id).execute()).toEqual([]);
    // The group a administered passes to b, the longest-standing member; the one a was alone in goes.
    expect((await t.api.get(`groups.php?id=${handed}`, as(b))).body.data).toMatchObject({
      role: 'admin',
      members_count: 2,
      posts_count: 1,
    });
    expect(await db.selectFrom('community_groups').select('id').where('id', '=', alone).execute()).toEqual([]);
    // b's post: the bare comment and a's reaction gone, the answered one emptied with c's reply under it.
    const post = (await t.api.get(`group_posts.php?id=${theirs}`, as(b))).body.data;
    expect(post).toMatchObject({ likes_count: 0, comments_count: 2 });
    const thread = (await t.api.get(`group_comments.php?post_id=${theirs}`, as(b))).body.data;
    expect(thread).toMatchObject([{ id: answered, content: '', reactions_count: 1, replies: [{ content: 'reply' }] }]);
  });
});
