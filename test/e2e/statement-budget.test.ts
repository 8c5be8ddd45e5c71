import { afterAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aCall, aFollow, aMessage, aPost, aUser, MOBILE_APP } from '../support/mothers.js';
import { startTestServer } from '../support/server.js';

/**
 * The statements each request of the benchmark scenarios (bench/scenarios) sends, counted by the
 * database handle (adapters-mysql query-counter.ts) on SQLite and MariaDB alike: a request that
 * starts sending one more fails here (issue 30, item 2). Each request is sent once first (a timeline
 * built, a token's last use recorded), then measured. As in the benchmark, no push provider is
 * configured: pushes go to the log.
 */
const t = await startTestServer({ realPush: true });
afterAll(() => t.close());

const me = await aUser(t.api);
const peer = await aUser(t.api);
await aFollow(t.api, me, peer);
await aPost(t.api, peer, { content: 'a post to read #budget' });
const first = await aMessage(t.api, peer, me, { content: 'hello' });
await aMessage(t.api, me, peer, { content: 'a reply', parent_id: first.id });
expect((await t.api.post('messages.php?action=react', { message_id: first.id, reaction: 'love' }, { token: me.token })).status).toBe(200);
const call = await aCall(t.api, me, { recipient_id: peer.id });
const asPeer = { token: peer.token, headers: MOBILE_APP };
expect((await t.api.post('calls.php?action=answer', { call_id: call.id, answer: 'v=0\r\no=peer\r\n' }, asPeer)).status).toBe(200);
const candidate = { call_id: call.id, candidate: 'candidate:1 1 udp 1 192.0.2.1 5000 typ host' };
expect((await t.api.post('calls.php?action=ice_candidate', candidate, asPeer)).status).toBe(200);

async function statementsOf(request: () => Promise<ApiResponse>): Promise<number> {
  expect((await request()).status).toBe(200);
  const before = t.database.queries.executed;
  const res = await request();
  const statements = t.database.queries.executed - before;
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return statements;
}

describe('statements per request of the benchmark scenarios', () => {
  it('own profile (GET users.php): one', async () => {
    expect(await statementsOf(() => t.api.get('users.php', { token: me.token }))).toBe(1);
  });

  it('following feed, timeline ready (GET posts.php): one', async () => {
    expect(await statementsOf(() => t.api.get('posts.php?page=1&per_page=20', { token: me.token }))).toBe(1);
  });

  it('create post (POST posts.php): post, wall entry, timelines and the remote-follower check, in one transaction', async () => {
    // begin, insert posts, insert wall_entries, insert-select home_timeline, remote_followers, commit.
    const create = () => t.api.post('posts.php', { content: 'Benchmark post #bench', tags: ['load'] }, { token: me.token });
    expect(await statementsOf(create)).toBe(6);
  });

  it('message send (POST messages.php): recipient with the conversation, then the message and both sides in one transaction', async () => {
    // Before: 7 (recipient; auto-delete setting; begin, insert, upsert conversations, commit; push switches).
    const send = () => t.api.post('messages.php', { user_id: peer.id, content: 'are we still on?' }, { token: me.token });
    expect(await statementsOf(send)).toBe(5);
  });

  it('message thread (GET messages.php?user_id=): both accounts with the conversation, page with its total, read marks, reactions', async () => {
    // Before: 10 (peer; cleared marker; page; total; mark read; parents; senders; reaction counts; own reactions;
    // auto-delete setting). Now: both accounts with the conversation; the page carrying its total; mark read; parents;
    // reaction counts; own reactions. The page holds a reply, as the benchmark's does: without one, no parents' read.
    const res = await t.api.get(`messages.php?user_id=${peer.id}&page=1`, { token: me.token });
    expect(res.body.data.data.some((m: { parent_id: number | null }) => m.parent_id === first.id)).toBe(true);
    expect(await statementsOf(() => t.api.get(`messages.php?user_id=${peer.id}&page=1`, { token: me.token }))).toBe(6);
  });

  it('call poll (GET calls.php?action=poll): call, participants, signals, accounts', async () => {
    // Before: 5 (the actor's participation was read apart from the participants list).
    const poll = () =>
      t.api.get(`calls.php?action=poll&call_id=${call.id}&last_poll=${encodeURIComponent('2026-01-01 00:00:00')}`, {
        token: me.token,
        headers: MOBILE_APP,
      });
    expect((await poll()).body.data.ice_candidates).toHaveLength(1);
    expect(await statementsOf(poll)).toBe(4);
  });
});
