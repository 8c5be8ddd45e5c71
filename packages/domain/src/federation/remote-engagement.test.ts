import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { RemoteActor } from './model.js';
import type { RemoteDirectory } from './ports.js';
import { type OutboundReply, RemoteEngagement, type RemoteEngagementOutbox, type RemoteNoteResolver } from './remote-engagement.js';
import { aRemoteActor, InMemoryOutboundInteractionRepository, InMemoryRemoteActorRepository } from './testing/index.js';

class RecordingOutbox implements RemoteEngagementOutbox {
  readonly calls: string[] = [];
  newActivityId = () => 'https://plaza.example/fediverse/activities/1';
  replyNoteId = (id: number) => `https://plaza.example/fediverse/reply.php?id=${id}`;
  react = async () => {};
  unreact = async () => {};
  reply = async (_u: UserRecord, _a: RemoteActor, r: OutboundReply) => this.replyNoteId(r.id);
  editReply = async (u: UserRecord, a: RemoteActor, r: OutboundReply) =>
    void this.calls.push(`update ${u.username} ${a.actor_url} ${r.content}`);
  deleteReply = async (u: UserRecord, a: RemoteActor, r: OutboundReply) =>
    void this.calls.push(`delete ${u.username} ${a.actor_url} ${r.id}`);
}

const uow = { run: (work: () => Promise<unknown>) => work() } as UnitOfWork;
const author = aRemoteActor(1);

async function setUp(suspended = new Set<string>()) {
  const users = new InMemoryUserRepository();
  const actors = new InMemoryRemoteActorRepository();
  await actors.upsert(author);
  const store = new InMemoryOutboundInteractionRepository();
  const outbox = new RecordingOutbox();
  const notes: RemoteNoteResolver = { note: async () => null };
  const engagement = new RemoteEngagement(users, actors, {} as RemoteDirectory, notes, store, outbox, new ManualClock(), uow, {
    isSuspended: async (url) => suspended.has(new URL(url).host),
  });
  const ann = await users.create(aNewUser({ username: 'ann' }));
  const bob = await users.create(aNewUser({ username: 'bob' }));
  const reply = await store.addReply({
    user_id: ann.id,
    object_id: `${author.actor_url}/notes/1`,
    actor_url: author.actor_url,
    content: 'Hi',
    audience: 'public',
    created_at: '2026-01-01 00:00:00',
  });
  const as = (u: UserRecord) => ({ userId: u.id, username: u.username }) as Actor;
  return { engagement, store, outbox, actors, reply, ann: as(ann), bob: as(bob) };
}

describe('editing and deleting replies to remote posts (docs/decisions/0246)', () => {
  it("the author's edit and delete change the row and send to the replied-to author", async () => {
    const { engagement, store, outbox, reply, ann } = await setUp();
    const edited = await engagement.editReply(ann, reply.id, '  Hello  ');
    expect(edited).toMatchObject({
      id: reply.id,
      content: 'Hello',
      updated_at: '2026-01-01 12:00:00',
      note_id: expect.stringContaining('reply.php'),
    });
    await engagement.deleteReply(ann, reply.id);
    expect(outbox.calls).toEqual([`update ann ${author.actor_url} Hello`, `delete ann ${author.actor_url} ${reply.id}`]);
    expect(await store.findReply(reply.id)).toBeNull();
  });

  it("another user's reply, or a deleted one, is 404 remote_reply_not_found: nothing changes, nothing is sent", async () => {
    const { engagement, store, outbox, reply, ann, bob } = await setUp();
    await expect(engagement.editReply(bob, reply.id, 'Mine')).rejects.toMatchObject({ code: 'remote_reply_not_found' });
    await expect(engagement.deleteReply(bob, reply.id)).rejects.toMatchObject({ code: 'remote_reply_not_found' });
    expect((await store.findReply(reply.id))?.content).toBe('Hi');
    await engagement.deleteReply(ann, reply.id);
    await expect(engagement.deleteReply(ann, reply.id)).rejects.toMatchObject({ code: 'remote_reply_not_found' });
    await expect(engagement.editReply(ann, reply.id, 'Back')).rejects.toMatchObject({ code: 'remote_reply_not_found' });
    expect(outbox.calls).toHaveLength(1);
  });

  it('an author whose server is suspended since, or no longer cached, gets nothing; the reply goes all the same', async () => {
    const blocked = await setUp(new Set([new URL(author.actor_url).host]));
    await blocked.engagement.deleteReply(blocked.ann, blocked.reply.id);
    expect(await blocked.store.findReply(blocked.reply.id)).toBeNull();
    const forgotten = await setUp();
    forgotten.actors.forget(author.actor_url);
    await forgotten.engagement.editReply(forgotten.ann, forgotten.reply.id, 'Edited');
    expect((await forgotten.store.findReply(forgotten.reply.id))?.content).toBe('Edited');
    expect([...blocked.outbox.calls, ...forgotten.outbox.calls]).toEqual([]);
  });
});
