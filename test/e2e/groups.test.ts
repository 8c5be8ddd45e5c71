import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCommunityGroup, aGroupMembership, aGroupPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/**
 * groups.php (contract §20, docs/decisions/0030): community groups, their members, roles, requests and
 * invitations, and who sees a private group.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });

async function detail(u: TestUser, id: number) {
  return t.api.get(`groups.php?id=${id}`, as(u));
}

async function notificationsOf(u: TestUser, type: string) {
  const res = await t.api.get('notifications.php?per_page=100', as(u));
  expect(res.status).toBe(200);
  return (res.body.notifications as { type: string; group_id: number | null; link: string | null; content: string }[]).filter(
    (n) => n.type === type,
  );
}

async function act(u: TestUser, action: string, body: Record<string, unknown>) {
  return t.api.post('groups.php', { action, ...body }, as(u));
}

describe('creating and reading groups', () => {
  it('creates with or without action create, answering 201 with a numeric id; the creator is admin', async () => {
    const alice = await aUser(t.api);
    const a = await t.api.post('groups.php', { action: 'create', name: 'Gardeners', description: 'Seeds', privacy: 'public' }, as(alice));
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      success: true,
      id: expect.any(Number),
      data: { name: 'Gardeners', role: 'admin', is_member: true, members_count: 1 },
    });
    const b = await t.api.post('groups.php', { name: 'Cyclists', privacy: 'private' }, as(alice));
    expect(b.status).toBe(201);
    expect(b.body.data).toMatchObject({ privacy: 'private', description: '' });
    const d = await detail(alice, a.body.id);
    expect(d.status).toBe(200);
    expect(d.body.data).toEqual({
      id: a.body.id,
      name: 'Gardeners',
      description: 'Seeds',
      avatar: null,
      cover_image: null,
      privacy: 'public',
      creator_id: alice.id,
      members_count: 1,
      posts_count: 0,
      is_member: true,
      role: 'admin',
      has_pending_request: null,
      is_invited: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      updated_at: null,
    });
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const alice = await aUser(t.api);
    for (const [body, field] of [
      [{ name: '  ' }, 'name'],
      [{ name: 'x', privacy: 'secret' }, 'privacy'],
      [{ name: 'x', avatar: '../../etc/passwd' }, 'avatar'],
      [{ name: 'x', cover_image: 'https://evil.example/x.png' }, 'cover_image'],
      [{ name: 'x'.repeat(101) }, 'name'],
    ] as const) {
      const res = await t.api.post('groups.php', { action: 'create', ...body }, as(alice));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('lists joined groups and discovers public groups one has not joined, with q', async () => {
    const [alice, bob] = [await aUser(t.api), await aUser(t.api)];
    const tag = `z${Date.now().toString(36)}`;
    const pub = (await aCommunityGroup(t.api, alice, { name: `${tag} Bakers` })).id;
    const priv = (await aCommunityGroup(t.api, alice, { name: `${tag} Secret bakers`, privacy: 'private' })).id;
    const other = (await aCommunityGroup(t.api, bob, { name: `${tag} Brewers` })).id;
    const mine = await t.api.get('groups.php', as(alice));
    expect(mine.status).toBe(200);
    expect(mine.body.groups.map((g: { id: number }) => g.id)).toEqual([priv, pub]);
    expect(mine.body.groups[0]).toMatchObject({ id: priv, is_member: true, role: 'admin', members_count: 1, posts_count: 0 });
    expect((await t.api.get(`groups.php?q=secret`, as(alice))).body.groups.map((g: { id: number }) => g.id)).toEqual([priv]);
    const discover = await t.api.get(`groups.php?discover=1&q=${tag}`, as(bob));
    expect(discover.status).toBe(200);
    // The private group is never discovered; bob's own group neither.
    expect(discover.body.groups.map((g: { id: number }) => g.id)).toEqual([pub]);
    expect(discover.body.groups[0]).toMatchObject({ is_member: false, role: null, has_pending_request: null });
    expect((await t.api.get(`groups.php?discover=1&q=${tag}%20bak`, as(alice))).body.groups).toEqual([]);
    expect((await t.api.get(`groups.php?discover=1&q=Brewers`, as(alice))).body.groups.map((g: { id: number }) => g.id)).toContain(other);
  });

  it('hides a private group from non-members: 404 on details, members and requests; lists leave it out', async () => {
    const [alice, stranger] = [await aUser(t.api), await aUser(t.api)];
    const priv = (await aCommunityGroup(t.api, alice, { privacy: 'private' })).id;
    for (const url of [
      `groups.php?id=${priv}`,
      `groups.php?id=${priv}&members=1`,
      `groups.php?id=${priv}&join_requests=1`,
      `group_posts.php?id=999999`,
    ]) {
      const res = await t.api.get(url, as(stranger));
      expect(res.status, url).toBe(404);
    }
    expect(
      (await t.api.get('groups.php?discover=1&per_page=100', as(stranger))).body.groups.map((g: { id: number }) => g.id),
    ).not.toContain(priv);
    expect((await t.api.get('groups.php', as(stranger))).body.groups).toEqual([]);
    // A public group's members are everyone's to see.
    const pub = (await aCommunityGroup(t.api, alice)).id;
    const members = await t.api.get(`groups.php?id=${pub}&members=1`, as(stranger));
    expect(members.status).toBe(200);
    expect(members.body.members).toEqual([
      { user_id: alice.id, id: alice.id, username: alice.username, avatar: 'default.svg', role: 'admin', joined_at: expect.any(String) },
    ]);
  });
});

describe('joining, requests and invitations', () => {
  it('joins a public group at once; the counters follow', async () => {
    const [alice, bob] = [await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice)).id;
    const join = await act(bob, 'join', { group_id: g });
    expect(join.status).toBe(200);
    expect(join.body).toMatchObject({ success: true, status: 'joined', is_member: true, message: expect.any(String) });
    expect((await act(bob, 'join', { group_id: g })).body).toMatchObject({ status: 'joined', message: 'You are already a member' });
    expect((await detail(bob, g)).body.data).toMatchObject({ is_member: true, role: 'member', members_count: 2 });
  });

  it('files a request for a private group: "pending", the admins told once, listed for admins only', async () => {
    const [alice, co, bob, member] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice, { privacy: 'private' })).id;
    await act(alice, 'invite', { group_id: g, user_id: co.id });
    await act(co, 'join', { group_id: g });
    await act(alice, 'promote_member', { group_id: g, user_id: co.id });
    await act(alice, 'invite', { group_id: g, user_id: member.id });
    await act(member, 'join', { group_id: g });

    const join = await act(bob, 'join', { group_id: g });
    expect(join.body).toMatchObject({ success: true, status: 'pending', is_member: false, has_pending_request: 'pending' });
    expect((await act(bob, 'join', { group_id: g })).body).toMatchObject({ status: 'pending', message: 'Your request is already pending' });
    // The requester sees the group's card with the string "pending", not its content.
    expect((await detail(bob, g)).body.data).toMatchObject({ id: g, has_pending_request: 'pending', is_member: false, role: null });
    expect((await t.api.get(`group_posts.php?group_id=${g}`, as(bob))).status).toBe(403);
    for (const admin of [alice, co]) {
      const told = await notificationsOf(admin, 'group_join_request');
      expect(told.filter((n) => n.group_id === g)).toHaveLength(1);
      expect(told[0].link).toBe(`group_detail.php?id=${g}`);
    }
    const list = await t.api.get(`groups.php?id=${g}&join_requests=1`, as(alice));
    expect(list.status).toBe(200);
    expect(list.body.requests).toEqual([
      { user_id: bob.id, username: bob.username, bio: '', avatar: 'default.svg', created_at: expect.any(String) },
    ]);
    expect((await t.api.get(`groups.php?id=${g}&join_requests=1`, as(member))).status).toBe(403);
  });

  it('approves and rejects requests (admins only), telling the requester', async () => {
    const [alice, bob, carol, member] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice, { privacy: 'private' })).id;
    await aGroupMembership(t.api, g, [member], alice);
    await act(bob, 'join', { group_id: g });
    await act(carol, 'join', { group_id: g });
    for (const action of ['approve_request', 'reject_request']) {
      const refused = await act(member, action, { group_id: g, user_id: bob.id });
      expect(refused.status, action).toBe(403);
      expect(refused.body.code).toBe('not_group_admin');
    }
    const ok = await act(alice, 'approve_request', { group_id: g, user_id: bob.id });
    expect(ok.status).toBe(200);
    expect((await act(alice, 'approve_request', { group_id: g, user_id: bob.id })).status).toBe(404);
    expect((await detail(bob, g)).body.data).toMatchObject({
      is_member: true,
      role: 'member',
      members_count: 3,
      has_pending_request: null,
    });
    expect(await notificationsOf(bob, 'group_join_approved')).toMatchObject([{ group_id: g }]);
    expect((await act(alice, 'reject_request', { group_id: g, user_id: carol.id })).status).toBe(200);
    expect(await notificationsOf(carol, 'group_join_rejected')).toMatchObject([{ group_id: g }]);
    expect((await detail(carol, g)).status).toBe(404);
    expect((await t.api.get(`groups.php?id=${g}&join_requests=1`, as(alice))).body.requests).toEqual([]);
  });

  it('invites: the invitee is told once and joins a private group without a request; only admins invite to a private group', async () => {
    const [alice, member, dan, eve] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice, { privacy: 'private', name: 'Night shift' })).id;
    await aGroupMembership(t.api, g, [member], alice);
    const refused = await act(member, 'invite', { group_id: g, user_id: dan.id });
    expect(refused.status).toBe(403);
    expect((await act(eve, 'invite', { group_id: g, user_id: dan.id })).status).toBe(404);
    expect((await act(alice, 'invite', { group_id: g, user_id: dan.id })).body).toMatchObject({ success: true, status: 'invited' });
    expect((await act(alice, 'invite', { group_id: g, user_id: dan.id })).body).toMatchObject({ status: 'already_invited' });
    expect((await act(alice, 'invite', { group_id: g, user_id: member.id })).body).toMatchObject({ status: 'already_member' });
    const invites = await notificationsOf(dan, 'group_invite');
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({ group_id: g, group_name: 'Night shift', link: `group_detail.php?id=${g}` });
    expect(invites[0].content).toContain('Night shift');
    expect((await detail(dan, g)).body.data).toMatchObject({ is_invited: true, is_member: false });
    expect((await act(dan, 'join', { group_id: g })).body).toMatchObject({ status: 'joined', is_member: true });
    // In a public group any member invites.
    const pub = (await aCommunityGroup(t.api, alice)).id;
    await aGroupMembership(t.api, pub, [member]);
    expect((await act(member, 'invite', { group_id: pub, user_id: eve.id })).status).toBe(200);
    expect((await act(eve, 'invite', { group_id: pub, user_id: dan.id })).status).toBe(403);
  });
});

describe('roles and removal', () => {
  it('promotes, demotes and kicks (admins only); a group keeps one admin; admins are demoted before removal', async () => {
    const [alice, bob, carol] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice)).id;
    await aGroupMembership(t.api, g, [bob, carol]);
    for (const action of ['promote_member', 'demote_member', 'kick_member']) {
      const res = await act(bob, action, { group_id: g, user_id: carol.id });
      expect(res.status, action).toBe(403);
      expect(res.body.code).toBe('not_group_admin');
    }
    expect((await t.api.put('groups.php', { id: g, name: 'Mine now' }, as(bob))).status).toBe(403);
    expect((await act(alice, 'demote_member', { group_id: g, user_id: alice.id })).body.code).toBe('last_admin');
    expect((await act(alice, 'promote_member', { group_id: g, user_id: bob.id })).status).toBe(200);
    expect((await detail(bob, g)).body.data.role).toBe('admin');
    expect((await act(alice, 'kick_member', { group_id: g, user_id: bob.id })).body.code).toBe('cannot_kick_admin');
    expect((await act(bob, 'demote_member', { group_id: g, user_id: alice.id })).status).toBe(200);
    expect((await detail(alice, g)).body.data.role).toBe('member');
    expect((await act(bob, 'kick_member', { group_id: g, user_id: carol.id })).status).toBe(200);
    expect((await detail(carol, g)).body.data).toMatchObject({ is_member: false, members_count: 2 });
    expect((await act(bob, 'kick_member', { group_id: g, user_id: carol.id })).status).toBe(404);
    expect((await act(bob, 'kick_member', { group_id: g, user_id: bob.id })).status).toBe(400);
  });

  it('updates a group (admins, id in the body), only the fields sent', async () => {
    const alice = await aUser(t.api);
    const g = (await aCommunityGroup(t.api, alice, { description: 'Before' })).id;
    // Stored as upload.php would have, as alice's uploads (references must name the caller's uploads).
    for (const name of ['group_x1.png', 'uploads/group_x2.jpg', 'avatar_x.png']) await placeUploaded(t, name, alice);
    const res = await t.api.put(
      'groups.php',
      { id: g, name: 'After', avatar: 'group_x1.png', cover_image: 'uploads/group_x2.jpg', privacy: 'private' },
      as(alice),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'After',
      description: 'Before',
      avatar: 'group_x1.png',
      cover_image: 'uploads/group_x2.jpg',
      privacy: 'private',
      updated_at: expect.any(String),
    });
    expect((await t.api.put('groups.php', { id: g, avatar: 'avatar_x.png' }, as(alice))).status).toBe(400);
  });

  it('leaves by DELETE ?id=, POST ?id=&action=leave and body action leave; leaving takes private content away', async () => {
    const [alice, bob, carol, dan] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice, { privacy: 'private' })).id;
    await aGroupMembership(t.api, g, [bob, carol, dan], alice);
    await aGroupPost(t.api, alice, g);
    expect((await t.api.get(`group_posts.php?group_id=${g}`, as(bob))).body.posts).toHaveLength(1);
    expect((await t.api.delete(`groups.php?id=${g}`, undefined, as(bob))).status).toBe(200);
    expect((await t.api.post(`groups.php?id=${g}&action=leave`, {}, as(carol))).status).toBe(200);
    expect((await t.api.post('groups.php', { action: 'leave', group_id: g }, as(dan))).status).toBe(200);
    for (const u of [bob, carol, dan]) {
      expect((await t.api.get(`group_posts.php?group_id=${g}`, as(u))).status).toBe(404);
      expect((await detail(u, g)).status).toBe(404);
    }
    expect((await t.api.delete(`groups.php?id=${g}`, undefined, as(bob))).status).toBe(404);
    expect((await detail(alice, g)).body.data.members_count).toBe(1);
  });

  it('a last admin leaving hands the group to the longest-standing member; the last member takes it away', async () => {
    const [alice, bob, carol] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = (await aCommunityGroup(t.api, alice)).id;
    await aGroupMembership(t.api, g, [bob, carol]);
    expect((await t.api.delete(`groups.php?id=${g}`, undefined, as(alice))).body).toMatchObject({ success: true, deleted: false });
    expect((await detail(bob, g)).body.data).toMatchObject({ role: 'admin', members_count: 2 });
    expect((await detail(carol, g)).body.data.role).toBe('member');
    await t.api.delete(`groups.php?id=${g}`, undefined, as(carol));
    const last = await t.api.delete(`groups.php?id=${g}`, undefined, as(bob));
    expect(last.body).toMatchObject({ success: true, deleted: true });
    expect((await detail(bob, g)).status).toBe(404);
  });
});
