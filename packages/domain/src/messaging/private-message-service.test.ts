import { describe, expect, it, vi } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { PrivateMessageService } from './private-message-service.js';
import { InMemoryPrivateMessageRepository } from './testing/in-memory-messaging.js';
import { InMemoryFollowRepository, InMemoryFriendRequestRepository } from '../social/testing/in-memory-social.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';

const actor = (u: { id: number; username: string }): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
});
const page = { page: 1, perPage: 20 };

async function setup() {
  const users = new InMemoryUserRepository();
  const messages = new InMemoryPrivateMessageRepository(users);
  const uow = new InMemoryUnitOfWork(users, messages);
  const service = new PrivateMessageService(
    messages,
    users,
    new RecordingPushSender(),
    new ManualClock('2026-01-01T00:00:00Z'),
    uow,
    {
      follows: new InMemoryFollowRepository(),
      friends: new InMemoryFriendRequestRepository(),
    },
    new InMemoryUploads().references,
  );
  const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
  return { users, messages, uow, service, a, b };
}

describe('PrivateMessageService units of work', () => {
  it('deletes a message in one unit: a failure after the row went leaves the message in place', async () => {
    const { service, messages, uow, a, b } = await setup();
    const m = await service.send(actor(a), b.id, { content: 'oops' });
    await service.react(actor(b), m.id, 'haha');
    const remove = messages.delete.bind(messages);
    vi.spyOn(messages, 'delete').mockImplementationOnce(async (id) => {
      await remove(id);
      throw new Error('lost the connection while moving the last message');
    });
    await expect(service.delete(actor(a), m.id)).rejects.toThrow('lost the connection');
    expect(uow.rollbacks).toBe(1);
    const thread = await service.thread(actor(b), a.id, page);
    expect(thread.messages.map((v) => [v.message.content, v.reactions])).toEqual([['oops', { haha: 1 }]]);
    await service.delete(actor(a), m.id);
    expect((await service.thread(actor(b), a.id, page)).messages).toEqual([]);
  });

  it('clears a conversation in one unit', async () => {
    const { service, uow, a, b } = await setup();
    await service.send(actor(a), b.id, { content: 'one' });
    const commits = uow.commits;
    await service.deleteConversation(actor(b), a.id);
    expect(uow.commits).toBe(commits + 1);
    expect((await service.thread(actor(b), a.id, page)).messages).toEqual([]);
    expect((await service.thread(actor(a), b.id, page)).messages).toHaveLength(1);
  });
});
