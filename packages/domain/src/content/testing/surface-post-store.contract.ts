import { describe, expect, it } from 'vitest';
import type { SurfacePostStore } from '../surface.js';

const at = '2026-03-01 00:00:00';
const later = '2026-03-02 00:00:00';

/** One surface's store over its tables, with a place and three users to write as. */
export interface SurfaceStorePorts<P, C> {
  store: SurfacePostStore<P, C>;
  placeId: number;
  userIds: [number, number, number];
  /** The counters the surface keeps on a post, read from its record. */
  counters(post: P): { reactions: number; comments: number };
  /** The stored text, media and type of a post. */
  stored(post: P): { content: string; media: string[]; media_type: string | null; updated_at: string | null };
  /** Whether the surface's comments take a parent (a group's thread) or stand flat (a page's). */
  nests: boolean;
}

/**
 * The surface-post store (content/surface.ts) the publishing core writes through, the same for every
 * surface, in memory and on SQL: test/contracts/surface-posts.test.ts runs it for groups and pages on both.
 */
export function surfacePostStoreContract<P, C>(name: string, make: () => Promise<SurfaceStorePorts<P, C>>) {
  describe(`${name}: surface-post store`, () => {
    it('creates, finds, edits and deletes a post, saying whether it was there', async () => {
      const { store, placeId, userIds, stored } = await make();
      const post = await store.createPost(
        placeId,
        userIds[0],
        { content: 'hello', media: ['media_a.jpg'], media_type: 'image', tags: [] },
        at,
      );
      const id = store.postRef(post).id;
      expect(store.postRef(post)).toEqual({ id, place_id: placeId, user_id: userIds[0], has_media: true });
      expect(stored(post)).toEqual({ content: 'hello', media: ['media_a.jpg'], media_type: 'image', updated_at: null });
      const bare = await store.createPost(placeId, userIds[1], { content: 'no media', media: [], media_type: null, tags: [] }, at);
      expect(store.postRef(bare).has_media).toBe(false);
      await store.updatePost(id, 'edited', later);
      const found = await store.findPost(id);
      expect(found && stored(found)).toEqual({ content: 'edited', media: ['media_a.jpg'], media_type: 'image', updated_at: later });
      expect(await store.deletePost(id)).toBe(true);
      expect(await store.deletePost(id)).toBe(false);
      expect(await store.findPost(id)).toBeNull();
      expect(await store.findPost(store.postRef(bare).id)).not.toBeNull();
    });

    it('keeps one reaction per user and post: added, unchanged, changed, removed, with the counter moving alongside', async () => {
      const { store, placeId, userIds, counters } = await make();
      const post = await store.createPost(placeId, userIds[0], { content: 'react', media: [], media_type: null, tags: [] }, at);
      const id = store.postRef(post).id;
      await store.lockPost(id);
      expect(await store.reactions.put(id, userIds[1], 'like', at)).toBe('added');
      expect(await store.reactions.put(id, userIds[1], 'like', at)).toBe('unchanged');
      expect(await store.reactions.put(id, userIds[1], 'love', at)).toBe('changed');
      expect(await store.reactions.put(id, userIds[2], 'haha', at)).toBe('added');
      expect(counters((await store.findPost(id))!).reactions).toBe(2);
      expect(await store.reactionsBy(userIds[1], [id, id + 1000])).toEqual(new Map([[id, 'love']]));
      expect(await store.reactions.remove(id, userIds[1])).toBe(true);
      expect(await store.reactions.remove(id, userIds[1])).toBe(false);
      expect(await store.reactionsBy(userIds[1], [id])).toEqual(new Map());
      expect(counters((await store.findPost(id))!).reactions).toBe(1);
    });

    it('stores comments with the post’s counter, edits and deletes them, and a post takes its comments along', async () => {
      const { store, placeId, userIds, counters } = await make();
      const post = await store.createPost(placeId, userIds[0], { content: 'talk', media: [], media_type: null, tags: [] }, at);
      const id = store.postRef(post).id;
      const first = await store.createComment(post, userIds[1], null, 'first', at);
      const second = await store.createComment(post, userIds[2], null, 'second', at);
      const firstId = store.commentRef(first).id;
      expect(store.commentRef(first)).toMatchObject({ id: firstId, post_id: id, user_id: userIds[1] });
      expect(counters((await store.findPost(id))!).comments).toBe(2);
      await store.updateComment(firstId, 'first, edited', later);
      expect(await store.findComment(firstId)).toMatchObject({ content: 'first, edited', updated_at: later });
      expect(await store.deleteComment(firstId)).toBe(true);
      expect(await store.deleteComment(firstId)).toBe(false);
      expect(await store.findComment(firstId)).toBeNull();
      expect(counters((await store.findPost(id))!).comments).toBe(1);
      expect(await store.deletePost(id)).toBe(true);
      expect(await store.findComment(store.commentRef(second).id)).toBeNull();
    });

    it('keeps a reply under its parent where comments nest, and deletes it with the parent', async () => {
      const { store, placeId, userIds, nests } = await make();
      if (!nests) return;
      const post = await store.createPost(placeId, userIds[0], { content: 'thread', media: [], media_type: null, tags: [] }, at);
      const root = await store.createComment(post, userIds[1], null, 'root', at);
      const reply = await store.createComment(post, userIds[2], root, 'reply', at);
      expect(await store.findComment(store.commentRef(reply).id)).toMatchObject({ parent_id: store.commentRef(root).id });
      expect(await store.deleteComment(store.commentRef(root).id)).toBe(true);
      expect(await store.findComment(store.commentRef(reply).id)).toBeNull();
    });
  });
}
