import { describe, expect, it, vi } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { NotificationService } from '../notifications/notification-service.js';
import { EngagementNotices } from '../notifications/engagement-notices.js';
import { EngagementEvents } from './engagement-events.js';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import {
  InMemoryContentStore,
  InMemoryCommentRepository,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
} from '../content/testing/in-memory-content.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import { InMemoryFollowRepository } from '../social/testing/in-memory-social.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { CommentService } from './comment-service.js';
import { EngagementService } from './engagement-service.js';
import { extractHashtags, extractMentions } from './model.js';
import { PostService } from './post-service.js';
import { canSeePost } from './visibility.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';

function setup() {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  const postRepo = new InMemoryPostRepository(store);
  const notes = new InMemoryNotificationRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const notifications = new NotificationService(notes, new RecordingPushSender(), clock);
  // Notifications are raised by their listener of the engagement events, as the server binds it.
  const notices = new EngagementEvents([new EngagementNotices(notifications)]);
  const uow = new InMemoryUnitOfWork(users, follows, store, notes);
  const uploaded = new InMemoryUploads();
  const [commentRepo, engagementRepo] = [new InMemoryCommentRepository(store), new InMemoryPostEngagementRepository(store)];
  const posts = new PostService(postRepo, commentRepo, engagementRepo, follows, users, notices, clock, uow, uploaded.references);
  const engagement = new EngagementService(posts, engagementRepo, notices, clock, uow);
  const comments = new CommentService(posts, postRepo, commentRepo, notices, clock, uow);
  const actor = async (flags: Partial<Actor> = {}): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false, ...flags };
  };
  return { users, follows, store, postRepo, posts, engagement, comments, notes, actor, uploaded };
}

describe('content rules', () => {
  it('extracts hashtags and mentions', () => {
    expect(extractHashtags('Go #Plaza #plaza #a #été_2 #xy')).toEqual(['plaza', 'xy', 'été_2']);
    expect(extractMentions('hi @alice, @bob_2 and mail a@b.c @alice')).toEqual(['alice', 'bob_2']);
  });

  it('refuses an empty post and strips paths from media names', async () => {
    const { posts, actor, uploaded } = setup();
    const a = await actor();
    await expect(posts.create(a, { content: '  ', media: [] })).rejects.toBeInstanceOf(Invalid);
    await expect(posts.create(a, { media: ['media_1.jpg'] })).rejects.toMatchObject({ code: 'invalid_media' });
    await uploaded.place('uploads/posts/media_1.jpg', a.userId);
    const v = await posts.create(a, { media: ['https://x.test/uploads/posts/media_1.jpg'] });
    expect(v.post.media).toEqual(['media_1.jpg']);
    expect(v.post.media_type).toBe('image');
  });

  it('answers a new post with the card the session read, and reads the account only without one', async () => {
    const { posts, postRepo, actor } = setup();
    const a = await actor();
    const card = { avatar: 'me.png', militant_badge: 'gold', is_private: false, is_admin: false, is_moderator: false, is_technician: true };
    const authors = vi.spyOn(postRepo, 'authors');
    const v = await posts.create({ ...a, card }, { content: 'x' });
    expect(authors).not.toHaveBeenCalled();
    expect(v.author).toEqual({ id: a.userId, username: a.username, ...card });
    const w = await posts.create(a, { content: 'y' });
    expect(authors).toHaveBeenCalledWith([a.userId]);
    expect(w.author).toMatchObject({ id: a.userId, username: a.username, avatar: null, is_technician: false });
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

  it('decides visibility by one rule: public, or author or follower of a private account, or a moderator while it is reported', () => {
    const account = (isPrivate: boolean) => ({ kind: 'account' as const, authorId: 1, isPrivate });
    const viewer = (userId: number, moderator = false) => ({ userId, moderator });
    expect(canSeePost(viewer(2), account(false), { follows: false })).toBe(true);
    expect(canSeePost(viewer(2), account(true), { follows: false })).toBe(false);
    expect(canSeePost(viewer(2), account(true), { follows: true })).toBe(true);
    expect(canSeePost(viewer(1), account(true), { follows: false })).toBe(true);
    expect(canSeePost(viewer(2, true), account(true), { follows: false })).toBe(false);
    expect(canSeePost(viewer(2, true), account(true), { follows: false, reported: true })).toBe(true);
    expect(canSeePost(viewer(2), account(true), { follows: false, reported: true })).toBe(false);
  });

  it('tells no one of a private post they may not see: mentions, replies and comment reactions', async () => {
    const { users, follows, posts, comments, notes, actor } = setup();
    const [author, follower, outsider] = [await actor(), await actor(), await actor()];
    users.rows.get(author.userId)!.is_private = true;
    await follows.follow(follower.userId, author.userId, '2026-05-01 00:00:00');
    const v = await posts.create(author, { content: `hi @${outsider.username} @${follower.username}` });
    expect(notes.rows.map((n) => [n.user_id, n.type])).toEqual([[follower.userId, 'mention']]);
    const c = await comments.create(follower, { post_id: v.post.id, content: 'mine' });
    await follows.unfollow(follower.userId, author.userId);
    notes.rows.length = 0;
    await comments.create(author, { post_id: v.post.id, content: 'a reply', parent_id: c.id });
    await comments.react(author, 'post', c.id, 'love');
    expect(notes.rows).toEqual([]);
    await expect(comments.list(follower, v.post.id)).rejects.toBeInstanceOf(NotFound);
    await expect(comments.edit(follower, c.id, 'changed')).rejects.toBeInstanceOf(NotFound);
  });

  it('stores a post, a comment, a reaction and a share together with their notifications, or none of them', async () => {
    const { posts, engagement, comments, store, notes, actor } = setup();
    const [author, fan] = [await actor(), await actor()];
    const post = await posts.create(author, { content: 'first' });
    const fail = () => vi.spyOn(notes, 'create').mockRejectedValueOnce(new Error('notification store down'));

    fail();
    await expect(posts.create(author, { content: `hello @${fan.username}` })).rejects.toThrow('notification store down');
    expect([...store.posts.values()].map((p) => p.content)).toEqual(['first']);
    expect(store.wall).toHaveLength(1);

    fail();
    await expect(comments.create(fan, { post_id: post.post.id, content: 'nice' })).rejects.toThrow('notification store down');
    expect(store.comments.size).toBe(0);
    expect(store.posts.get(post.post.id)!.comments_count).toBe(0);

    fail();
    await expect(engagement.react(fan, post.post.id, 'love')).rejects.toThrow('notification store down');
    expect(store.reactions.size).toBe(0);
    expect(store.posts.get(post.post.id)!.likes_count).toBe(0);

    fail();
    await expect(engagement.share(fan, post.post.id)).rejects.toThrow('notification store down');
    expect(store.shares.size).toBe(0);
    expect(store.posts.get(post.post.id)!.shares_count).toBe(0);
    expect(notes.rows).toEqual([]);

    // Nothing half-done is left in the way of doing it again.
    expect((await engagement.share(fan, post.post.id)).shares_count).toBe(1);
    expect(notes.rows.map((n) => n.type)).toEqual(['share']);
  });
});
