import { join } from 'node:path';
import { Forbidden, Invalid, ManualClock, NotFound } from '@plaza/domain';
import { actorOf } from '@plaza/domain/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../../test/support/database.js';
import { closeLibraryPlaza, openLibraryPlaza } from '../../../test/support/library-plaza.js';
import type { InputRules } from './library-input.js';
import { LIBRARY_INPUT_RULES, type Plaza } from './library.js';

/** The groups face (docs/decisions/0130): `createPlaza().groups`, groups and their posts, through the library boundary. */
let database: TestDatabase;
let plaza: Plaza;
const clock = new ManualClock('2026-06-01T09:00:00Z');
beforeAll(async () => {
  ({ plaza, database } = await openLibraryPlaza('library-groups', clock));
});
afterAll(() => closeLibraryPlaza({ plaza, database }));

const register = async (name: string) =>
  actorOf(await plaza.accounts.auth.register({ username: `${name}_grp`, email: `${name}@grp.example.test`, password: 'a long password' }));

/** The error a call rejects with (null if it resolves). */
const rejection = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (e: unknown) => e,
  );

describe('the groups library face', () => {
  it('lets a user create a group, another join, publish, comment and react', async () => {
    const ann = await register('ann');
    const ben = await register('ben');
    const { groups, posts } = plaza.groups;

    const group = await groups.create(ann, { name: 'Engine makers', description: 'Difference engines', privacy: 'public' });
    expect(group).toMatchObject({ id: expect.any(Number), name: 'Engine makers', privacy: 'public' });
    expect(await groups.join(ben, group.id)).toBe('joined');
    expect((await groups.visibleGroup(ben, group.id)).relation.role).toBe('member');
    const members = await groups.members(ann, group.id, { page: 1, perPage: 20 });
    expect(members.items.map((m) => m.user.id).sort()).toEqual([ann.userId, ben.userId].sort());
    expect((await groups.listJoined(ben, { q: 'engine' })).items.map((v) => v.group.id)).toEqual([group.id]);

    const post = await posts.create(ben, { group_id: group.id, content: 'First gears cut', tags: 'gears, brass' });
    expect(post).toMatchObject({ post: { group_id: group.id, content: 'First gears cut' }, author: { id: ben.userId } });
    const comment = await posts.comment(ann, { post_id: post.post.id, content: 'Well done' });
    expect(comment).toMatchObject({ post_id: post.post.id, user_id: ann.userId, content: 'Well done' });
    const reacted = await posts.react(ann, post.post.id, 'love');
    expect(reacted).toMatchObject({ post_id: post.post.id, reaction_type: 'love', likes_count: 1 });

    const list = await posts.list(ben, group.id, { page: 1, perPage: 20 });
    expect(list.items.map((v) => v.post.id)).toEqual([post.post.id]);
    expect(await posts.view(ann, post.post.id)).toMatchObject({ is_liked: true, reaction_type: 'love', post: { likes_count: 1 } });
    const thread = await posts.listComments(ben, post.post.id, { page: 1, perPage: 20 });
    expect(thread.items.map((c) => c.comment.content)).toEqual(['Well done']);
    // The HTTP schema's coercion: a numeric string id is taken, as HTTP takes it.
    const untyped = plaza as unknown as Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>;
    expect(await untyped.groups.posts.unreact(ann, String(post.post.id))).toMatchObject({ removed: true, likes_count: 0 });
  });

  it('refuses bad input with the Invalid HTTP answers, and changes nothing', async () => {
    const cid = await register('cid');
    const untyped = plaza as unknown as Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>;
    const refusedFields = async (call: Promise<unknown>) => {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).code).toBe('invalid_input');
      return ((error as Invalid).details ?? []).map((d) => d.field);
    };

    expect(await refusedFields(untyped.groups.groups.create(cid, { name: 42 }))).toEqual(['name']);
    expect(await refusedFields(untyped.groups.groups.create(cid, { name: 'Secret', privacy: 'hidden' }))).toEqual(['privacy']);
    expect(await refusedFields(untyped.groups.groups.join(cid, 'the group'))).toEqual(['groupId']);
    expect(await refusedFields(untyped.groups.groups.create({ userId: '1' }, { name: 'Spoofed' }))).toContain('actor.userId');
    expect(await database.db.selectFrom('community_groups').select('id').where('creator_id', '=', cid.userId).execute()).toEqual([]);

    const group = await plaza.groups.groups.create(cid, { name: 'Knitting circle', privacy: 'public' });
    expect(await refusedFields(untyped.groups.posts.create(cid, { group_id: group.id, content: 'x'.repeat(10_001) }))).toEqual(['content']);
    expect(await refusedFields(untyped.groups.posts.create(cid, { group_id: group.id, content: { text: 'hi' } }))).toEqual(['content']);
    const post = await plaza.groups.posts.create(cid, { group_id: group.id, content: 'Purl two' });
    expect(await refusedFields(untyped.groups.posts.react(cid, post.post.id, 'adore'))).toEqual(['reaction']);
    expect(await refusedFields(untyped.groups.posts.comment(cid, { post_id: post.post.id, content: 7 }))).toEqual(['content']);
    expect(await refusedFields(untyped.groups.posts.edit(cid, post.post.id, ['Knit one']))).toEqual(['content']);
    expect(await refusedFields(untyped.groups.posts.list(cid, group.id, { page: 0, perPage: 20 }))).toContain('page');
    const view = await plaza.groups.posts.view(cid, post.post.id);
    expect(view).toMatchObject({ is_liked: false, post: { content: 'Purl two', likes_count: 0 } });
    expect((await plaza.groups.posts.listComments(cid, post.post.id, { page: 1, perPage: 20 })).items).toEqual([]);
  });

  it('keeps a private group’s posts from a non-member', async () => {
    const dot = await register('dot');
    const eli = await register('eli');
    const group = await plaza.groups.groups.create(dot, { name: 'Inner circle', privacy: 'private' });
    const post = await plaza.groups.posts.create(dot, { group_id: group.id, content: 'Members only' });

    expect(await rejection(plaza.groups.posts.view(eli, post.post.id))).toBeInstanceOf(NotFound);
    expect(await rejection(plaza.groups.posts.list(eli, group.id, { page: 1, perPage: 20 }))).toBeInstanceOf(NotFound);
    expect(await rejection(plaza.groups.posts.comment(eli, { post_id: post.post.id, content: 'Let me in' }))).toBeInstanceOf(NotFound);
    expect(await rejection(plaza.groups.posts.react(eli, post.post.id, 'like'))).toBeInstanceOf(NotFound);
    // Asking to join is not membership: the request is pending, the post still hidden.
    expect(await plaza.groups.groups.join(eli, group.id)).toBe('requested');
    expect(await rejection(plaza.groups.posts.list(eli, group.id, { page: 1, perPage: 20 }))).toBeInstanceOf(Forbidden);
    expect(await rejection(plaza.groups.posts.view(eli, post.post.id))).toBeInstanceOf(NotFound);
    // Once an admin approves, the member reads it.
    await plaza.groups.groups.approveRequest(dot, group.id, eli.userId);
    expect((await plaza.groups.posts.view(eli, post.post.id)).post.content).toBe('Members only');
  });

  it('has one rule for each method of both services', async () => {
    const rules = LIBRARY_INPUT_RULES.groups as Record<string, Record<string, unknown>>;
    expect(Object.keys(rules).sort()).toEqual(['groups', 'posts']);
    expect(Object.keys(rules.posts)).toContain('listComments');
    // @ts-expect-error `join` and the others have no rule
    const incomplete: InputRules<Plaza['groups']['groups']> = { create: [] };
    expect(incomplete).toBeDefined();
  });
});
