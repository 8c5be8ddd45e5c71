import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import { InMemoryUploads } from '../../media/testing/in-memory-uploads.js';
import type { Actor } from '../../shared/actor.js';
import { ManualClock } from '../../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../../shared/errors.js';
import { toTimestamp } from '../../shared/time.js';
import type { CommentedEvent, EngagementListener, PostReactedEvent } from '../engagement-events.js';
import type { SurfacePosts } from '../surface-posts.js';

/** What the engagement listeners heard (the notifications context binds the same listener). */
export class HeardEngagement implements EngagementListener {
  readonly reactions: PostReactedEvent[] = [];
  readonly comments: CommentedEvent[] = [];
  async postReacted(event: PostReactedEvent): Promise<void> {
    this.reactions.push(event);
  }
  async commented(event: CommentedEvent): Promise<void> {
    this.comments.push(event);
  }
}

/** One surface's world for the behaviour suite, built fresh for each test. */
export interface SurfaceWorld<Place, P, C> {
  core: SurfacePosts<Place, P, C>;
  /** A public place: `publisher` may post there, `moderator` moderates it, `viewer` only sees it. */
  placeId: number;
  /** A place `hiddenPublisher` posts in that `viewer` may not see. */
  hiddenPlaceId: number;
  publisher: Actor;
  /** Who posts in the hidden place: `publisher` where one may post in two places (a wall is its account's only). */
  hiddenPublisher?: Actor;
  viewer: Actor;
  moderator: Actor;
  heard: HeardEngagement;
  /** Whether the surface tells anyone of its posts' reactions and comments (a page's tell no one, 0120). */
  tells: boolean;
  /** Places an upload of type posts owned by `owner` at `uploads/posts/<name>`. */
  upload(owner: Actor, name: string): Promise<void>;
  /** The stored post's text and media, read straight from the store. */
  stored(postId: number): Promise<{ content: string; media: string[]; media_type: string | null } | null>;
  /** How many posts the place holds. */
  postsIn(placeId: number): Promise<number>;
}

/**
 * What every surface's world starts from, before its own repositories and places: the users (the
 * `moderator` who will run the places, a `publisher`, a `viewer`), a clock and the time it reads
 * (`at`), the uploads and the engagement heard. `upload` is the world's `upload`.
 */
export async function surfaceCast() {
  const users = new InMemoryUserRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const uploads = new InMemoryUploads();
  const actor = async (): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false };
  };
  const [moderator, publisher, viewer] = [await actor(), await actor(), await actor()];
  return {
    users,
    clock,
    at: toTimestamp(clock.now()),
    uploads,
    heard: new HeardEngagement(),
    moderator,
    publisher,
    viewer,
    upload: (owner: Actor, name: string) => uploads.place(`uploads/posts/${name}`, owner.userId),
  };
}

/**
 * The behaviour of the one publishing core (docs/decisions/0190), the same for every surface: each surface
 * runs it with its own world (content/wall-surface.test.ts, groups/group-surface.test.ts,
 * pages/page-surface.test.ts). Only the surface's answers differ, never the steps.
 */
export function surfaceBehaviourSuite<Place, P, C>(name: string, make: () => Promise<SurfaceWorld<Place, P, C>>) {
  const idOf = <Place, P, C>(w: SurfaceWorld<Place, P, C>, post: P) => w.core.store.postRef(post).id;
  const commentIdOf = <Place, P, C>(w: SurfaceWorld<Place, P, C>, comment: C) => w.core.store.commentRef(comment).id;

  describe(`the publishing core on the ${name} surface`, () => {
    it('publishes a composed post: trimmed content, media named by their file, the type inferred', async () => {
      const w = await make();
      await w.upload(w.publisher, 'media_clip.mp4');
      const { post } = await w.core.publish(w.publisher, w.placeId, { content: '  hello #there  ', media: 'uploads/posts/media_clip.mp4' });
      expect(await w.stored(idOf(w, post))).toEqual({ content: 'hello #there', media: ['media_clip.mp4'], media_type: 'video' });
    });

    it('refuses an empty post, a too long one, an unknown upload and a non-publisher, storing nothing', async () => {
      const w = await make();
      const max = w.core.surface.limits.post.maxLength;
      await expect(w.core.publish(w.publisher, w.placeId, { content: '   ' })).rejects.toMatchObject({ code: 'empty_post' });
      await expect(w.core.publish(w.publisher, w.placeId, { content: 'x'.repeat(max + 1) })).rejects.toBeInstanceOf(Invalid);
      await expect(w.core.publish(w.publisher, w.placeId, { media: 'media_none.jpg' })).rejects.toMatchObject({ code: 'invalid_media' });
      await expect(w.core.publish(w.viewer, w.placeId, { content: 'hi' })).rejects.toBeInstanceOf(Forbidden);
      await expect(w.core.publish(w.viewer, w.hiddenPlaceId, { content: 'hi' })).rejects.toBeInstanceOf(NotFound);
      expect(await w.postsIn(w.placeId)).toBe(0);
      await w.core.publish(w.publisher, w.placeId, { content: 'x'.repeat(max) });
      expect(await w.postsIn(w.placeId)).toBe(1);
    });

    it('hides the posts and comments of a place the actor may not see, as missing ones', async () => {
      const w = await make();
      const insider = w.hiddenPublisher ?? w.publisher;
      const { post } = await w.core.publish(insider, w.hiddenPlaceId, { content: 'members only' });
      const { comment } = await w.core.comment(insider, { post_id: idOf(w, post), content: 'inside' });
      await expect(w.core.visiblePost(w.viewer, idOf(w, post))).rejects.toMatchObject({ code: 'post_not_found' });
      await expect(w.core.visibleComment(w.viewer, commentIdOf(w, comment))).rejects.toMatchObject({ code: 'comment_not_found' });
      await expect(w.core.comment(w.viewer, { post_id: idOf(w, post), content: 'x' })).rejects.toBeInstanceOf(NotFound);
      await expect(w.core.react(w.viewer, idOf(w, post), 'like')).rejects.toBeInstanceOf(NotFound);
      await expect(w.core.delete(w.viewer, idOf(w, post))).rejects.toBeInstanceOf(NotFound);
      expect(await w.stored(idOf(w, post))).not.toBeNull();
    });

    it('lets the author edit (the publishing rule again) and refuses anyone else', async () => {
      const w = await make();
      const { post } = await w.core.publish(w.publisher, w.placeId, { content: 'first' });
      const id = idOf(w, post);
      await expect(w.core.edit(w.viewer, id, 'mine now')).rejects.toBeInstanceOf(Forbidden);
      await expect(w.core.edit(w.publisher, id, '  ')).rejects.toMatchObject({ code: 'empty_post' });
      expect((await w.core.edit(w.publisher, id, ' second ')).content).toBe('second');
      expect((await w.stored(id))?.content).toBe('second');
    });

    it('lets the author and the place’s moderators delete a post, and no one else', async () => {
      const w = await make();
      const a = idOf(w, (await w.core.publish(w.publisher, w.placeId, { content: 'a' })).post);
      const b = idOf(w, (await w.core.publish(w.publisher, w.placeId, { content: 'b' })).post);
      await expect(w.core.delete(w.viewer, a)).rejects.toBeInstanceOf(Forbidden);
      await w.core.delete(w.publisher, a);
      await w.core.delete(w.moderator, b);
      expect([await w.stored(a), await w.stored(b)]).toEqual([null, null]);
      await expect(w.core.delete(w.publisher, a)).rejects.toMatchObject({ code: 'post_not_found' });
    });

    it('keeps one reaction per user: added, unchanged, changed, taken back; tells the author of adding and changing only', async () => {
      const w = await make();
      const id = idOf(w, (await w.core.publish(w.publisher, w.placeId, { content: 'react to me' })).post);
      expect((await w.core.react(w.viewer, id, 'like')).change).toBe('added');
      expect((await w.core.react(w.viewer, id, 'like')).change).toBe('unchanged');
      expect((await w.core.react(w.viewer, id, 'love')).change).toBe('changed');
      expect(await w.core.reactionOf(w.viewer, id)).toBe('love');
      expect(await w.core.unreact(w.viewer, id)).toBe(true);
      expect(await w.core.unreact(w.viewer, id)).toBe(false);
      expect(await w.core.reactionOf(w.viewer, id)).toBeNull();
      await w.core.react(w.publisher, id, 'like');
      expect(w.heard.reactions.map((e) => [e.recipientId, e.change])).toEqual(
        w.tells
          ? [
              [w.publisher.userId, 'added'],
              [w.publisher.userId, 'changed'],
            ]
          : [],
      );
    });

    it('takes a reaction back when the surface decides so under the lock (the page’s toggle)', async () => {
      const w = await make();
      const id = idOf(w, (await w.core.publish(w.publisher, w.placeId, { content: 'toggle' })).post);
      const toggle = (current: string | null) => (current === 'like' ? 'remove' : 'put') as 'remove' | 'put';
      expect((await w.core.react(w.viewer, id, 'like', toggle)).change).toBe('added');
      expect((await w.core.react(w.viewer, id, 'like', toggle)).change).toBe('removed');
      expect(await w.core.reactionOf(w.viewer, id)).toBeNull();
    });

    it('comments: checked text, a parent of the same post, the author’s edits, deletions by the author or a moderator', async () => {
      const w = await make();
      const id = idOf(w, (await w.core.publish(w.publisher, w.placeId, { content: 'talk' })).post);
      const max = w.core.surface.limits.comment;
      await expect(w.core.comment(w.viewer, { post_id: id, content: '  ' })).rejects.toBeInstanceOf(Invalid);
      await expect(w.core.comment(w.viewer, { post_id: id, content: 'x'.repeat(max + 1) })).rejects.toBeInstanceOf(Invalid);
      const mine = commentIdOf(w, (await w.core.comment(w.viewer, { post_id: id, content: ' mine ' })).comment);
      const other = idOf(w, (await w.core.publish(w.publisher, w.placeId, { content: 'elsewhere' })).post);
      await expect(w.core.comment(w.viewer, { post_id: other, content: 'x', parent_id: mine })).rejects.toMatchObject({
        code: 'invalid_parent',
      });
      await expect(w.core.editComment(w.publisher, mine, 'not yours')).rejects.toBeInstanceOf(Forbidden);
      expect((await w.core.editComment(w.viewer, mine, ' edited ')).content).toBe('edited');
      const authors = commentIdOf(w, (await w.core.comment(w.publisher, { post_id: id, content: 'by the author' })).comment);
      await expect(w.core.deleteComment(w.viewer, authors)).rejects.toBeInstanceOf(Forbidden);
      await w.core.deleteComment(w.moderator, mine);
      await w.core.deleteComment(w.publisher, authors);
      await expect(w.core.visibleComment(w.viewer, mine)).rejects.toMatchObject({ code: 'comment_not_found' });
      await expect(w.core.deleteComment(w.publisher, authors)).rejects.toMatchObject({ code: 'comment_not_found' });
      // The post's author is told of another's comment, never of their own.
      expect(w.heard.comments.map((e) => e.postAuthorId)).toEqual(w.tells ? [w.publisher.userId, null] : []);
    });
  });
}
