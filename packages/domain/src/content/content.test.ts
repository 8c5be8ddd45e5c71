import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { NotificationService } from '../notifications/notification-service.js';
import { InMemoryUserRepository } from '../testing/in-memory-accounts.js';
import { InMemoryContentStore, InMemoryCommentRepository, InMemoryPostEngagementRepository, InMemoryPostRepository } from '../testing/in-memory-content.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../testing/in-memory-notifications.js';
import { InMemoryFollowRepository } from '../testing/in-memory-social.js';
import { aNewUser } from '../testing/mothers.js';
import { CommentService } from './comment-service.js';
import { EngagementService } from './engagement-service.js';
import { extractHashtags, extractMentions } from './model.js';
import { PostService } from './post-service.js';

function setup() {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  const postRepo = new InMemoryPostRepository(store);
  const notes = new InMemoryNotificationRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const notifications = new NotificationService(notes, new RecordingPushSender(), clock);
  const posts = new PostService(postRepo, follows, users, notifications, clock);
  const engagement = new EngagementService(posts, new InMemoryPostEngagementRepository(store), notifications, clock);
  const comments = new CommentService(posts, postRepo, new InMemoryCommentRepository(store), users, notifications, clock);
  const actor = async (flags: Partial<Actor> = {}): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false, ...flags };
  };
  return { users, posts, engagement, comments, notes, actor };
}

describe('content rules', () => {
  it('extracts hashtags and mentions', () => {
    expect(extractHashtags('Go #Plaza #plaza #a #été_2 #xy')).toEqual(['plaza', 'xy', 'été_2']);
    expect(extractMentions('hi @alice, @bob_2 and mail a@b.c @alice')).toEqual(['alice', 'bob_2']);
  });

  it('refuses an empty post and strips paths from media names', async () => {
    const { posts, actor } = setup();
    const a = await actor();
    await expect(posts.create(a, { content: '  ', media: [] })).rejects.toBeInstanceOf(Invalid);
    const v = await posts.create(a, { media: ['https://x.test/uploads/posts/media_1.jpg'] });
    expect(v.post.media).toEqual(['media_1.jpg']);
    expect(v.post.media_type).toBe('image');
  });

  it('allows editing by the author only and deleting by the author or a moderator', async () => {
    const { posts, actor } = setup();
    const [author, other, mod] = [await actor(), await actor(), await actor({ isModerator: true })];
    const v = await posts.create(author, { content: 'x' });
    await expect(posts.edit(other, v.post.id, { content: 'y' })).rejects.toBeInstanceOf(Forbidden);
    await expect(posts.edit(mod, v.post.id, { content: 'y' })).rejects.toBeInstanceOf(Forbidden);
    await expect(posts.delete(other, v.post.id)).rejects.toBeInstanceOf(Forbidden);
    expect((await posts.view(author, v.post.id)).post.content).toBe('x');
    await posts.delete(mod, v.post.id);
    await expect(posts.view(author, v.post.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('notifies others of reactions, comments, replies and mentions, never the actor', async () => {
    const { posts, engagement, comments, notes, actor } = setup();
    const [author, fan, third] = [await actor(), await actor(), await actor()];
    const v = await posts.create(author, { content: `hey @${third.username} @${author.username}` });
    await engagement.react(author, v.post.id, 'like');
    await engagement.react(fan, v.post.id, 'wow');
    const c = await comments.create(fan, { post_id: v.post.id, content: 'nice' });
    await comments.create(third, { post_id: v.post.id, content: 'yes', parent_id: c.id });
    expect(notes.rows.map((n) => [n.user_id, n.type])).toEqual([
      [third.userId, 'mention'],
      [author.userId, 'reaction'],
      [author.userId, 'comment'],
      [author.userId, 'comment'],
      [fan.userId, 'reply'],
    ]);
    const other = await posts.create(author, { content: 'other' });
    await expect(comments.create(fan, { post_id: other.post.id, content: 'x', parent_id: c.id })).rejects.toBeInstanceOf(Invalid);
  });
});
