import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aCommunityGroup, aGroupComment, aGroupMembership, aGroupPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Groups under N identical or parallel requests fired at once (in the style of concurrency.test.ts):
 * joins, requests, approvals, role changes, leaving, reactions. On MariaDB the requests really overlap;
 * the counts, rows and notifications must come out exact, with no answer of 500 or more.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const N = 20;
const as = (u: TestUser) => ({ token: u.token });

async function burst(n: number, request: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
  const failures = answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`);
  expect(failures, 'answers of 500 and above').toEqual([]);
  return answers;
}

const ok = (answers: ApiResponse[]) => answers.filter((a) => a.status === 200 && a.body?.success === true);

async function users(n: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) out.push(await aUser(t.api));
  return out;
}

async function notifications(to: TestUser, type: string, groupId?: number): Promise<number> {
  let q = t.database.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', to.id)
    .where('type', '=', type);
  if (groupId !== undefined) q = q.where('group_id', '=', groupId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function group(id: number) {
  return t.database.db.selectFrom('community_groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function memberRows(groupId: number) {
  return t.database.db.selectFrom('group_members').select(['user_id', 'role']).where('group_id', '=', groupId).execute();
}

describe('groups under concurrent requests', () => {
  it('N different users joining a public group at once: N members, an exact members_count', async () => {
    const admin = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, admin)).id;
    const joiners = await users(N);
    const answers = await burst(N, (i) => t.api.post('groups.php', { action: 'join', group_id: g }, as(joiners[i])));
    expect(ok(answers)).toHaveLength(N);
    expect((await memberRows(g)).length).toBe(N + 1);
    expect(Number((await group(g)).members_count)).toBe(N + 1);
  });

  it('one user joining N times at once: one membership, counted once', async () => {
    const [admin, joiner] = await users(2);
    const g = (await aCommunityGroup(t.api, admin)).id;
    await burst(N, () => t.api.post('groups.php', { action: 'join', group_id: g }, as(joiner)));
    expect((await memberRows(g)).length).toBe(2);
    expect(Number((await group(g)).members_count)).toBe(2);
  });

  it('requests to a private group, once each and once repeated N times: one request and one notification each', async () => {
    const admin = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, admin, { privacy: 'private' })).id;
    const requesters = await users(N);
    await burst(N, (i) => t.api.post('groups.php', { action: 'join', group_id: g }, as(requesters[i])));
    const eager = await aUser(t.api);
    await burst(N, () => t.api.post('groups.php', { action: 'join', group_id: g }, as(eager)));
    const rows = await t.database.db.selectFrom('group_join_requests').select('user_id').where('group_id', '=', g).execute();
    expect(rows).toHaveLength(N + 1);
    expect(await notifications(admin, 'group_join_request', g)).toBe(N + 1);
    const fromEager = await t.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', admin.id)
      .where('from_user_id', '=', eager.id)
      .execute();
    expect(fromEager).toHaveLength(1);

    // N approvals of N requests at once: N members, exact count, one notification each.
    const answers = await burst(N, (i) =>
      t.api.post('groups.php', { action: 'approve_request', group_id: g, user_id: requesters[i].id }, as(admin)),
    );
    expect(ok(answers)).toHaveLength(N);
    expect(Number((await group(g)).members_count)).toBe(N + 1);
    expect((await memberRows(g)).length).toBe(N + 1);
    for (const r of requesters) expect(await notifications(r, 'group_join_approved', g)).toBe(1);

    // The same request approved N times at once: one approval, the others 404; one notification.
    const same = await burst(N, () => t.api.post('groups.php', { action: 'approve_request', group_id: g, user_id: eager.id }, as(admin)));
    expect(ok(same)).toHaveLength(1);
    expect(same.filter((a) => a.status === 404)).toHaveLength(N - 1);
    expect(await notifications(eager, 'group_join_approved', g)).toBe(1);
    expect(Number((await group(g)).members_count)).toBe(N + 2);
  });

  it('N admins demoting themselves at once: the group keeps exactly one admin', async () => {
    const founder = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, founder)).id;
    const admins = await users(N - 1);
    await aGroupMembership(t.api, g, admins);
    for (const a of admins) await t.api.post('groups.php', { action: 'promote_member', group_id: g, user_id: a.id }, as(founder));
    const all = [founder, ...admins];
    const answers = await burst(N, (i) =>
      t.api.post('groups.php', { action: 'demote_member', group_id: g, user_id: all[i].id }, as(all[i])),
    );
    expect(ok(answers)).toHaveLength(N - 1);
    expect(answers.filter((a) => a.body?.code === 'last_admin')).toHaveLength(1);
    expect((await memberRows(g)).filter((m) => m.role === 'admin')).toHaveLength(1);
  });

  it('N admins leaving at once: the last one hands over to the remaining member', async () => {
    const founder = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, founder)).id;
    const others = await users(N);
    await aGroupMembership(t.api, g, others);
    const leaving = [founder, ...others.slice(0, N - 1)];
    for (const a of leaving.slice(1)) await t.api.post('groups.php', { action: 'promote_member', group_id: g, user_id: a.id }, as(founder));
    const answers = await burst(N, (i) => t.api.delete(`groups.php?id=${g}`, undefined, as(leaving[i])));
    expect(ok(answers)).toHaveLength(N);
    expect(await memberRows(g)).toEqual([{ user_id: others[N - 1].id, role: 'admin' }]);
    expect(Number((await group(g)).members_count)).toBe(1);
  });

  it('reactions on a group post and on a group comment: exact counts, one notification per reaction and per change', async () => {
    const author = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, author, { privacy: 'private' })).id;
    const fans = await users(N);
    await aGroupMembership(t.api, g, fans, author);
    const post = (await aGroupPost(t.api, author, g)).id;
    const comment = (await aGroupComment(t.api, author, post)).id;
    await burst(N, (i) => t.api.post('group_reactions.php', { post_id: post, reaction_type: 'love' }, as(fans[i])));
    await burst(N, (i) =>
      t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'like' }, as(fans[i])),
    );
    // One user, N times each.
    await burst(N, () => t.api.post('group_reactions.php', { post_id: post, reaction_type: 'wow' }, as(fans[0])));
    await burst(N, () =>
      t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group', reaction_type: 'wow' }, as(fans[0])),
    );
    const row = await t.database.db.selectFrom('group_posts').select('likes_count').where('id', '=', post).executeTakeFirstOrThrow();
    expect(Number(row.likes_count)).toBe(N);
    expect(await t.database.db.selectFrom('group_post_reactions').select('user_id').where('post_id', '=', post).execute()).toHaveLength(N);
    const view = await t.api.get(`group_comments.php?post_id=${post}`, as(author));
    expect(view.body.data[0].reactions_count).toBe(N);
    // One notice per reacting user on the post and on the comment, and one for fans[0]'s change of each
    // (told once however many identical changes race: the one reaction rule, docs/decisions/0120).
    expect(await notifications(author, 'reaction', g)).toBe(2 * N + 2);
    for (const f of fans) {
      const fromFan = await t.database.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', author.id)
        .where('from_user_id', '=', f.id)
        .where('type', '=', 'reaction')
        .execute();
      expect(fromFan).toHaveLength(f === fans[0] ? 4 : 2);
    }
    // N removals at once by one user: counted down once.
    await burst(N, () => t.api.delete(`group_reactions.php?post_id=${post}`, undefined, as(fans[1])));
    const after = await t.database.db.selectFrom('group_posts').select('likes_count').where('id', '=', post).executeTakeFirstOrThrow();
    expect(Number(after.likes_count)).toBe(N - 1);
  });

  it('comments and a post deletion racing: the post goes with every comment and reaction, no 500', async () => {
    const author = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, author)).id;
    const fans = await users(N);
    const post = (await aGroupPost(t.api, author, g)).id;
    const comment = (await aGroupComment(t.api, author, post)).id;
    await burst(N + 1, (i) =>
      i === N
        ? t.api.delete(`group_posts.php?id=${post}`, undefined, as(author))
        : i % 2
          ? t.api.post('group_comments.php', { post_id: post, content: `c${i}` }, as(fans[i]))
          : t.api.post('comment_reactions.php', { comment_id: comment, comment_type: 'group' }, as(fans[i])),
    );
    expect(await t.database.db.selectFrom('group_posts').select('id').where('id', '=', post).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('group_comments').select('id').where('post_id', '=', post).execute()).toEqual([]);
    // A reaction that waited for the deletion finds its comment gone (404): none is left behind.
    expect(
      await t.database.db
        .selectFrom('comment_reactions')
        .select('user_id')
        .where('comment_type', '=', 'group')
        .where('comment_id', '=', comment)
        .execute(),
    ).toEqual([]);
    expect(Number((await group(g)).posts_count)).toBe(0);
  });
});
