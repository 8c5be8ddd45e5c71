import { resolveAll, Scripts } from '@plaza/server';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aComment, aFollow, aMessage, aPost, aUser } from '../support/mothers.js';
import { EXAMPLES, inputFieldsOf, operationsOf, requestOf, seedFixtures, send, tokenOf } from '../support/operation-examples.js';
import { startTestServer } from '../support/server.js';

/**
 * Every list endpoint (every GET operation that takes `per_page`) runs the same number of queries
 * for a page of 1 as for a page of 50: lists load their items' details in batches (by ids), never
 * one query per item. Queries are counted by the database handle (adapters-mysql query-counter.ts)
 * between sending a request and reading its answer; requests go one at a time and jobs are off.
 */
// The guard lifted so that search_remote's example (an actor URL on 127.0.0.1, where nothing listens)
// is looked up and found missing, a list of none, rather than refused before any query (decision 0111).
const t = await startTestServer({ env: { API_FEDERATION_ALLOW_PRIVATE: 'true' } });
afterAll(() => t.close());
const f = await seedFixtures(t.api);

// More than one of everything the fixtures' user lists: posts, shares, bookmarks, comments, follows,
// followers, notifications and messages, so that a page of 50 holds several items where a page of 1 holds one.
const more = await Promise.all([aUser(t.api), aUser(t.api), aUser(t.api)]);
for (const u of more) {
  await aFollow(t.api, f.me, u);
  await aFollow(t.api, u, f.me);
  const post = await aPost(t.api, u, { content: `a post by ${u.username} #fixture` });
  await t.api.post('bookmarks.php', { post_id: post.id }, { token: f.me.token });
  await t.api.post('shares.php', { post_id: post.id }, { token: f.me.token });
  await t.api.post('reactions.php', { post_id: f.post, reaction_type: 'like' }, { token: u.token });
  await aComment(t.api, u, f.post, { content: `a comment by ${u.username}` });
  await aMessage(t.api, u, f.me, { content: `hello from ${u.username}` });
  await aMessage(t.api, f.me, u, { content: `hello to ${u.username}` });
  await aPost(t.api, f.me, { content: `another post of mine #fixture` });
}

const lists = operationsOf(resolveAll(t.plaza.container, Scripts)).filter(
  (x) => x.o.method === 'GET' && inputFieldsOf(x.o).some((field) => field.where === 'query' && field.name === 'per_page'),
);

function itemsOf(res: ApiResponse): number {
  const body = res.body ?? {};
  const arrays = [body, body.data ?? {}].flatMap((o: Record<string, unknown>) => Object.values(o).filter(Array.isArray)) as unknown[][];
  return Math.max(0, ...arrays.map((a) => a.length));
}

describe('a constant number of queries per list request, whatever the page size', () => {
  it('lists the list endpoints', () => {
    expect(lists.length).toBeGreaterThan(10);
  });

  const outcomes: { label: string; items: number }[] = [];

  it.each(lists.map((x) => [x.label, x] as const))('%s', async (label, x) => {
    // Lists whose inputs are all optional need no example: their first page is the request.
    const example = EXAMPLES[label]?.(f) ?? {};
    let token = tokenOf(f, example);
    const measure = async (perPage: number) => {
      const { url, body } = requestOf(x.script, x.o, { ...example, query: { ...example.query, page: 1, per_page: perPage } });
      const before = t.database.queries.executed;
      const res = await send(t.api, x.o, url, body, token);
      const queries = t.database.queries.executed - before;
      expect(res.status, `${label} per_page=${perPage}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(400);
      return { queries, items: itemsOf(res) };
    };
    // Moderators' queues answer others 403: they are measured as the fixtures' moderator.
    const { url } = requestOf(x.script, x.o, example);
    if ((await send(t.api, x.o, url, {}, token)).status === 403) token = f.moderator.token;
    await measure(50); // warm-up: a timeline built, a token's last use recorded
    const [one, fifty, oneAgain] = [await measure(1), await measure(50), await measure(1)];
    outcomes.push({ label, items: fifty.items });
    expect({ per_page_1: one.queries, per_page_50: fifty.queries }, `${label} (${fifty.items} items at per_page=50)`).toEqual({
      per_page_1: oneAgain.queries,
      per_page_50: oneAgain.queries,
    });
  });

  it('measured lists that really had several items', () => {
    // Without data the comparison proves nothing: most lists must have held several items.
    const several = outcomes.filter((o) => o.items >= 3).map((o) => o.label);
    expect(several.length, `lists with 3 items or more: ${several.join(', ')}`).toBeGreaterThanOrEqual(8);
    for (const core of ['GET posts.php', 'GET bookmarks.php', 'GET notifications.php']) {
      expect(outcomes.find((o) => o.label === core)?.items ?? 0, core).toBeGreaterThanOrEqual(3);
    }
  });
});
