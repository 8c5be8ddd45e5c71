import { describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated, Unavailable } from '../shared/errors.js';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { InMemoryCallRepository } from '../calls/testing/in-memory-calls.js';
import { InMemoryMessageGroupRepository } from '../messaging/testing/in-memory-messaging.js';
import { InMemoryLiveRepository } from './testing/in-memory-lives.js';
import { LiveService } from './live-service.js';
import { LiveStageService } from './live-stage-service.js';
import { MediaTokenService } from './media-token-service.js';
import { MediaEventsService } from './media-events-service.js';
import { LiveChatService } from './live-chat-service.js';
import { LiveModerationService } from './live-moderation-service.js';
import type { MediaEvent, MediaServer, MediaTokenGrant } from './ports.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';

const actor = (u: { id: number; username: string }, roles: Partial<Actor> = {}): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
  ...roles,
});

/** A media server that records grants and accepts events signed "ok". */
class FakeMediaServer implements MediaServer {
  grants: MediaTokenGrant[] = [];
  constructor(public configured = true) {}
  async settings() {
    return this.configured ? { url: 'wss://m.test' } : null;
  }
  async issueToken(grant: MediaTokenGrant) {
    this.grants.push(grant);
    return `token-for-${grant.identity}`;
  }
  async verifyEvent(raw: string, auth: string | undefined): Promise<MediaEvent> {
    if (auth !== 'ok') throw new Unauthenticated('bad signature', 'invalid_signature');
    return JSON.parse(raw);
  }
}

async function setup() {
  const users = new InMemoryUserRepository();
  const lives = new InMemoryLiveRepository();
  const calls = new InMemoryCallRepository();
  const groups = new InMemoryMessageGroupRepository();
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const uow = new InMemoryUnitOfWork(lives);
  const media = new FakeMediaServer();
  const uploaded = new InMemoryUploads();
  const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
  return {
    users,
    lives,
    calls,
    groups,
    clock,
    media,
    uploaded,
    a,
    b,
    c,
    live: new LiveService(lives, users, clock, uow, uploaded.references),
    stage: new LiveStageService(lives, users, clock, uow),
    tokens: new MediaTokenService(lives, calls, groups, media),
    events: new MediaEventsService(lives, media, clock),
    chat: new LiveChatService(lives, users, clock),
    moderation: new LiveModerationService(lives, users, clock, { suspendAt: 2 }),
  };
}

describe('LiveService', () => {
  it('ends the creator’s earlier live when a new one starts, in one unit of work', async () => {
    const { live, a } = await setup();
    const first = await live.start(actor(a), { title: 'One' });
    const second = await live.start(actor(a), { title: 'Two' });
    expect((await live.details(actor(a), first.id)).live).toMatchObject({ status: 'ended', end_reason: 'replaced' });
    expect((await live.list(actor(a), { page: 1, perPage: 20 })).items.map((v) => v.live.id)).toEqual([second.id]);
  });

  it('lets only the creator or a moderator end a live, and only the creator set its background', async () => {
    const { live, a, b, uploaded } = await setup();
    const l = await live.start(actor(a), { title: 'x' });
    await expect(live.end(actor(b), l.id)).rejects.toThrow(Forbidden);
    await expect(live.setBackground(actor(b), l.id, 'uploads/posts/media_bg1.jpg')).rejects.toThrow(Forbidden);
    await expect(live.setBackground(actor(a), l.id, 'uploads/posts/media_bg1.jpg')).rejects.toMatchObject({ code: 'invalid_media' });
    await uploaded.place('uploads/posts/media_bg1.jpg', a.id);
    await expect(live.setBackground(actor(a), l.id, '../../etc/passwd')).rejects.toThrow(Invalid);
    expect(await live.setBackground(actor(a), l.id, 'uploads/posts/media_bg1.jpg')).toBe('uploads/posts/media_bg1.jpg');
    expect(await live.setBackground(actor(a), l.id, null)).toBeNull();
    expect((await live.end(actor(b, { isModerator: true }), l.id)).status).toBe('ended');
    await expect(live.join(actor(b), l.id)).rejects.toThrow(Conflict);
  });
});

describe('LiveStageService', () => {
  it('approves at most max_guests guests; moderators of the live are approved at once', async () => {
    const { live, stage, lives, a, b, c } = await setup();
    const l = await live.start(actor(a), { title: 'x', max_guests: 1 });
    await stage.request(actor(b), l.id, 'hi');
    await lives.addModerator(l.id, c.id, '2026-03-01 10:00:00');
    expect((await stage.approve(actor(a), l.id, b.id)).status).toBe('approved');
    // The live moderator would be approved at once, but the stage is full.
    expect((await stage.request(actor(c), l.id)).status).toBe('pending');
    await expect(stage.approve(actor(c), l.id, c.id)).rejects.toThrow(/full/);
    await stage.reject(actor(c), l.id, b.id);
    expect((await stage.approve(actor(c), l.id, c.id)).status).toBe('approved');
    await expect(stage.approve(actor(b), l.id, c.id)).rejects.toThrow(Forbidden);
    await expect(stage.approve(actor(a), l.id, 999)).rejects.toThrow(NotFound);
    await expect(stage.request(actor(a), l.id)).rejects.toThrow(/host/);
  });
});

describe('MediaTokenService', () => {
  it('grants publishing to the creator, never to viewers, and to technicians in test rooms only', async () => {
    const { live, tokens, a, b } = await setup();
    const l = await live.start(actor(a), { title: 'x' });
    const ask = (u: typeof a, room: string, roles: Partial<Actor> = {}) =>
      tokens.issue(actor(u, roles), { roomName: room, identity: `u${u.id}-x`, name: 'X', canPublish: true });
    expect((await ask(a, `live-${l.id}`)).grants.canPublish).toBe(true);
    expect((await ask(b, `live-${l.id}`)).grants.canPublish).toBe(false);
    await expect(ask(b, 'test-1')).rejects.toThrow(Forbidden);
    expect((await ask(b, 'test-1', { isTechnician: true })).grants.canPublish).toBe(true);
    await expect(tokens.issue(actor(b), { roomName: `live-${l.id}`, identity: `u${a.id}-x`, name: 'X' })).rejects.toThrow(/identity/);
  });

  it('lets group-call participants publish and nobody else in', async () => {
    const { tokens, calls, groups, a, b, c } = await setup();
    const gid = await groups.create({ name: 'g', avatar: null, creator_id: a.id, created_at: '2026-03-01 10:00:00' }, [
      { user_id: a.id, role: 'admin' },
      { user_id: b.id, role: 'member' },
    ]);
    const call = await calls.create(
      { caller_id: a.id, recipient_id: null, group_id: gid, call_type: 'audio', offer_sdp: null, created_at: '2026-03-01 10:00:00' },
      [{ user_id: a.id, status: 'joined', at: '2026-03-01 10:00:00' }],
    );
    const room = `group-call-${call.id}`;
    expect((await tokens.issue(actor(b), { roomName: room, identity: `u${b.id}-b`, name: 'B', canPublish: true })).grants.canPublish).toBe(
      true,
    );
    await expect(tokens.issue(actor(c), { roomName: room, identity: `u${c.id}-c`, name: 'C' })).rejects.toThrow(NotFound);
  });

  it('names a missing field, and is unavailable without a media server', async () => {
    const { tokens, media, a } = await setup();
    await expect(tokens.issue(actor(a), { identity: `u${a.id}`, name: 'A' })).rejects.toMatchObject({ details: [{ field: 'roomName' }] });
    await expect(tokens.issue(actor(a), { roomName: 'test-x', name: 'A' })).rejects.toMatchObject({ details: [{ field: 'identity' }] });
    await expect(tokens.issue(actor(a), { roomName: 'test-x', identity: `u${a.id}`, name: ' ' })).rejects.toMatchObject({
      details: [{ field: 'name' }],
    });
    media.configured = false;
    await expect(tokens.issue(actor(a, { isTechnician: true }), { roomName: 'test-x', identity: `u${a.id}`, name: 'A' })).rejects.toThrow(
      Unavailable,
    );
  });
});

describe('MediaEventsService', () => {
  it('ends a live on room_finished and tracks viewers, refusing unsigned events', async () => {
    const { live, events, a, b } = await setup();
    const l = await live.start(actor(a), { title: 'x' });
    const send = (e: object, auth = 'ok') => events.receive(JSON.stringify(e), auth);
    await expect(send({ event: 'room_finished', room: `live-${l.id}` }, 'forged')).rejects.toThrow(Unauthenticated);
    await send({ event: 'participant_joined', room: `live-${l.id}`, identity: `u${b.id}-b` });
    expect((await live.details(actor(a), l.id)).current_viewers).toBe(1);
    expect(await send({ event: 'room_finished', room: `live-${l.id}`, identity: null })).toEqual({ event: 'room_finished', handled: true });
    expect((await live.details(actor(a), l.id)).live.end_reason).toBe('room_finished');
  });
});

describe('LiveChatService and LiveModerationService', () => {
  it('keeps blocked users out of the chat and lets hosts delete any comment', async () => {
    const { live, chat, moderation, a, b, c } = await setup();
    const l = await live.start(actor(a), { title: 'x' });
    const mine = await chat.post(actor(b), l.id, ' hi ');
    expect(mine.content).toBe('hi');
    await expect(chat.delete(actor(c), l.id, mine.id)).rejects.toThrow(Forbidden);
    await expect(moderation.appointModerator(actor(b), l.id, c.id)).rejects.toThrow(Forbidden);
    expect(await moderation.appointModerator(actor(a), l.id, c.id)).toEqual([c.id]);
    await chat.delete(actor(c), l.id, mine.id);
    expect(await moderation.blockFromChat(actor(c), l.id, b.id)).toEqual([b.id]);
    await expect(chat.post(actor(b), l.id, 'again')).rejects.toMatchObject({ code: 'chat_blocked' });
    expect(await moderation.state(actor(b), l.id)).toMatchObject({
      moderator_user_ids: [c.id],
      blocked_user_ids: [b.id],
      my_chat_blocked: true,
      my_is_moderator: false,
    });
  });

  it('suspends a live once enough distinct users report it; the queue is for moderators', async () => {
    const { live, moderation, users, a, b, c } = await setup();
    const l = await live.start(actor(a), { title: 'x' });
    await expect(moderation.report(actor(b), l.id, { reason: 'boring' })).rejects.toThrow(Invalid);
    expect(await moderation.report(actor(b), l.id, { reason: 'spam' })).toMatchObject({
      report_count: 1,
      is_suspended: false,
      already_reported: false,
    });
    expect(await moderation.report(actor(b), l.id, { reason: 'spam' })).toMatchObject({ report_count: 1, already_reported: true });
    expect(await moderation.report(actor(c), l.id, { reason: 'violence' })).toMatchObject({ report_count: 2, is_suspended: true });
    await expect(moderation.queue(actor(b), { page: 1, perPage: 20 })).rejects.toThrow(Forbidden);
    const q = await moderation.queue(actor(b, { isModerator: true }), { page: 1, perPage: 20 });
    expect(q.items.map((i) => [i.reporter?.id, i.creator?.id, i.live?.id])).toEqual([
      [c.id, a.id, l.id],
      [b.id, a.id, l.id],
    ]);
    expect(users).toBeDefined();
  });
});
