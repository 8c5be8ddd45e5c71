import { describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import type { Actor } from '../shared/actor.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { ManualClock } from '../shared/clock.js';
import { NotificationService } from '../notifications/notification-service.js';
import { EngagementNotices } from '../notifications/engagement-notices.js';
import { EngagementEvents } from './engagement-events.js';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import {
  InMemoryCommentRepository,
  InMemoryContentStore,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
} from './testing/in-memory-content.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import { InMemoryFollowRepository } from '../social/testing/in-memory-social.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { EngagementService } from './engagement-service.js';
import { PostService } from './post-service.js';
import { PostEvents, type PostEventListener } from './post-events.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';

function setup(listeners: PostEventListener[]) {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  const postRepo = new InMemoryPostRepository(store);
  const notes = new InMemoryNotificationRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const notifications = new NotificationService(notes, new RecordingPushSender(), clock);
  // Notifications are raised by their listener of the engagement events, as the server binds it.
  const notices = new EngagementEvents([new EngagementNotices(notifications)]);
  let depth = 0;
  const inner = new InMemoryUnitOfWork(users, follows, store, notes);
  // Records whether a listener runs inside a unit of work.
  const uow: UnitOfWork = {
    run: async <T>(work: () => Promise<T>) =>
      inner.run(async () => {
        depth++;
        try {
          return await work();
        } finally {
          depth--;
        }
      }),
    afterCommit: (effect) => inner.afterCommit(effect),
  };
  const engagementRepo = new InMemoryPostEngagementRepository(store);
  const posts = new PostService(
    postRepo,
    new InMemoryCommentRepository(store),
    engagementRepo,
    follows,
    users,
    notices,
    clock,
    uow,
    new InMemoryUploads().references,
    new PostEvents(listeners),
  );
  const engagement = new EngagementService(posts, engagementRepo, notices, clock, uow);
  const actor = async (): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false };
  };
  return { posts, engagement, postRepo, actor, inTransaction: () => depth > 0 };
}

describe('post lifecycle events', () => {
  it('calls every listener, in order, inside the unit of work of each write', async () => {
    const seen: string[] = [];
    let env: ReturnType<typeof setup>;
    const listener = (name: string): PostEventListener => ({
      published: async (p) => void seen.push(`${name}:published:${p.content}:${env.inTransaction()}`),
      edited: async (p) => void seen.push(`${name}:edited:${p.content}:${env.inTransaction()}`),
      removed: async (p) => void seen.push(`${name}:removed:${p.id}:${env.inTransaction()}`),
      shared: async (s) => void seen.push(`${name}:shared:${s.post.id}:${s.userId}:${env.inTransaction()}`),
    });
    env = setup([listener('a'), listener('b'), {}]);
    const [author, sharer] = [await env.actor(), await env.actor()];
    const v = await env.posts.create(author, { content: 'one' });
    await env.posts.edit(author, v.post.id, { content: 'two' });
    await env.engagement.share(sharer, v.post.id);
    await env.engagement.share(sharer, v.post.id); // a repeated share is no new wall entry
    await env.posts.delete(author, v.post.id);
    expect(seen).toEqual([
      'a:published:one:true',
      'b:published:one:true',
      'a:edited:two:true',
      'b:edited:two:true',
      `a:shared:${v.post.id}:${sharer.userId}:true`,
      `b:shared:${v.post.id}:${sharer.userId}:true`,
      `a:removed:${v.post.id}:true`,
      `b:removed:${v.post.id}:true`,
    ]);
  });

  it('undoes the write when a listener fails', async () => {
    const env = setup([
      {
        published: async () => {
          throw new Error('listener failed');
        },
      },
    ]);
    const author = await env.actor();
    await expect(env.posts.create(author, { content: 'x' })).rejects.toThrow('listener failed');
    expect(await env.postRepo.countByUser(author.userId)).toBe(0);
  });
});
