import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden } from '../shared/errors.js';
import { InMemoryUserRepository } from '../testing/in-memory-accounts.js';
import { InMemoryMessageGroupRepository } from '../testing/in-memory-messaging.js';
import { RecordingPushSender } from '../testing/in-memory-notifications.js';
import { InMemoryTypingRepository } from '../testing/in-memory-typing.js';
import { aNewUser } from '../testing/mothers.js';
import { MessageGroupService } from './message-group-service.js';
import { TypingService } from './typing-service.js';

const actor = (u: { id: number; username: string }): Actor => ({ userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false });

async function setup() {
  const users = new InMemoryUserRepository();
  const groups = new InMemoryMessageGroupRepository();
  const push = new RecordingPushSender();
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const service = new MessageGroupService(groups, users, push, clock);
  const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
  return { users, groups, push, clock, service, a, b, c };
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
});
