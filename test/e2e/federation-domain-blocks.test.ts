import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient, text } from '../support/form-client.js';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import { freePort } from '../support/free-port.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Domain blocks and the delivery queue (issue 26 item 4, Federation; docs/decisions/0106) over HTTP,
 * against a real Fedify peer and the strict verifier on loopback: both live on 127.0.0.1, the
 * domain these tests block. The admin panel's pages are driven as a browser would post them (the
 * Chromium suite is admin-federation.test.ts).
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;
const BLOCKED = '127.0.0.1';

const actorOf = (u: { username: string }) => world.actorOf(u);
const inboxOf = (u: { username: string }) => world.inboxOf(u);
const drain = () => world.drain();
const db = () => server.database.db;

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict, origin } = world);
});
afterAll(() => world?.close());

async function withRole(role: 'admin' | 'moderator' | null): Promise<TestUser> {
  const u = await aUser(server.api);
  if (role)
    await db()
      .updateTable('users')
      .set(role === 'admin' ? { is_admin: 1 } : { is_moderator: 1 })
      .where('id', '=', u.id)
      .execute();
  return u;
}

async function signedIn(u: TestUser): Promise<FormClient> {
  const b = new FormClient(server.url);
  await b.signIn(u.username, u.password);
  return b;
}

/** Opens the Federation page (for a fresh CSRF token) and posts a form on it. */
async function federationForm(b: FormClient, fields: Record<string, string | null>) {
  await b.get('/admin/federation.php');
  return b.post('/admin/federation.php', fields);
}

const blocks = () => db().selectFrom('domain_blocks').selectAll().orderBy('domain').execute();
const logLines = (type: string) =>
  db().selectFrom('moderation_actions').selectAll().where('action_type', '=', type).orderBy('id').execute();
const followersOf = (u: TestUser) => db().selectFrom('remote_followers').selectAll().where('user_id', '=', u.id).execute();
const followingOf = (u: TestUser) => db().selectFrom('remote_following').selectAll().where('user_id', '=', u.id).execute();
const peerCreates = () => peer.received.filter((a) => a.constructor.name === 'Create').length;

describe('suspend, then unblock', () => {
  let admin: FormClient;
  let alice: TestUser;
  let bob: TestUser;
  let peerNote: string;

  beforeAll(async () => {
    admin = await signedIn(await withRole('admin'));
    alice = await aUser(server.api);
    bob = await aUser(server.api);
    // The peer follows alice; bob follows the peer and gets its note; the strict actor follows alice.
    await peer.follow(actorOf(alice));
    expect((await server.api.post('fediverse.php?action=follow_remote', { actor_url: peer.actorUrl }, { token: bob.token })).status).toBe(
      200,
    );
    await drain();
    await drain();
    peerNote = await peer.post('Before the block');
    const follow = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: newActivityId(strict.origin),
      type: 'Follow',
      actor: strict.actorUrl,
      object: actorOf(alice),
    };
    expect((await strict.signedPost(inboxOf(alice), follow)).status).toBe(202);
    await drain();
  });

  it('blocking removes the follows both ways and the stored posts, with one line in the moderators’ log', async () => {
    expect(await followersOf(alice)).toHaveLength(2);
    expect((await followingOf(bob)).map((f) => f.actor_url)).toEqual([peer.actorUrl]);
    expect((await server.api.get('fediverse.php?action=feed', { token: bob.token })).body.posts.map((p: any) => p.remote_post_id)).toEqual([
      peerNote,
    ]);

    const res = await federationForm(admin, { action: 'block', domain: ` ${BLOCKED}. `, severity: 'suspend', reason: 'Spam wave' });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=blocked');
    expect(await blocks()).toEqual([expect.objectContaining({ domain: BLOCKED, severity: 'suspend', reason: 'Spam wave' })]);
    const [line] = await logLines('block_domain');
    expect(line.reason).toBe(`${BLOCKED} suspended (3 follows removed): Spam wave`);

    expect(await followersOf(alice)).toEqual([]);
    expect(await followingOf(bob)).toEqual([]);
    expect(await db().selectFrom('remote_posts').selectAll().where('object_id', '=', peerNote).execute()).toEqual([]);
    expect((await server.api.get('fediverse.php?action=followers', { token: alice.token })).body.followers).toEqual([]);
    expect((await server.api.get('fediverse.php?action=feed', { token: bob.token })).body.posts).toEqual([]);
    expect((await server.api.get('users.php', { token: alice.token })).body.fediverse_followers_count).toBe(0);

    const page = await admin.get('/admin/federation.php');
    expect(text(page.html)).toContain(`${BLOCKED} suspend Spam wave`);
    const log = await admin.get('/admin/moderation_log.php');
    expect(text(log.html)).toContain('block_domain');
  });

  it('its signed deliveries (the strict verifier’s and the Fedify peer’s) answer 403 and store nothing', async () => {
    const tasksBefore = await db()
      .selectFrom('federation_queue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const follow = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: newActivityId(strict.origin),
      type: 'Follow',
      actor: strict.actorUrl,
      object: actorOf(alice),
    };
    const refused = await strict.signedPost(inboxOf(alice), follow);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, code: 'domain_blocked' });
    const note = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${strict.origin}/notes/x#create`,
      type: 'Create',
      actor: strict.actorUrl,
      object: {
        id: `${strict.origin}/notes/x`,
        type: 'Note',
        attributedTo: strict.actorUrl,
        content: '<p>x</p>',
        published: new Date().toISOString(),
      },
    };
    expect((await strict.signedPost(`${origin}/fediverse/inbox`, note)).status).toBe(403);
    // The Fedify peer's own delivery is refused the same way.
    await expect(peer.follow(actorOf(alice))).rejects.toThrow(/403/);
    await drain();
    const tasksAfter = await db()
      .selectFrom('federation_queue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(tasksAfter.n)).toBe(Number(tasksBefore.n));
    expect(await followersOf(alice)).toEqual([]);
    expect(await db().selectFrom('remote_posts').selectAll().where('actor_url', '=', strict.actorUrl).execute()).toEqual([]);
  });

  it('its accounts are not looked up, shown or followed (403 domain_blocked)', async () => {
    const handle = `@peer@${new URL(peer.origin).host}`;
    for (const path of [
      `fediverse.php?action=search_remote&q=${encodeURIComponent(peer.actorUrl)}`,
      `fediverse.php?action=search_remote&q=${encodeURIComponent(handle)}`,
      `fediverse.php?action=remote_profile&q=${encodeURIComponent(peer.actorUrl)}`,
    ]) {
      const res = await server.api.get(path, { token: bob.token });
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: 'domain_blocked' });
    }
    const follow = await server.api.post('fediverse.php?action=follow_remote', { handle }, { token: bob.token });
    expect(follow.status).toBe(403);
    expect(await followingOf(bob)).toEqual([]);
  });

  it('a post is not delivered to a follower on it (one that slipped in from another instance within the cache’s 30 s is skipped)', async () => {
    // As another instance could have stored it before its cached list showed the block.
    await db()
      .insertInto('remote_followers')
      .values({ user_id: alice.id, actor_url: peer.actorUrl, follow_id: `${peer.origin}/follows/late`, followed_at: '2026-01-01 00:00:00' })
      .execute();
    const before = peerCreates();
    await aPost(server.api, alice, { content: 'Not for the suspended server' });
    await drain();
    await new Promise((r) => setTimeout(r, 200));
    expect(peerCreates()).toBe(before);
    // Dropped, not failing or dead.
    const left = await db()
      .selectFrom('federation_queue')
      .select(['channel', 'payload'])
      .where('channel', 'in', ['deliver', 'fanout'])
      .execute();
    expect(left.filter((r) => r.payload.includes(peer.origin))).toEqual([]);
    await db().deleteFrom('remote_followers').where('user_id', '=', alice.id).execute();
  });

  it('unblocking restores deliveries both ways, with its line in the log', async () => {
    const res = await federationForm(admin, { action: 'unblock', domain: BLOCKED });
    expect(res.status).toBe(303);
    expect(await blocks()).toEqual([]);
    expect((await logLines('unblock_domain')).map((l) => l.reason)).toEqual([`${BLOCKED} unblocked (it was suspended: Spam wave)`]);
    // Unblocking again: nothing to unblock, said on the page.
    const again = await federationForm(admin, { action: 'unblock', domain: BLOCKED });
    expect(again.status).toBe(404);
    expect(text(again.html)).toContain('is not blocked');

    await peer.follow(actorOf(alice));
    await drain();
    expect((await followersOf(alice)).map((f) => f.actor_url)).toEqual([peer.actorUrl]);
    const before = peerCreates();
    await aPost(server.api, alice, { content: 'Delivered again' });
    await drain();
    await new Promise((r) => setTimeout(r, 200));
    expect(peerCreates()).toBe(before + 1);
  });
});

describe('silence', () => {
  it('keeps the server’s posts for the accounts that follow their author: not in the global feed, not in a non-follower’s view', async () => {
    const admin = await signedIn(await withRole('admin'));
    const follower = await aUser(server.api);
    const stranger = await aUser(server.api);
    const res = await federationForm(admin, { action: 'block', domain: BLOCKED, severity: 'silence', reason: 'Noisy' });
    expect(res.status).toBe(303);
    expect(await blocks()).toEqual([expect.objectContaining({ domain: BLOCKED, severity: 'silence' })]);

    // Follows still work, both ways, and nothing was removed.
    expect(
      (await server.api.post('fediverse.php?action=follow_remote', { actor_url: peer.actorUrl }, { token: follower.token })).status,
    ).toBe(200);
    await drain();
    await drain();
    const noteId = await peer.post('Silenced but followed');
    await drain();
    const feed = await server.api.get('fediverse.php?action=feed', { token: follower.token });
    expect(feed.body.posts.map((p: any) => p.remote_post_id)).toContain(noteId);

    const seenByFollower = await server.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(peer.actorUrl)}`, {
      token: follower.token,
    });
    expect(seenByFollower.status).toBe(200);
    expect(seenByFollower.body.recent_posts.map((p: any) => p.remote_post_id)).toContain(noteId);
    const seenByStranger = await server.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(peer.actorUrl)}`, {
      token: stranger.token,
    });
    expect(seenByStranger.status).toBe(200);
    expect(seenByStranger.body).toMatchObject({ actor_url: peer.actorUrl, is_following: false, recent_posts: [] });
    expect((await server.api.get('fediverse.php?action=feed', { token: stranger.token })).body.posts).toEqual([]);
    const global = await server.api.get('posts.php?feed_type=global&per_page=50', { token: stranger.token });
    expect(global.status).toBe(200);
    expect(JSON.stringify(global.body)).not.toContain('Silenced but followed');

    expect((await federationForm(admin, { action: 'unblock', domain: BLOCKED })).status).toBe(303);
    const afterUnblock = await server.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(peer.actorUrl)}`, {
      token: stranger.token,
    });
    expect(afterUnblock.body.recent_posts.map((p: any) => p.remote_post_id)).toContain(noteId);
  });
});

describe('the delivery queue', () => {
  it('lists a failing delivery; retry makes it due in place (refused while a worker holds it), a dead one comes back, discard removes it', async () => {
    const admin = await signedIn(await withRole('admin'));
    const author = await aUser(server.api);
    // A follower whose server is down: a closed port on loopback.
    const downInbox = `http://127.0.0.1:${await freePort()}/inbox`;
    const downActor = `${downInbox.replace('/inbox', '')}/users/gone`;
    await db()
      .insertInto('remote_actors')
      .values({
        actor_url: downActor,
        inbox_url: downInbox,
        shared_inbox_url: null,
        outbox_url: null,
        username: 'gone',
        display_name: 'Gone',
        domain: new URL(downInbox).host,
        avatar: null,
        summary: '',
        profile_url: downActor,
        fetched_at: '2026-01-01 00:00:00',
      })
      .execute();
    await db()
      .insertInto('remote_followers')
      .values({ user_id: author.id, actor_url: downActor, follow_id: `${downActor}#follow`, followed_at: '2026-01-01 00:00:00' })
      .execute();
    await aPost(server.api, author, { content: 'Nobody is home' });
    await drain();
    const row = await db().selectFrom('federation_queue').selectAll().where('payload', 'like', `%${downInbox}%`).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ channel: 'deliver', attempts: 1, dead_at: null });

    const failing = await admin.get('/admin/deliveries.php?state=failing');
    expect(failing.status).toBe(200);
    expect(failing.html).toContain(`data-delivery="${row.id}"`);
    expect(text(failing.html)).toContain(downInbox);
    expect(text(failing.html)).toContain('Create');

    // A worker holds it: retry and discard are refused, nothing changes.
    const held = '2999-01-01 00:00:00';
    await db().updateTable('federation_queue').set({ leased_until: held }).where('id', '=', row.id).execute();
    const busy = await admin.post('/admin/deliveries.php?state=failing', { action: 'retry', id: String(row.id) });
    expect(busy.status).toBe(409);
    expect(text(busy.html)).toContain('being delivered right now');
    expect((await admin.post('/admin/deliveries.php?state=failing', { action: 'discard', id: String(row.id) })).status).toBe(409);
    expect(await db().selectFrom('federation_queue').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()).toMatchObject({
      due_at: row.due_at,
      leased_until: held,
    });
    await db().updateTable('federation_queue').set({ leased_until: null }).where('id', '=', row.id).execute();

    // Retry: the same row, due now; tried again by the worker.
    await admin.get('/admin/deliveries.php?state=failing');
    const retried = await admin.post('/admin/deliveries.php?state=failing', { action: 'retry', id: String(row.id) });
    expect(retried.status).toBe(303);
    expect(await db().selectFrom('federation_queue').selectAll().where('payload', 'like', `%${downInbox}%`).execute()).toHaveLength(1);
    // Twenty retries while the worker runs: each one moves the same row or is refused, none copies it.
    const [statuses] = await Promise.all([
      Promise.all(
        Array.from({ length: 20 }, () =>
          admin.post('/admin/deliveries.php?state=failing', { action: 'retry', id: String(row.id) }).then((r) => r.status),
        ),
      ),
      drain(),
    ]);
    expect(statuses.every((s) => s === 303 || s === 409)).toBe(true);
    await drain();
    const rows = await db().selectFrom('federation_queue').selectAll().where('payload', 'like', `%${downInbox}%`).execute();
    expect(rows.map((r) => r.id)).toEqual([row.id]);
    // The last attempt: the worker gives up and the delivery is dead, kept.
    await db().updateTable('federation_queue').set({ attempts: 9, due_at: '2000-01-01 00:00:00' }).where('id', '=', row.id).execute();
    await drain();
    expect(await db().selectFrom('federation_queue').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()).toMatchObject({
      attempts: 10,
      dead_at: expect.any(String),
    });
    const dead = await admin.get('/admin/deliveries.php?state=dead');
    expect(dead.html).toContain(`data-delivery="${row.id}"`);
    expect(dead.html).toMatch(/Dead \(<span id="count-dead">[1-9]\d*<\/span>\)/);

    const discarded = await admin.post('/admin/deliveries.php?state=dead', { action: 'discard', id: String(row.id) });
    expect(discarded.status).toBe(303);
    expect(await db().selectFrom('federation_queue').selectAll().where('id', '=', row.id).execute()).toEqual([]);
    const again = await admin.post('/admin/deliveries.php?state=dead', { action: 'discard', id: String(row.id) });
    expect(again.status).toBe(409);
    expect((await logLines('retry_delivery')).map((l) => l.reason)).toContain(`Delivery #${row.id} retried`);
    expect((await logLines('discard_delivery')).map((l) => l.reason)).toEqual([`Delivery #${row.id} discarded`]);
    await db().deleteFrom('remote_followers').where('user_id', '=', author.id).execute();
  });
});

describe('refusals', () => {
  it('a member gets the 403 page; a moderator reads but does not decide; nothing changes', async () => {
    const member = await signedIn(await withRole(null));
    for (const path of ['/admin/federation.php', '/admin/deliveries.php']) {
      const page = await member.get(path);
      expect(page.status, path).toBe(403);
    }
    expect((await member.get('/admin/tokens.php')).html).not.toContain('/admin/federation.php');

    const mod = await signedIn(await withRole('moderator'));
    const page = await mod.get('/admin/federation.php');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('id="block-form"');
    expect((await mod.get('/admin/deliveries.php?state=dead')).status).toBe(200);
    const refused = await mod.post('/admin/federation.php', {
      action: 'block',
      domain: 'mod-tries.example',
      severity: 'suspend',
      reason: 'x',
    });
    expect(refused.status).toBe(403);
    expect(text(refused.html)).toContain('Only administrators block servers');
    expect((await mod.post('/admin/deliveries.php', { action: 'discard', id: '1' })).status).toBe(403);
    expect(await blocks()).toEqual([]);
  });

  it('a missing or forged CSRF token is refused', async () => {
    const admin = await signedIn(await withRole('admin'));
    await admin.get('/admin/federation.php');
    const missing = await admin.post('/admin/federation.php', {
      action: 'block',
      domain: 'csrf.example',
      severity: 'suspend',
      reason: 'x',
      _csrf: null,
    });
    expect(missing.status).toBe(403);
    expect(text(missing.html)).toContain('csrf_invalid');
    expect(
      (
        await admin.post('/admin/federation.php', {
          action: 'block',
          domain: 'csrf.example',
          severity: 'suspend',
          reason: 'x',
          _csrf: 'forged',
        })
      ).status,
    ).toBe(403);
    expect(await blocks()).toEqual([]);
  });

  it('a bad domain, severity or reason gets the page’s error with the reason, and nothing is stored or logged', async () => {
    const admin = await signedIn(await withRole('admin'));
    const logged = (await logLines('block_domain')).length;
    const cases: [Record<string, string>, string][] = [
      [{ domain: 'http://x' }, 'without http://'],
      [{ domain: '' }, 'name the domain to block'],
      [{ domain: `${'a'.repeat(60)}.`.repeat(5) + 'org' }, 'at most 253 characters'],
      [{ domain: 'example.org:8443' }, 'without a port'],
      [{ domain: '[::1]' }, 'IPv6'],
      [{ domain: '@someone@example.org' }, 'not an account'],
      [{ domain: '*.example.org' }, 'covers its subdomains already'],
      [{ domain: 'exa mple.org' }, 'letters, digits and hyphens'],
      [{ domain: 'example.org', severity: 'ban' }, 'must be one of suspend, silence'],
      [{ domain: 'example.org', reason: '  ' }, 'say why'],
      [{ domain: 'example.org', reason: 'x'.repeat(501) }, 'at most 500 characters'],
    ];
    for (const [fields, reason] of cases) {
      const res = await federationForm(admin, { action: 'block', severity: 'suspend', reason: 'because', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(text(res.html), JSON.stringify(fields)).toContain(reason);
    }
    const unknownAction = await federationForm(admin, { action: 'purge', domain: 'example.org' });
    expect(unknownAction.status).toBe(400);
    const badId = await admin.post('/admin/deliveries.php', { action: 'retry', id: 'abc' });
    expect(badId.status).toBe(400);
    expect(await blocks()).toEqual([]);
    expect(await logLines('block_domain')).toHaveLength(logged);
  });
});

describe('idempotence', () => {
  it('twenty blocks of one domain at once store one row and one log line; the rest are told it is blocked already', async () => {
    const admin = await signedIn(await withRole('admin'));
    await admin.get('/admin/federation.php');
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin
          .post('/admin/federation.php', { action: 'block', domain: 'Race.Example', severity: 'suspend', reason: 'at once' })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await blocks()).toEqual([expect.objectContaining({ domain: 'race.example' })]);
    expect((await logLines('block_domain')).filter((l) => l.reason.startsWith('race.example'))).toHaveLength(1);
    // A subdomain is covered: its lookup is refused without asking it.
    const u = await aUser(server.api);
    const res = await server.api.get(`fediverse.php?action=search_remote&q=${encodeURIComponent('https://a.race.example/users/x')}`, {
      token: u.token,
    });
    expect(res.status).toBe(403);
    await federationForm(admin, { action: 'unblock', domain: 'race.example' });
  });
});
