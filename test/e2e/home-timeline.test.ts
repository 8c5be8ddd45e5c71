import { PostRepository } from '@plaza/domain/content';
import { resolve } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aFollow, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The following feed (posts.php) read from the precomputed home timeline (docs/decisions/0071) gives
 * what the read-time query gives, whatever happened since the timeline was built: follows backfill,
 * unfollows remove, private accounts and shares go through the one visibility rule, removed posts go,
 * and a page below the kept length falls back to the read-time query.
 */
let t: TestServer;
beforeAll(async () => {
  // The shortest timeline the configuration allows, so that trimming and the fallback are reached.
  t = await startTestServer({ env: { HOME_TIMELINE_LENGTH: '20' } });
});
afterAll(() => t.close());

type FeedItem = { id: number; shared_by_username: string | null; feed_date: string };

async function feed(u: TestUser, page = 1, perPage = 20): Promise<FeedItem[]> {
  const res = await t.api.get(`posts.php?page=${page}&per_page=${perPage}`, { token: u.token });
  expect(res.status).toBe(200);
  return res.body.posts.map((p: FeedItem) => ({ id: p.id, shared_by_username: p.shared_by_username ?? null }));
}

/** The same page computed at read time from walls and follows (the query the timeline replaces). */
async function readTime(u: TestUser, page = 1, perPage = 20) {
  const repo = resolve(t.plaza.container, PostRepository);
  const entries = (await repo.feed({ userId: u.id, moderator: false }, { page, perPage })).slice(0, perPage);
  const views = await repo.views(entries, u.id);
  return views.map((v) => ({ id: v.post.id, shared_by_username: v.shared_by_username }));
}

async function expectLikeReadTime(u: TestUser, pages = 1, perPage = 20) {
  for (let page = 1; page <= pages; page++) expect(await feed(u, page, perPage)).toEqual(await readTime(u, page, perPage));
}

async function timelineRows(u: TestUser) {
  return t.database.db.selectFrom('home_timeline').select(['post_id', 'owner_id', 'is_share']).where('user_id', '=', u.id).execute();
}

async function setPrivate(u: TestUser, on: boolean) {
  await t.database.db
    .updateTable('users')
    .set({ is_private: on ? 1 : 0 })
    .where('id', '=', u.id)
    .execute();
}

const ok = (res: ApiResponse) => expect(res.status, JSON.stringify(res.body)).toBe(200);

describe('the precomputed home timeline', () => {
  it('is built on the first read, then receives new posts of followed accounts and one’s own', async () => {
    const [reader, author, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const before = await aPost(t.api, author, { content: 'before the follow' });
    await aFollow(t.api, reader, author);
    expect(await timelineRows(reader)).toEqual([]);
    expect((await feed(reader)).map((p) => p.id)).toEqual([before.id]);
    expect(await timelineRows(reader)).toHaveLength(1);

    const after = await aPost(t.api, author, { content: 'after' });
    const own = await aPost(t.api, reader, { content: 'mine' });
    await aPost(t.api, stranger, { content: 'not followed' });
    expect((await feed(reader)).map((p) => p.id)).toEqual([own.id, after.id, before.id]);
    expect(await timelineRows(reader)).toHaveLength(3);
    await expectLikeReadTime(reader);
  });

  it('backfills a follow and removes an unfollowed account’s posts and shares', async () => {
    const [reader, author, sharer] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await feed(reader); // built, empty
    const posts = [await aPost(t.api, author, { content: 'one' }), await aPost(t.api, author, { content: 'two' })];
    ok(await t.api.post('shares.php', { post_id: posts[0].id }, { token: sharer.token }));
    expect(await feed(reader)).toEqual([]);

    await aFollow(t.api, reader, author);
    expect((await feed(reader)).map((p) => p.id)).toEqual([posts[1].id, posts[0].id]);
    await aFollow(t.api, reader, sharer);
    const withShare = await feed(reader);
    expect(withShare[0]).toEqual({ id: posts[0].id, shared_by_username: sharer.username });
    await expectLikeReadTime(reader);

    ok(await t.api.delete(`follows.php?user_id=${author.id}`, undefined, { token: reader.token }));
    expect(await feed(reader)).toEqual([{ id: posts[0].id, shared_by_username: sharer.username }]);
    expect((await timelineRows(reader)).map((r) => r.owner_id)).toEqual([sharer.id]);
    ok(await t.api.delete(`follows.php?user_id=${sharer.id}`, undefined, { token: reader.token }));
    expect(await feed(reader)).toEqual([]);
    await expectLikeReadTime(reader);
  });

  it('applies the visibility rule: a private author’s post shared by a followed account is hidden from non-followers', async () => {
    const [reader, secret, sharer] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await setPrivate(secret, true);
    await aFollow(t.api, sharer, secret);
    await aFollow(t.api, reader, sharer);
    await feed(reader);
    const post = await aPost(t.api, secret, { content: 'followers only' });
    ok(await t.api.post('shares.php', { post_id: post.id }, { token: sharer.token }));
    // The share reached the reader's timeline, but the rule hides it at read time.
    expect(await timelineRows(reader)).toEqual([{ post_id: post.id, owner_id: sharer.id, is_share: 1 }]);
    expect(await feed(reader)).toEqual([]);
    await aFollow(t.api, reader, secret);
    expect((await feed(reader)).map((p) => p.id)).toEqual([post.id, post.id]);
    await expectLikeReadTime(reader);
    // Turning public, then private again, needs no rewrite of any timeline.
    ok(await t.api.delete(`follows.php?user_id=${secret.id}`, undefined, { token: reader.token }));
    expect(await feed(reader)).toEqual([]);
    await setPrivate(secret, false);
    expect(await feed(reader)).toEqual([{ id: post.id, shared_by_username: sharer.username }]);
    await expectLikeReadTime(reader);
  });

  it('drops removed posts, with their shares, from every timeline', async () => {
    const [reader, author, sharer] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, reader, author);
    await aFollow(t.api, reader, sharer);
    await feed(reader);
    const post = await aPost(t.api, author, { content: 'soon gone' });
    ok(await t.api.post('shares.php', { post_id: post.id }, { token: sharer.token }));
    expect(await timelineRows(reader)).toHaveLength(2);
    ok(await t.api.delete(`posts.php?id=${post.id}`, undefined, { token: author.token }));
    expect(await timelineRows(reader)).toEqual([]);
    expect(await feed(reader)).toEqual([]);
  });

  it('keeps at most its length once trimmed, and reads pages below it at read time', async () => {
    const [reader, author] = [await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, reader, author);
    await feed(reader);
    for (let i = 0; i < 35; i++) await aPost(t.api, author, { content: `post ${i}` });
    expect(await timelineRows(reader)).toHaveLength(35);
    await t.runJob('home-timeline-trim');
    expect(await timelineRows(reader)).toHaveLength(20);
    // Page 1 from the timeline, pages 2 and 3 (below its 20 entries) at read time: the same feed.
    await expectLikeReadTime(reader, 3, 10);
    await expectLikeReadTime(reader, 2, 20);
    expect((await feed(reader, 2, 20)).length).toBe(15);
  });

  it('a follow of an account with more posts than the length keeps the timeline exact down to its horizon', async () => {
    const [reader, prolific, other] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, reader, other);
    for (let i = 0; i < 5; i++) await aPost(t.api, other, { content: `older ${i}` });
    await feed(reader);
    for (let i = 0; i < 25; i++) await aPost(t.api, prolific, { content: `many ${i}` });
    await aFollow(t.api, reader, prolific);
    await expectLikeReadTime(reader, 4, 10);
  });
});

describe('fan-out of an account with many followers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { HOME_TIMELINE_FANOUT_IN_REQUEST: '1' } });
  });
  afterAll(() => server.close());

  it('writes two timelines in the request (the limit and one, which tells there are more) and the third when the job has run', async () => {
    const [author, a, b] = [await aUser(server.api), await aUser(server.api), await aUser(server.api)];
    await aFollow(server.api, a, author);
    await aFollow(server.api, b, author);
    const read = async (u: TestUser) =>
      ((await server.api.get('posts.php', { token: u.token })).body.posts as { id: number }[]).map((p) => p.id);
    for (const u of [author, a, b]) await read(u);
    const post = await aPost(server.api, author, { content: 'to many' });
    const holding = async () => (await Promise.all([author, a, b].map(read))).filter((ids) => ids.includes(post.id)).length;
    expect(await holding()).toBe(2);
    expect(await server.runJob('home-timeline-fanout')).toBe(1);
    expect(await holding()).toBe(3);
    expect(await server.runJob('home-timeline-fanout')).toBe(0);
  });
});

describe('under concurrent requests (on MariaDB they really overlap)', () => {
  const N = 20;
  const noServerErrors = (answers: ApiResponse[]) =>
    expect(answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);

  it('first reads that build at once, posts and shares fanned out meanwhile: the feed is the read-time feed', async () => {
    const reader = await aUser(t.api);
    const authors = await Promise.all(Array.from({ length: 5 }, () => aUser(t.api)));
    for (const a of authors) await aFollow(t.api, reader, a);
    for (const a of authors) await aPost(t.api, a, { content: 'before' });
    const answers = await Promise.all([
      ...Array.from({ length: N }, () => t.api.get('posts.php', { token: reader.token })),
      ...Array.from({ length: N }, (_, i) =>
        t.api.post('posts.php', { content: `during ${i}` }, { token: authors[i % authors.length].token }),
      ),
    ]);
    noServerErrors(answers);
    const newest = answers.slice(N).map((a) => a.body.post_id as number);
    const shares = await Promise.all(
      newest.slice(0, 10).map((id, i) => t.api.post('shares.php', { post_id: id }, { token: authors[(i + 1) % authors.length].token })),
    );
    noServerErrors(shares);
    await expectLikeReadTime(reader, 2, 20);
    // Every entry newer than the build's fill is there once, through the fan-out or the fill, whichever
    // came first: the posts made meanwhile and the shares. The five made before are there only if some
    // build filled before twenty newer ones were committed; otherwise they lie below the horizon, where
    // the feed reads at read time (checked above).
    const rows = await timelineRows(reader);
    const key = (r: { post_id: number; is_share: number | boolean }) => `${r.post_id}:${Number(r.is_share)}`;
    expect(new Set(rows.map(key)).size).toBe(rows.length);
    const meanwhile = [...newest.map((id) => `${id}:0`), ...newest.slice(0, 10).map((id) => `${id}:1`)];
    expect(rows.map(key)).toEqual(expect.arrayContaining(meanwhile));
    const state = await t.database.db
      .selectFrom('home_timeline_state')
      .selectAll()
      .where('user_id', '=', reader.id)
      .executeTakeFirstOrThrow();
    if (state.horizon_at === null) expect(rows).toHaveLength(5 + N + 10);
  });

  it('twenty identical follows backfill once; twenty unfollows leave nothing of the account', async () => {
    const [reader, author] = [await aUser(t.api), await aUser(t.api)];
    for (let i = 0; i < 3; i++) await aPost(t.api, author, { content: `post ${i}` });
    await feed(reader);
    for (let round = 0; round < 3; round++) {
      noServerErrors(
        await Promise.all(Array.from({ length: N }, () => t.api.post('follows.php', { user_id: author.id }, { token: reader.token }))),
      );
      expect(await timelineRows(reader)).toHaveLength(3);
      await expectLikeReadTime(reader);
      noServerErrors(
        await Promise.all(
          Array.from({ length: N }, () => t.api.delete(`follows.php?user_id=${author.id}`, undefined, { token: reader.token })),
        ),
      );
      expect(await timelineRows(reader)).toEqual([]);
    }
  });

  it('follows and unfollows racing with new posts of the same account leave the read-time feed', async () => {
    const readers = await Promise.all(Array.from({ length: 6 }, () => aUser(t.api)));
    const author = await aUser(t.api);
    for (const r of readers) await feed(r);
    const answers = await Promise.all([
      ...readers.map((r) => t.api.post('follows.php', { user_id: author.id }, { token: r.token })),
      ...Array.from({ length: 10 }, (_, i) => t.api.post('posts.php', { content: `racing ${i}` }, { token: author.token })),
      ...readers.slice(0, 3).map((r) => t.api.delete(`follows.php?user_id=${author.id}`, undefined, { token: r.token })),
    ]);
    noServerErrors(answers);
    for (const r of readers) await expectLikeReadTime(r, 1, 20);
  });
});

describe('account data of the home timeline', () => {
  it('is exported as the home_timeline section, and erased with the account, with the account’s entries in others’ timelines', async () => {
    const [reader, author] = [await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, reader, author);
    await aFollow(t.api, author, reader);
    await feed(reader);
    await feed(author);
    const post = await aPost(t.api, author, { content: 'in both timelines' });
    const mine = await aPost(t.api, reader, { content: 'mine, in both too' });

    const exported = await fetch(`${t.url}/api/v1/export.php`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(exported.status).toBe(200);
    const data = JSON.parse(await exported.text());
    expect(data.home_timeline.map((e: { post_id: number }) => e.post_id).sort()).toEqual([post.id, mine.id].sort());

    const asked = await t.api.post('delete_account.php', { password: reader.password }, { token: reader.token });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    await t.mailSettled();
    const mail = t.mailer.sent.findLast((m) => m.to === reader.email)!;
    const link = /http:\/\/plaza\.test\/api\/v1\/(delete_account\.php\?token=\S+)/.exec(mail.text)![1];
    expect((await t.api.get(link)).status).toBe(200);

    expect(await timelineRows(reader)).toEqual([]);
    expect(await t.database.db.selectFrom('home_timeline_state').selectAll().where('user_id', '=', reader.id).execute()).toEqual([]);
    // The author's timeline keeps their own post, not the deleted account's.
    expect((await timelineRows(author)).map((r) => r.post_id)).toEqual([post.id]);
  });
});
