import { describe, expect, it, vi } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { NotificationService } from '../notifications/notification-service.js';
import { SocialNotices } from '../notifications/social-notices.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { FollowEvents } from './follow-events.js';
import { FollowService } from './follow-service.js';
import { FriendEvents } from './friend-events.js';
import { FriendService } from './friend-service.js';
import { InMemoryFollowRepository, InMemoryFriendRequestRepository } from './testing/in-memory-social.js';

const actor = (u: { id: number; username: string }): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
});

async function setup() {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const requests = new InMemoryFriendRequestRepository();
  const notes = new InMemoryNotificationRepository();
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const notifications = new NotificationService(notes, new RecordingPushSender(), clock);
  const uow = new InMemoryUnitOfWork(users, follows, requests, notes);
  // The notices are raised by social's listeners, as the notifications module binds them.
  const notices = new SocialNotices(notifications);
  const friends = new FriendService(requests, users, clock, uow, new FriendEvents([notices]));
  const following = new FollowService(follows, users, clock, uow, new FollowEvents([notices]));
  const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
  const failNextNotification = () => vi.spyOn(notes, 'create').mockRejectedValueOnce(new Error('notification store down'));
  return { users, follows, requests, notes, uow, friends, following, a, b, failNextNotification };
}

describe('FriendService and FollowService units of work', () => {
  it('accepts a request together with its notification, or not at all', async () => {
    const { friends, requests, notes, a, b, failNextNotification } = await setup();
    const { request_id } = await friends.send(actor(a), b.id);
    failNextNotification();
    await expect(friends.accept(actor(b), request_id)).rejects.toThrow('notification store down');
    expect((await requests.findById(request_id))?.status).toBe('pending');
    expect(notes.rows.map((n) => n.type)).toEqual(['friend_request']);
    await friends.accept(actor(b), request_id);
    expect((await requests.findById(request_id))?.status).toBe('accepted');
    expect(notes.rows.map((n) => n.type)).toEqual(['friend_request', 'friend_accept']);
  });

  it('asking back accepts the reverse request in the same unit; a failure leaves it pending', async () => {
    const { friends, requests, uow, a, b, failNextNotification } = await setup();
    const { request_id } = await friends.send(actor(a), b.id);
    failNextNotification();
    await expect(friends.send(actor(b), a.id)).rejects.toThrow('notification store down');
    expect((await requests.findById(request_id))?.status).toBe('pending');
    expect(await requests.findBetween(b.id, a.id)).toBeNull();
    const commits = uow.commits;
    expect(await friends.send(actor(b), a.id)).toEqual({ request_id, status: 'accepted' });
    // The nested accept joined the send's unit: one unit in all.
    expect(uow.commits).toBe(commits + 1);
  });

  it('takes the pair lock before reading the requests between the two users', async () => {
    const { friends, requests, a, b } = await setup();
    const calls: string[] = [];
    vi.spyOn(requests, 'lockPair').mockImplementation(async (x, y) => void calls.push(`lock ${Math.min(x, y)}-${Math.max(x, y)}`));
    const findBetween = requests.findBetween.bind(requests);
    vi.spyOn(requests, 'findBetween').mockImplementation(async (x, y) => {
      calls.push('read');
      return findBetween(x, y);
    });
    const { request_id } = await friends.send(actor(a), b.id);
    expect(calls[0]).toBe(`lock ${a.id}-${b.id}`);
    calls.length = 0;
    await friends.reject(actor(b), request_id);
    expect(calls[0]).toBe(`lock ${a.id}-${b.id}`);
    calls.length = 0;
    await friends.remove(actor(a), b.id);
    expect(calls[0]).toBe(`lock ${a.id}-${b.id}`);
  });

  it('follows together with the notification, or not at all', async () => {
    const { following, follows, notes, a, b, failNextNotification } = await setup();
    failNextNotification();
    await expect(following.follow(actor(a), b.id)).rejects.toThrow('notification store down');
    expect(await follows.isFollowing(a.id, b.id)).toBe(false);
    expect(await following.follow(actor(a), b.id)).toEqual({ followed: true });
    expect(notes.rows.map((n) => [n.user_id, n.type])).toEqual([[b.id, 'follow']]);
  });
});
