import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import { RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden, Invalid } from '../shared/errors.js';
import { putReaction, removeReaction } from '../shared/reaction-rule.js';
import { aNewUser } from '../shared/testing/mothers.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { MessageGroupService } from './message-group-service.js';
import { messageReactionSlots } from './message-reactions.js';
import { InMemoryMessageGroupRepository, InMemoryPrivateMessageRepository } from './testing/in-memory-messaging.js';

const actor = (u: { id: number; username: string }): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
});
const at = '2026-01-01 00:00:00';

describe('the reaction rule on messages (both kinds share it)', () => {
  it('adds, changes and removes one reaction per user and message, and tells which', async () => {
    for (const store of [new InMemoryPrivateMessageRepository(), new InMemoryMessageGroupRepository()]) {
      const slots = messageReactionSlots(store);
      const notified: string[] = [];
      const notice = { notify: async (change: string) => void notified.push(change) };
      expect(await putReaction(slots, 7, 1, 'like', at, notice)).toBe('added');
      expect(await putReaction(slots, 7, 1, 'like', at, notice)).toBe('unchanged');
      expect(await putReaction(slots, 7, 1, 'love', at, notice)).toBe('changed');
      expect(await putReaction(slots, 7, 2, 'love', at, notice)).toBe('added');
      expect((await store.reactions([7], 1)).counts.get(7)).toEqual({ love: 2 });
      expect((await store.reactions([7], 1)).mine.get(7)).toBe('love');
      expect(await removeReaction(slots, 7, 1)).toBe(true);
      expect(await removeReaction(slots, 7, 1)).toBe(false);
      expect((await store.reactions([7], 1)).counts.get(7)).toEqual({ love: 1 });
      // The shared rule, given a notice: add and change announce, the same again and a removal do not.
      expect(notified).toEqual(['added', 'changed', 'added']);
    }
  });

  it('announces nothing for messages: reacting, changing and taking back push no one (as before the rule was shared)', async () => {
    const users = new InMemoryUserRepository();
    const groups = new InMemoryMessageGroupRepository();
    const push = new RecordingPushSender();
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const service = new MessageGroupService(
      groups,
      users,
      push,
      clock,
      new InMemoryUnitOfWork(users, groups),
      new InMemoryUploads().references,
    );
    const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
    const gid = await service.create(actor(a), { name: 'G', member_ids: [b.id] });
    const m = await service.send(actor(a), gid, { content: 'hello' });
    const pushed = push.sent.length;
    expect(await service.react(actor(b), m.id, 'like')).toEqual({ like: 1 });
    expect(await service.react(actor(b), m.id, 'haha')).toEqual({ haha: 1 });
    expect(await service.react(actor(a), m.id, 'haha')).toEqual({ haha: 2 });
    expect(await service.unreact(actor(b), m.id)).toEqual({ haha: 1 });
    expect(await service.unreact(actor(b), m.id)).toEqual({ haha: 1 });
    expect(push.sent.length).toBe(pushed);
    // The type is checked before the access rule; an outsider with a valid type is refused.
    await expect(service.react(actor(c), m.id, 'nope')).rejects.toBeInstanceOf(Invalid);
    await expect(service.react(actor(c), m.id, 'like')).rejects.toBeInstanceOf(Forbidden);
    await expect(service.unreact(actor(c), m.id)).rejects.toBeInstanceOf(Forbidden);
  });
});
