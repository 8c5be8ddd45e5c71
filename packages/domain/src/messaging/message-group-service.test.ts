import { describe, expect, it, vi } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden } from '../shared/errors.js';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { InMemoryMessageGroupRepository } from '../messaging/testing/in-memory-messaging.js';
import { RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import { InMemoryTypingRepository } from '../messaging/testing/in-memory-typing.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { MessageGroupService } from './message-group-service.js';
import { TypingService } from './typing-service.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';

const actor = (u: { id: number; username: string }): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
});

async function setup() {
  const users = new InMemoryUserRepository();
  const groups = new InMemoryMessageGroupRepository();
  const push = new RecordingPushSender();
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const uow = new InMemoryUnitOfWork(users, groups);
  const service = new MessageGroupService(groups, users, push, clock, uow, new InMemoryUploads().references);
  const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
  return { users, groups, push, clock, uow, service, a, b, c };
}

describe('MessageGroupService', () => {
  it('promotes the oldest remaining member when the last admin leaves', async () => {
    const { service, clock, a, b, c } = await setup();
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    clock.advance(1000);
    await service.addMember(actor(a), gid, c.id);
    await service.leave(actor(a), gid);
    const d = await service.details(actor(b), gid);
    expect(d.members.map((m) => [m.user.id, m.member.role])).toEqual([
      [b.id, 'admin'],
      [c.id, 'member'],
    ]);
  });

  it('refuses outsiders and non-authors, and pushes new messages to the other members only', async () => {
    const { service, push, a, b, c } = await setup();
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    await expect(service.send(actor(c), gid, { content: 'hi' })).rejects.toBeInstanceOf(Forbidden);
    const m = await service.send(actor(a), gid, { content: 'hello' });
    await expect(service.editMessage(actor(b), m.id, 'x')).rejects.toBeInstanceOf(Forbidden);
    expect(push.sent.map((s) => s.userId)).toEqual([b.id]);
    expect(push.sent[0].message.data).toEqual({ type: 'group_message', group_id: String(gid), message_preview: 'hello' });
  });

  it('lets typing entries lapse after ten seconds', async () => {
    const { service, users, clock, a, b } = await setup();
    const typing = new TypingService(new InMemoryTypingRepository(), users, service, clock);
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    await typing.setGroup(actor(b), gid, true);
    expect(await typing.groupTypists(actor(a), gid)).toEqual([{ user_id: b.id, username: b.username }]);
    clock.advance(10_000);
    expect(await typing.groupTypists(actor(a), gid)).toEqual([]);
  });

  it('approves a request all or nothing: a failure removing the request leaves it pending and adds nobody', async () => {
    const { service, groups, uow, a, b, c } = await setup();
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    const { request_id } = await service.addMember(actor(b), gid, c.id);
    expect(request_id).not.toBeNull();
    vi.spyOn(groups, 'deleteRequest').mockRejectedValueOnce(new Error('lost the connection'));
    await expect(service.approve(actor(a), gid, request_id!)).rejects.toThrow('lost the connection');
    expect(uow.rollbacks).toBe(1);
    expect(await groups.membership(gid, c.id)).toBeNull();
    expect((await groups.requests(gid)).map((r) => r.user_id)).toEqual([c.id]);
    await service.approve(actor(a), gid, request_id!);
    expect((await groups.membership(gid, c.id))?.role).toBe('member');
    expect(await groups.requests(gid)).toEqual([]);
  });

  it('leaves all or nothing: a failure handing over the admin role keeps the last admin in the group', async () => {
    const { service, groups, a, b } = await setup();
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    vi.spyOn(groups, 'setRole').mockRejectedValueOnce(new Error('lost the connection'));
    await expect(service.leave(actor(a), gid)).rejects.toThrow('lost the connection');
    expect((await groups.members(gid)).map((m) => [m.user_id, m.role])).toEqual([
      [a.id, 'admin'],
      [b.id, 'member'],
    ]);
  });

  it('takes the group lock before reading what each membership decision depends on', async () => {
    const { service, groups, a, b, c } = await setup();
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    const calls: string[] = [];
    vi.spyOn(groups, 'lockGroup').mockImplementation(async () => void calls.push('lock'));
    const membership = groups.membership.bind(groups);
    vi.spyOn(groups, 'membership').mockImplementation(async (g, u) => {
      calls.push('read');
      return membership(g, u);
    });
    const cases: [string, () => Promise<unknown>][] = [
      ['addMember', () => service.addMember(actor(a), gid, c.id)],
      ['update', () => service.update(actor(a), gid, { name: 'H' })],
      ['removeMember', () => service.removeMember(actor(a), gid, c.id)],
      ['leave', () => service.leave(actor(b), gid)],
    ];
    for (const [name, run] of cases) {
      calls.length = 0;
      await run();
      expect(calls[0], name).toBe('lock');
      expect(calls, name).toContain('read');
    }
  });
});
