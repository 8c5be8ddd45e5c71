import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECT } from '../support/database.js';
import { aMessageGroup, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Units of work through the composed server: concurrent requests whose decisions depend on what they
 * read (am I the last admin? did they ask me first?), and use cases whose second write fails.
 * On SQLite the server's single connection runs transactions one at a time; on MariaDB they really
 * overlap, and only the locks taken at the start of each unit keep the outcome right.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const G = 'message_groups.php';
const ROUNDS = 20;

/** Makes the database refuse a write: the failure a unit of work exists for, half-way through a use case. */
async function failWrites(name: string, table: string, event: 'INSERT' | 'DELETE', row: 'NEW' | 'OLD', userId: number) {
  const root = t.database.root;
  if (TEST_DIALECT === 'mysql') {
    await sql
      .raw(
        `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW BEGIN ` +
          `IF ${row}.user_id = ${userId} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END`,
      )
      .execute(root);
  } else {
    await sql
      .raw(
        `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW WHEN ${row}.user_id = ${userId} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .execute(root);
  }
  return () => sql.raw(`DROP TRIGGER ${name}`).execute(root);
}

const detailsOf = async (who: TestUser, gid: number) => (await t.api.get(`${G}?path=${gid}`, { token: who.token })).body.group;

describe('units of work under concurrency', () => {
  it(`two admins leaving at the same moment leave exactly one admin (${ROUNDS} groups at once)`, async () => {
    const [a, b, c, d] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const groups: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await aMessageGroup(t.api, a, [b], { name: `Pair ${i}` });
      expect((await t.api.put(`${G}?path=${id}`, { make_everyone_admin: true }, { token: a.token })).status).toBe(200);
      for (const m of [c, d]) expect((await t.api.post(`${G}?path=${id}/members`, { user_id: m.id }, { token: a.token })).status).toBe(200);
      groups.push(id);
    }
    const leaves = await Promise.all(
      groups.flatMap((gid) => [a, b].map((who) => t.api.delete(`${G}?path=${gid}`, undefined, { token: who.token }))),
    );
    expect(leaves.map((r) => r.status)).toEqual(leaves.map(() => 200));
    for (const gid of groups) {
      const members: { user_id: number; role: string }[] = (await detailsOf(c, gid)).members;
      expect(members.map((m) => m.user_id).sort()).toEqual([c.id, d.id].sort());
      expect(
        members.filter((m) => m.role === 'admin'),
        `group ${gid}`,
      ).toHaveLength(1);
    }
  });

  it(`two users asking each other at the same moment end as friends, with no request left pending (${ROUNDS} pairs)`, async () => {
    const pairs: [TestUser, TestUser][] = [];
    for (let i = 0; i < ROUNDS; i++) pairs.push([await aUser(t.api), await aUser(t.api)]);
    const answers = await Promise.all(
      pairs.flatMap(([x, y]) => [
        t.api.post('friends.php', { action: 'send', user_id: y.id }, { token: x.token }),
        t.api.post('friends.php', { action: 'send', user_id: x.id }, { token: y.token }),
      ]),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    for (const [x, y] of pairs) {
      const rows = await t.database.db
        .selectFrom('friend_requests')
        .select(['sender_id', 'receiver_id', 'status'])
        .where((eb) =>
          eb.or([
            eb.and([eb('sender_id', '=', x.id), eb('receiver_id', '=', y.id)]),
            eb.and([eb('sender_id', '=', y.id), eb('receiver_id', '=', x.id)]),
          ]),
        )
        .execute();
      expect(rows.map((r) => r.status)).toEqual(['accepted']);
      expect((await t.api.get('friends.php?type=friends', { token: x.token })).body.friends.map((f: { id: number }) => f.id)).toEqual([
        y.id,
      ]);
    }
  });
});

describe('a unit of work that fails half-way leaves nothing', () => {
  it('approving a request: when removing the request fails, nobody is added and the request stays pending', async () => {
    const [admin, member, invited] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const { id: gid } = await aMessageGroup(t.api, admin, [member]);
    expect((await t.api.post(`${G}?path=${gid}/members`, { user_id: invited.id }, { token: member.token })).status).toBe(200);
    const [request] = (await detailsOf(admin, gid)).requests;
    expect(request).toMatchObject({ user_id: invited.id });

    const restore = await failWrites('plaza_test_fail_request_delete', 'message_group_requests', 'DELETE', 'OLD', invited.id);
    const failed = await t.api.post(`${G}?path=${gid}/requests/${request.request_id}/approve`, undefined, { token: admin.token });
    await restore();
    expect(failed.status).toBe(500);
    // The member row written first is gone with the failed unit.
    expect((await t.api.get(`${G}?path=${gid}/messages&page=1`, { token: invited.token })).status).toBe(403);
    expect((await detailsOf(admin, gid)).requests).toEqual([
      expect.objectContaining({ request_id: request.request_id, user_id: invited.id }),
    ]);

    expect((await t.api.post(`${G}?path=${gid}/requests/${request.request_id}/approve`, undefined, { token: admin.token })).status).toBe(
      200,
    );
    expect((await detailsOf(admin, gid)).requests).toEqual([]);
    expect((await t.api.get(`${G}?path=${gid}/messages&page=1`, { token: invited.token })).status).toBe(200);
  });

  it('following: when storing the notification fails, the follow is not stored either', async () => {
    const [fan, star] = [await aUser(t.api), await aUser(t.api)];
    const restore = await failWrites('plaza_test_fail_notification', 'notifications', 'INSERT', 'NEW', star.id);
    const failed = await t.api.post('follows.php', { user_id: star.id }, { token: fan.token });
    await restore();
    expect(failed.status).toBe(500);
    const followers = await t.api.get(`follows.php?user_id=${star.id}&type=followers&page=1`, { token: fan.token });
    expect(followers.status).toBe(200);
    expect(followers.body.data).toEqual([]);

    expect((await t.api.post('follows.php', { user_id: star.id }, { token: fan.token })).status).toBe(200);
    const notes = await t.database.db.selectFrom('notifications').select('type').where('user_id', '=', star.id).execute();
    expect(notes.map((n) => n.type)).toEqual(['follow']);
  });
});
