import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('users.php', () => {
  it('returns the own profile at the top level with the contract types', async () => {
    const u = await aUser(t.api);
    const res = await t.api.get('users.php', { token: u.token });
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p).toMatchObject({ success: true, id: u.id, username: u.username, email: u.email });
    for (const k of ['followers_count', 'following_count', 'posts_count', 'fediverse_followers_count', 'fediverse_following_count']) {
      expect(typeof p[k], k).toBe('number');
    }
    for (const k of ['is_following', 'is_friend', 'is_private', 'is_remote', 'is_admin']) expect(typeof p[k], k).toBe('boolean');
    expect(p.sent_request_id).toBeNull();
    expect(p.received_request_id).toBeNull();
    expect(p.account_type).toBe('local');
    expect(p.fediverse_handle).toBe(`@${u.username}@plaza.test`);
    expect(p.fediverse_actor_id).toBe(`http://plaza.test/fediverse/actor.php?username=${u.username}`);
    expect(p.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(p.password_hash).toBeUndefined();
    expect(p.totp_secret).toBeUndefined();
    expect(p.data).toBeUndefined();
  });

  it("shows another user's profile without their e-mail", async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const res = await t.api.get(`users.php?id=${b.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(b.id);
    expect(res.body.email).toBeUndefined();
  });

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    const a = await aUser(t.api);
    expect((await t.api.get('users.php?id=999999', { token: a.token })).status).toBe(404);
    const bad = await t.api.get('users.php?id=abc', { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('id');
  });

  it('updates only the keys sent; null and empty string clear', async () => {
    const u = await aUser(t.api);
    let res = await t.api.put(
      'users.php',
      { bio: 'hello', status_emoji: 'manif', status_text: 'À la manif', militant_badge: 'antifa', website: 'https://x.test' },
      { token: u.token },
    );
    expect(res.status).toBe(200);
    res = await t.api.put('users.php', { status_emoji: null, status_text: null, militant_badge: '' }, { token: u.token });
    expect(res.status).toBe(200);
    const me = (await t.api.get('users.php', { token: u.token })).body;
    expect(me).toMatchObject({ bio: 'hello', website: 'https://x.test', status_emoji: null, status_text: null, militant_badge: null });
  });

  it('refuses wrong types and over-long values without changing anything', async () => {
    const u = await aUser(t.api);
    await t.api.put('users.php', { bio: 'kept' }, { token: u.token });
    expect((await t.api.put('users.php', { bio: 12 }, { token: u.token })).status).toBe(400);
    expect((await t.api.put('users.php', { bio: 'x'.repeat(5000) }, { token: u.token })).status).toBe(400);
    expect((await t.api.put('users.php', ['bio'], { token: u.token })).status).toBe(400);
    expect((await t.api.get('users.php', { token: u.token })).body.bio).toBe('kept');
  });

  it('never lets one user change another (the update always targets the caller)', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    await t.api.put(`users.php?id=${b.id}`, { bio: 'hijacked', id: b.id }, { token: a.token });
    expect((await t.api.get(`users.php?id=${b.id}`, { token: a.token })).body.bio).toBe('');
  });
});
