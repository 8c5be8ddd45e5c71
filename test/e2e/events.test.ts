import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { anEvent, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

/** events.php (spec "Events and albums", Authentication 9, Errors 5; contract §23) and event_invite. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const ok = (res: ApiResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body;
};
const join = (u: TestUser, id: number) => t.api.post('events.php', { action: 'join', event_id: id }, { token: u.token });
const details = (u: TestUser, id: number) => t.api.get(`events.php?id=${id}`, { token: u.token });
const count = async (table: 'event_participants' | 'event_invites', eventId: number) =>
  (await t.database.db.selectFrom(table).select('user_id').where('event_id', '=', eventId).execute()).length;

describe('events.php', () => {
  it('creates an event with the contract’s keys; the organiser takes part', async () => {
    const me = await aUser(t.api);
    await placeUploaded(t, 'uploads/events/event_ab12.jpg', me);
    const res = ok(
      await t.api.post(
        'events.php',
        {
          title: 'Manif',
          description: 'Contre la loi',
          location: 'Place de la République',
          event_date: '2099-03-08 14:00:00',
          image: 'uploads/events/event_ab12.jpg',
        },
        { token: me.token },
      ),
    );
    expect(res.id).toEqual(expect.any(Number));
    const shown = ok(await details(me, res.id)).data;
    expect(shown).toEqual({
      id: res.id,
      title: 'Manif',
      description: 'Contre la loi',
      location: 'Place de la République',
      event_date: '2099-03-08 14:00:00',
      creator_id: me.id,
      username: me.username,
      avatar: 'default.svg',
      image: 'uploads/events/event_ab12.jpg',
      cover_image: 'uploads/events/event_ab12.jpg',
      participants_count: 1,
      is_participating: true,
      is_creator: true,
      created_at: expect.stringMatching(TIME),
    });
    // The client's form: minutes and zero seconds, no image.
    const plain = ok(
      await t.api.post(
        'events.php',
        { title: 'Cantine', description: '', location: '', event_date: '2099-03-09T12:30', image: null },
        { token: me.token },
      ),
    );
    expect(plain.data).toMatchObject({ event_date: '2099-03-09 12:30:00', image: null });
  });

  it('refuses bad input with 400: no title, bad or impossible dates, an image that is no event upload', async () => {
    const me = await aUser(t.api);
    for (const body of [
      { title: '', event_date: '2099-01-01 10:00:00' },
      { title: 'x', event_date: 'tomorrow' },
      { title: 'x', event_date: '2099-02-30 10:00:00' },
      { title: 'x', event_date: '2099-01-01 25:00:00' },
      { title: 'x' },
      { title: 'x', event_date: '2099-01-01 10:00:00', image: '../../etc/passwd' },
      { title: 'x', event_date: '2099-01-01 10:00:00', image: 'uploads/posts/media_x1.jpg' },
      { title: 'x', event_date: '2099-01-01 10:00:00', image: 'uploads/events/event_neveruploaded.jpg' },
    ]) {
      const res = await t.api.post('events.php', body, { token: me.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await details(me, 99999999)).status).toBe(404);
    expect((await join(me, 99999999)).status).toBe(404);
  });

  it('lists upcoming events soonest first, today’s included, past ones left out, paginated', async () => {
    const me = await aUser(t.api);
    const today = new Date().toISOString().slice(0, 10);
    const late = await anEvent(t.api, me, { event_date: '2098-06-02 10:00:00' });
    const soon = await anEvent(t.api, me, { event_date: '2098-06-01 10:00:00' });
    const earlyToday = await anEvent(t.api, me, { event_date: `${today} 00:00:01` });
    const past = await anEvent(t.api, me, { event_date: '2001-01-01 10:00:00' });
    const all = ok(await t.api.get('events.php?per_page=100', { token: me.token }));
    const ids = all.data.map((e: { id: number }) => e.id);
    expect(ids).not.toContain(past.id);
    expect(ids.indexOf(earlyToday.id)).toBeLessThan(ids.indexOf(soon.id));
    expect(ids.indexOf(soon.id)).toBeLessThan(ids.indexOf(late.id));
    const dates = all.data.map((e: { event_date: string }) => e.event_date);
    expect(dates).toEqual([...dates].sort());
    const first = ok(await t.api.get('events.php?page=1&per_page=1', { token: me.token }));
    expect(first.data).toHaveLength(1);
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 1, total: all.meta.total });
    // A past event is still shown by id.
    ok(await details(me, past.id));
  });

  it('joins once and leaves by DELETE ?id= and by DELETE ?id=&action=leave', async () => {
    const [organiser, guest] = [await aUser(t.api), await aUser(t.api)];
    const e = await anEvent(t.api, organiser);
    expect(ok(await join(guest, e.id))).toMatchObject({ event_id: e.id, is_participating: true, participants_count: 2 });
    expect(ok(await join(guest, e.id)).participants_count).toBe(2);
    expect(ok(await details(guest, e.id)).data).toMatchObject({ is_participating: true, is_creator: false, participants_count: 2 });
    expect(ok(await t.api.delete(`events.php?id=${e.id}`, undefined, { token: guest.token }))).toMatchObject({
      is_participating: false,
      participants_count: 1,
    });
    ok(await join(guest, e.id));
    expect(ok(await t.api.delete(`events.php?id=${e.id}&action=leave`, undefined, { token: guest.token })).participants_count).toBe(1);
    expect(ok(await t.api.delete(`events.php?id=${e.id}&action=leave`, undefined, { token: guest.token })).participants_count).toBe(1);
    expect(ok(await details(guest, e.id)).data.is_participating).toBe(false);
  });

  it('Error 5: deleting an event by anyone but its author is refused; the author’s delete takes its participants', async () => {
    const [organiser, guest, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const e = await anEvent(t.api, organiser);
    ok(await join(guest, e.id));
    ok(await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: stranger.id }, { token: guest.token }));
    for (const who of [guest, stranger]) {
      const res = await t.api.delete(`events.php?id=${e.id}&action=delete`, undefined, { token: who.token });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: 'not_event_author' });
    }
    expect(ok(await details(organiser, e.id)).data.participants_count).toBe(2);
    ok(await t.api.delete(`events.php?id=${e.id}&action=delete`, undefined, { token: organiser.token }));
    expect((await details(organiser, e.id)).status).toBe(404);
    expect(await count('event_participants', e.id)).toBe(0);
    expect(await count('event_invites', e.id)).toBe(0);
    expect((await t.api.delete(`events.php?id=${e.id}&action=delete`, undefined, { token: organiser.token })).status).toBe(404);
  });

  it('invites: participants only, one event_invite notification per person, with a link to the event', async () => {
    const [organiser, guest, friend, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const e = await anEvent(t.api, organiser, { title: 'Concert de soutien' });
    const refused = await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: friend.id }, { token: stranger.token });
    expect(refused.status).toBe(403);
    expect(
      ok(await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: friend.id }, { token: organiser.token })).invited,
    ).toBe(true);
    expect(
      ok(await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: friend.id }, { token: organiser.token })).invited,
    ).toBe(false);
    ok(await join(guest, e.id));
    expect(
      ok(await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: friend.id }, { token: guest.token })).invited,
    ).toBe(false);
    expect(
      (await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: organiser.id }, { token: organiser.token })).status,
    ).toBe(400);
    expect(
      (await t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: 99999999 }, { token: organiser.token })).status,
    ).toBe(404);
    const inbox = ok(await t.api.get('notifications.php', { token: friend.token })).notifications.filter(
      (n: { type: string }) => n.type === 'event_invite',
    );
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({
      type: 'event_invite',
      from_user_id: organiser.id,
      from_username: organiser.username,
      link: `event_detail.php?id=${e.id}`,
    });
    expect(inbox[0].content ?? inbox[0].message).toContain('Concert de soutien');
  });

  it('20 concurrent joins, leaves, invites and a delete leave exact counts and one notification', async () => {
    const organiser = await aUser(t.api);
    const e = await anEvent(t.api, organiser);
    const people = await Promise.all(Array.from({ length: 20 }, () => aUser(t.api)));
    for (let round = 0; round < 2; round++) {
      const joins = await Promise.all(people.flatMap((u) => [join(u, e.id), join(u, e.id)]));
      expect(joins.filter((r) => r.status !== 200)).toEqual([]);
      expect(ok(await details(organiser, e.id)).data.participants_count).toBe(21);
      expect(await count('event_participants', e.id)).toBe(21);
      const leaves = await Promise.all(
        people.flatMap((u) => [
          t.api.delete(`events.php?id=${e.id}`, undefined, { token: u.token }),
          t.api.delete(`events.php?id=${e.id}&action=leave`, undefined, { token: u.token }),
        ]),
      );
      expect(leaves.filter((r) => r.status !== 200)).toEqual([]);
      expect(ok(await details(organiser, e.id)).data.participants_count).toBe(1);
    }
    const invitee = await aUser(t.api);
    const invites = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.api.post('events.php', { action: 'invite', event_id: e.id, user_id: invitee.id }, { token: organiser.token }),
      ),
    );
    expect(invites.filter((r) => r.status !== 200)).toEqual([]);
    expect(invites.filter((r) => r.body.invited === true)).toHaveLength(1);
    const notes = await t.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', invitee.id)
      .where('type', '=', 'event_invite')
      .execute();
    expect(notes).toHaveLength(1);
    // Joins racing the delete: none fails on our side, and nothing is left behind.
    const race = await Promise.all([
      ...people.map((u) => join(u, e.id)),
      t.api.delete(`events.php?id=${e.id}&action=delete`, undefined, { token: organiser.token }),
      ...people.map((u) => join(u, e.id)),
    ]);
    expect(race.filter((r) => r.status >= 500)).toEqual([]);
    expect((await details(organiser, e.id)).status).toBe(404);
    expect(await count('event_participants', e.id)).toBe(0);
  });
});
