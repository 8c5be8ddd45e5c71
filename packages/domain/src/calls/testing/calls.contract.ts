import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { CallRepository } from '../ports.js';
import type { SignalCursor } from '../signal-cursor.js';

export interface CallPorts {
  users: UserRepository;
  calls: CallRepository;
}

const T0 = '2026-03-01 10:00:00';

export function callRepositoryContract(name: string, make: () => Promise<CallPorts>) {
  async function setup() {
    const ports = await make();
    const [a, b, c] = [await ports.users.create(aNewUser()), await ports.users.create(aNewUser()), await ports.users.create(aNewUser())];
    return { ...ports, a, b, c };
  }

  describe(`${name}: call repository contract`, () => {
    it('creates a ringing call with its participants and finds it', async () => {
      const { calls, a, b } = await setup();
      await calls.lockCall(1); // outside a unit of work: a no-op
      const call = await calls.create(
        { caller_id: a.id, recipient_id: b.id, group_id: null, call_type: 'video', offer_sdp: 'v=0 offer', created_at: T0 },
        [
          { user_id: a.id, status: 'joined', at: T0 },
          { user_id: b.id, status: 'invited', at: T0 },
        ],
      );
      expect(call).toEqual({
        id: call.id,
        caller_id: a.id,
        recipient_id: b.id,
        group_id: null,
        call_type: 'video',
        status: 'ringing',
        offer_sdp: 'v=0 offer',
        answer_sdp: null,
        created_at: T0,
        answered_at: null,
        ended_at: null,
      });
      expect(await calls.findById(call.id)).toEqual(call);
      expect(await calls.findById(999_999)).toBeNull();
      expect(await calls.participants(call.id)).toEqual([
        { call_id: call.id, user_id: a.id, status: 'joined', joined_at: T0, left_at: null },
        { call_id: call.id, user_id: b.id, status: 'invited', joined_at: null, left_at: null },
      ]);
      expect(await calls.participant(call.id, b.id)).toMatchObject({ status: 'invited' });
      expect(await calls.participant(call.id, 999_999)).toBeNull();
    });

    it('moves a call only from the statuses given, once', async () => {
      const { calls, a, b } = await setup();
      const call = await calls.create(
        { caller_id: a.id, recipient_id: b.id, group_id: null, call_type: 'audio', offer_sdp: 'o', created_at: T0 },
        [],
      );
      expect(
        await calls.transition(call.id, ['ringing'], { status: 'active', answer_sdp: 'ans', answered_at: '2026-03-01 10:00:05' }),
      ).toBe(true);
      expect(await calls.transition(call.id, ['ringing'], { status: 'rejected', ended_at: '2026-03-01 10:00:06' })).toBe(false);
      expect(await calls.findById(call.id)).toMatchObject({
        status: 'active',
        answer_sdp: 'ans',
        answered_at: '2026-03-01 10:00:05',
        ended_at: null,
      });
      expect(await calls.setSdp(call.id, ['active'], { offer_sdp: 'o2', answer_sdp: null })).toBe(true);
      expect(await calls.findById(call.id)).toMatchObject({ offer_sdp: 'o2', answer_sdp: null });
      expect(await calls.transition(call.id, ['ringing', 'active'], { status: 'ended', ended_at: '2026-03-01 10:01:00' })).toBe(true);
      expect(await calls.setSdp(call.id, ['active'], { answer_sdp: 'late' })).toBe(false);
      expect(await calls.findById(call.id)).toMatchObject({ status: 'ended', answer_sdp: null, ended_at: '2026-03-01 10:01:00' });
      expect(await calls.transition(999_999, ['ringing'], { status: 'ended' })).toBe(false);
    });

    it('adds or updates a participant, with join and leave times', async () => {
      const { calls, a, b, c } = await setup();
      const call = await calls.create(
        { caller_id: a.id, recipient_id: null, group_id: 7, call_type: 'audio', offer_sdp: null, created_at: T0 },
        [
          { user_id: a.id, status: 'joined', at: T0 },
          { user_id: b.id, status: 'invited', at: T0 },
        ],
      );
      await calls.putParticipant(call.id, b.id, 'joined', '2026-03-01 10:00:03');
      await calls.putParticipant(call.id, c.id, 'joined', '2026-03-01 10:00:04');
      await calls.putParticipant(call.id, a.id, 'left', '2026-03-01 10:00:09');
      expect(await calls.participants(call.id)).toEqual([
        { call_id: call.id, user_id: a.id, status: 'left', joined_at: T0, left_at: '2026-03-01 10:00:09' },
        { call_id: call.id, user_id: b.id, status: 'joined', joined_at: '2026-03-01 10:00:03', left_at: null },
        { call_id: call.id, user_id: c.id, status: 'joined', joined_at: '2026-03-01 10:00:04', left_at: null },
      ]);
    });

    it('finds the open call of a group, newest first, and none once it ended', async () => {
      const { calls, a } = await setup();
      expect(await calls.openCallOfGroup(41)).toBeNull();
      const old = await calls.create(
        { caller_id: a.id, recipient_id: null, group_id: 41, call_type: 'audio', offer_sdp: null, created_at: T0 },
        [],
      );
      await calls.transition(old.id, ['ringing'], { status: 'ended', ended_at: T0 });
      const open = await calls.create(
        { caller_id: a.id, recipient_id: null, group_id: 41, call_type: 'video', offer_sdp: null, created_at: T0 },
        [],
      );
      await calls.create({ caller_id: a.id, recipient_id: null, group_id: 42, call_type: 'video', offer_sdp: null, created_at: T0 }, []);
      expect((await calls.openCallOfGroup(41))?.id).toBe(open.id);
      await calls.transition(open.id, ['ringing'], { status: 'active' });
      expect((await calls.openCallOfGroup(41))?.id).toBe(open.id);
      await calls.transition(open.id, ['active'], { status: 'ended' });
      expect(await calls.openCallOfGroup(41)).toBeNull();
    });

    it('returns the signals others sent to a user or to everyone, in a time window, oldest first', async () => {
      const { calls, a, b, c } = await setup();
      const call = await calls.create(
        { caller_id: a.id, recipient_id: null, group_id: 9, call_type: 'audio', offer_sdp: null, created_at: T0 },
        [],
      );
      const s1 = await calls.addSignal({
        call_id: call.id,
        from_user_id: a.id,
        to_user_id: b.id,
        kind: 'ice',
        payload: '{"candidate":"1"}',
        created_at: '2026-03-01 10:00:01',
      });
      expect(s1).toEqual({
        id: s1.id,
        call_id: call.id,
        from_user_id: a.id,
        to_user_id: b.id,
        kind: 'ice',
        payload: '{"candidate":"1"}',
        created_at: '2026-03-01 10:00:01',
      });
      const s2 = await calls.addSignal({
        call_id: call.id,
        from_user_id: c.id,
        to_user_id: null,
        kind: 'offer',
        payload: 'sdp',
        created_at: '2026-03-01 10:00:02',
      });
      await calls.addSignal({
        call_id: call.id,
        from_user_id: a.id,
        to_user_id: c.id,
        kind: 'ice',
        payload: 'for c',
        created_at: '2026-03-01 10:00:02',
      });
      await calls.addSignal({
        call_id: call.id,
        from_user_id: b.id,
        to_user_id: null,
        kind: 'ice',
        payload: 'mine',
        created_at: '2026-03-01 10:00:02',
      });
      const s5 = await calls.addSignal({
        call_id: call.id,
        from_user_id: a.id,
        to_user_id: b.id,
        kind: 'answer',
        payload: 'ans',
        created_at: '2026-03-01 10:00:04',
      });
      const ids = async (after: SignalCursor | null, limit = 50) => (await calls.signalsFor(call.id, b.id, after, limit)).map((s) => s.id);
      expect(await ids(null)).toEqual([s1.id, s2.id, s5.id]);
      expect(await ids({ afterId: s1.id })).toEqual([s2.id, s5.id]);
      expect(await ids({ afterId: s5.id })).toEqual([]);
      expect(await ids({ afterTime: '2026-03-01 10:00:01' })).toEqual([s2.id, s5.id]);
      expect(await ids({ afterTime: '2026-03-01 10:00:04' })).toEqual([]);
      expect(await ids(null, 1)).toEqual([s1.id]);
    });

    it('lists the calls a user takes part in, newest first, paged', async () => {
      const { calls, a, b, c } = await setup();
      const mk = (caller: number, others: number[]) =>
        calls.create(
          {
            caller_id: caller,
            recipient_id: others.length === 1 ? others[0] : null,
            group_id: others.length === 1 ? null : 3,
            call_type: 'audio',
            offer_sdp: 'o',
            created_at: T0,
          },
          [{ user_id: caller, status: 'joined', at: T0 }, ...others.map((u) => ({ user_id: u, status: 'invited' as const, at: T0 }))],
        );
      const c1 = await mk(a.id, [b.id]);
      const c2 = await mk(c.id, [a.id]);
      const c3 = await mk(b.id, [c.id]);
      const c4 = await mk(c.id, [a.id, b.id]);
      expect((await calls.history(a.id, { page: 1, perPage: 20 })).items.map((x) => x.id)).toEqual([c4.id, c2.id, c1.id]);
      expect(await calls.history(a.id, { page: 2, perPage: 2 })).toEqual({ items: [expect.objectContaining({ id: c1.id })], total: 3 });
      expect((await calls.history(b.id, { page: 1, perPage: 20 })).items.map((x) => x.id)).toEqual([c4.id, c3.id, c1.id]);
    });

    it('turns calls ringing since before the cutoff into missed ones', async () => {
      const { calls, a, b } = await setup();
      const old = await calls.create(
        { caller_id: a.id, recipient_id: b.id, group_id: null, call_type: 'audio', offer_sdp: 'o', created_at: '2026-03-01 09:59:00' },
        [],
      );
      const recent = await calls.create(
        { caller_id: a.id, recipient_id: b.id, group_id: null, call_type: 'audio', offer_sdp: 'o', created_at: '2026-03-01 09:59:50' },
        [],
      );
      const answered = await calls.create(
        { caller_id: a.id, recipient_id: b.id, group_id: null, call_type: 'audio', offer_sdp: 'o', created_at: '2026-03-01 09:58:00' },
        [],
      );
      await calls.transition(answered.id, ['ringing'], { status: 'active' });
      expect(await calls.missRinging('2026-03-01 09:59:15', T0)).toBe(1);
      expect(await calls.findById(old.id)).toMatchObject({ status: 'missed', ended_at: T0 });
      expect((await calls.findById(recent.id))?.status).toBe('ringing');
      expect((await calls.findById(answered.id))?.status).toBe('active');
      expect(await calls.missRinging('2026-03-01 09:59:15', T0)).toBe(0);
    });
  });
}
