import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aCall,
  aComment,
  aFollow,
  aFriendship,
  aGroupMessage,
  aLive,
  aMessage,
  aMessageGroup,
  aPost,
  aReport,
  aSuggestion,
  aUser,
  type TestUser,
} from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
const clock = new ManualClock('2026-04-20T12:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

/** Asks for the deletion and returns the path of the e-mailed link. */
async function deletionLink(u: TestUser): Promise<string> {
  const res = await t.api.post('delete_account.php', { password: u.password }, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await t.mailSettled();
  const mail = t.mailer.sent.findLast((m) => m.to === u.email)!;
  const url = /(http:\/\/plaza\.test\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
  return url.replace('http://plaza.test/api/v1/', '');
}

const count = async (
  table: 'posts' | 'comments' | 'follows' | 'notifications' | 'access_tokens' | 'private_messages',
  where: (q: any) => any,
) => Number((await where(t.database.db.selectFrom(table).select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirstOrThrow()).n);

describe('delete_account.php', () => {
  it('refuses a wrong password with a 403 and sends nothing', async () => {
    const u = await aUser(t.api);
    const before = t.mailer.sent.length;
    const res = await t.api.post('delete_account.php', { password: 'not mine' }, { token: u.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'wrong_password' });
    expect((await t.api.post('delete_account.php', {}, { token: u.token })).status).toBe(400);
    await t.mailSettled();
    expect(t.mailer.sent.length).toBe(before);
  });

  it('deletes the account, its sessions and content through the link, keeping what others’ threads need', async () => {
    const [a, b] = [await aUser(t.api), await aUser(t.api)];
    // a's own content, with b's comment on it.
    const own = await aPost(t.api, a, { content: 'mine' });
    await aComment(t.api, b, own, { content: 'b on a' });
    // a's traces on b's post: a like, a share, a bookmark, a bare comment, and a comment b answered.
    const theirs = await aPost(t.api, b, { content: 'theirs' });
    await t.api.post('likes.php', { post_id: theirs.id }, { token: a.token });
    await t.api.post('shares.php', { post_id: theirs.id }, { token: a.token });
    await t.api.post('bookmarks.php', { post_id: theirs.id }, { token: a.token });
    await aComment(t.api, a, theirs, { content: 'bare' });
    const answered = await aComment(t.api, a, theirs, { content: 'answered' });
    await aComment(t.api, b, theirs, { content: 'reply', parent_id: answered.id });
    await aFollow(t.api, a, b);
    await aFollow(t.api, b, a);
    await aFriendship(t.api, a, b);
    await aMessage(t.api, a, b, { content: 'from a' });
    await aMessage(t.api, b, a, { content: 'from b' });
    const group = await aMessageGroup(t.api, a, [b]);
    await aGroupMessage(t.api, a, group, { content: 'a in the group' });

    const link = await deletionLink(a);
    const done = await t.api.get(link);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, user_id: a.id });

    // The account: no session, no login, no profile.
    expect((await t.api.get('users.php', { token: a.token })).status).toBe(401);
    expect((await t.api.post('auth.php', { username: a.username, password: a.password })).body.success).toBe(false);
    expect((await t.api.get(`users.php?id=${a.id}`, { token: b.token })).status).toBe(404);
    expect(await count('access_tokens', (q) => q.where('user_id', '=', a.id).where('revoked_at', 'is', null))).toBe(0);
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: `deleted_${a.id}`, password_hash: '', bio: null, deleted_at: '2026-04-20 12:00:00' });
    expect(row.email).not.toBe(a.email);

    // Its content and relations.
    expect(await count('posts', (q) => q.where('user_id', '=', a.id))).toBe(0);
    expect(await count('follows', (q) => q.where((eb: any) => eb.or([eb('follower_id', '=', a.id), eb('followee_id', '=', a.id)])))).toBe(
      0,
    );
    expect(
      await count('notifications', (q) => q.where((eb: any) => eb.or([eb('user_id', '=', a.id), eb('from_user_id', '=', a.id)]))),
    ).toBe(0);
    expect((await t.api.get('friends.php', { token: b.token })).body.data ?? []).toEqual([]);

    // b's post: counters follow; the answered comment stays, emptied, with b's reply under it.
    const post = await t.database.db
      .selectFrom('posts')
      .select(['likes_count', 'shares_count', 'comments_count'])
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(post).toEqual({ likes_count: 0, shares_count: 0, comments_count: 2 });
    const comments = await t.database.db
      .selectFrom('comments')
      .select(['id', 'user_id', 'content', 'parent_id'])
      .where('post_id', '=', theirs.id)
      .orderBy('id')
      .execute();
    expect(comments).toEqual([
      { id: answered.id, user_id: a.id, content: '', parent_id: null },
      { id: expect.any(Number), user_id: b.id, content: 'reply', parent_id: answered.id },
    ]);

    // b's conversation keeps both sides; the group keeps an admin and its history.
    const thread = await t.api.get(`messages.php?user_id=${a.id}`, { token: b.token });
    expect(thread.body.data.data.map((m: { content: string }) => m.content).sort()).toEqual(['from a', 'from b']);
    const roles = await t.database.db
      .selectFrom('message_group_members')
      .select(['user_id', 'role'])
      .where('group_id', '=', group.id)
      .execute();
    expect(roles).toEqual([{ user_id: b.id, role: 'admin' }]);

    // The tombstone takes no new relation or message.
    expect((await t.api.post('follows.php', { user_id: a.id }, { token: b.token })).status).toBe(404);
    expect((await t.api.post('friends.php', { action: 'send', user_id: a.id }, { token: b.token })).status).toBe(404);
    expect((await t.api.post('messages.php', { user_id: a.id, content: 'still there?' }, { token: b.token })).status).toBe(404);

    // The link worked once.
    const again = await t.api.get(link);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_deletion_token');
  });

  it('refuses a link after 24 hours, and an unknown one', async () => {
    const u = await aUser(t.api);
    const link = await deletionLink(u);
    clock.advance(24 * 3600_000 + 1000);
    expect((await t.api.get(link)).status).toBe(400);
    expect((await t.api.get('delete_account.php?token=nope')).status).toBe(400);
    expect((await t.api.get('users.php', { token: u.token })).status).toBe(200);
  });

  it('deletes once under 20 identical clicks at once', async () => {
    const u = await aUser(t.api);
    await aPost(t.api, u);
    const link = await deletionLink(u);
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.api.get(link)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(19);
    expect(await count('posts', (q) => q.where('user_id', '=', u.id))).toBe(0);
  });

  it('reaches every context’s tables: calls end, broadcasts go, reports close, candidacy and votes are withdrawn', async () => {
    const [a, b] = [await aUser(t.api), await aUser(t.api)];
    const call = await aCall(t.api, a, { recipient_id: b.id });
    const live = await aLive(t.api, a);
    await expect(
      t.api.post('moderators.php?action=apply', { motivation: 'I will judge fairly' }, { token: a.token }),
    ).resolves.toMatchObject({ status: 200 });
    const theirPost = await aPost(t.api, b);
    const filed = await aReport(t.api, a, { post_id: theirPost.id });
    const received = await aReport(t.api, b, { user_id: a.id });
    const lonely = await aSuggestion(t.api, a, { title: 'Only mine', description: 'Nobody else ever looked at it' });
    const discussed = await aSuggestion(t.api, a, { title: 'Discussed', description: 'Others voted on this one, so it stays' });
    await t.api.post('feature_suggestions.php?action=vote', { suggestion_id: discussed.id, vote: 1 }, { token: b.token });
    const theirs = await aSuggestion(t.api, b);
    await t.api.post('feature_suggestions.php?action=vote', { suggestion_id: theirs.id, vote: 1 }, { token: a.token });

    // The export holds every context's sections before the deletion.
    const exported = await t.api.get('export.php', { token: a.token });
    expect(exported.status).toBe(200);
    expect(exported.body.calls.map((c: { id: number }) => c.id)).toEqual([call.id]);
    expect(exported.body.lives.map((l: { id: number }) => l.id)).toEqual([live.id]);
    expect(exported.body.reports.map((r: { id: number }) => r.id)).toEqual([filed.id]);
    expect(exported.body.moderator_candidacies).toHaveLength(1);
    expect(exported.body.feature_suggestions.map((s: { id: number }) => s.id)).toEqual([lonely.id, discussed.id]);

    expect((await t.api.get(await deletionLink(a))).status).toBe(200);

    const db = t.database.db;
    expect(await db.selectFrom('calls').select('status').where('id', '=', call.id).executeTakeFirstOrThrow()).toEqual({ status: 'ended' });
    expect(await db.selectFrom('call_signals').select('id').where('from_user_id', '=', a.id).execute()).toEqual([]);
    expect(await db.selectFrom('lives').select('id').where('user_id', '=', a.id).execute()).toEqual([]);
    const reports = await db
      .selectFrom('reports')
      .select(['id', 'status'])
      .where('id', 'in', [filed.id, received.id])
      .orderBy('id')
      .execute();
    expect(reports).toEqual([
      { id: filed.id, status: 'cancelled' },
      { id: received.id, status: 'cancelled' },
    ]);
    expect(await db.selectFrom('moderator_candidacies').select(['status', 'open_user_id']).where('user_id', '=', a.id).execute()).toEqual([
      { status: 'withdrawn', open_user_id: null },
    ]);
    const suggestions = await db
      .selectFrom('feature_suggestions')
      .select(['id', 'votes_up', 'score'])
      .where('id', 'in', [lonely.id, discussed.id, theirs.id])
      .orderBy('id')
      .execute();
    expect(suggestions.map((r) => [r.id, Number(r.votes_up), Number(r.score)])).toEqual([
      [discussed.id, 1, 1],
      [theirs.id, 0, 0],
    ]);
    // b can report and be reported again: nothing of a's is left open.
    expect((await t.api.get('reports.php?status=pending', { token: b.token })).body.reports ?? []).not.toContainEqual(
      expect.objectContaining({ id: received.id }),
    );
  });
});
