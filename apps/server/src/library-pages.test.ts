import { Forbidden, Invalid, ManualClock } from '@plaza/domain';
import { actorOf } from '@plaza/domain/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../../test/support/database.js';
import { closeLibraryPlaza, openLibraryPlaza } from '../../../test/support/library-plaza.js';
import { LIBRARY_INPUT_RULES, type Plaza } from './library.js';

/** The pages context's face (docs/decisions/0130): `createPlaza().pages`, on the database under test (PLAZA_TEST_DB). */
let database: TestDatabase;
let plaza: Plaza;
const clock = new ManualClock('2026-06-01T09:00:00Z');
beforeAll(async () => {
  ({ plaza, database } = await openLibraryPlaza('library-pages', clock));
}, 120_000);
afterAll(() => closeLibraryPlaza({ plaza, database }));

const register = async (name: string) =>
  actorOf(await plaza.accounts.auth.register({ username: `${name}_pg`, email: `${name}@pages.example.test`, password: 'a long password' }));
const firstPage = { page: 1, perPage: 20 };
/** The call's refusal, which must be an `Invalid`. */
const refusal = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Invalid);
  return error as Invalid;
};
const untyped = () => plaza as unknown as Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>;

describe('createPlaza().pages', () => {
  it('offers the page and page-post services, a rule for each method', () => {
    expect(Object.keys(plaza.pages).sort()).toEqual(['pages', 'posts']);
    expect(Object.keys(LIBRARY_INPUT_RULES.pages.posts).sort()).toEqual([
      'comment',
      'comments',
      'create',
      'delete',
      'deleteComment',
      'list',
      'react',
      'update',
      'updateComment',
      'visibleComment',
      'visiblePost',
    ]);
  });

  it('creates a page, publishes on it; another user follows, comments and reacts', async () => {
    const ada = await register('ada');
    const bob = await register('bob');
    const { pages, posts } = plaza.pages;

    const page = await pages.create(ada, { name: 'Jardin partagé', description: 'Le jardin du quartier', category: 'Association' });
    expect(page).toMatchObject({ id: expect.any(Number), name: 'Jardin partagé', privacy: 'public', created_by: ada.userId });
    expect(await pages.visiblePage(ada, page.id)).toMatchObject({ role: 'admin', is_followed: false });

    const published = await posts.create(ada, { page_id: page.id, content: 'Plantation samedi à 10 h' });
    expect(published.post).toMatchObject({ page_id: page.id, user_id: ada.userId, content: 'Plantation samedi à 10 h' });
    expect(published.author?.id).toBe(ada.userId);

    expect(await pages.follow(bob, page.id)).toEqual({ followed: true, followers_count: 1 });
    expect((await pages.list(bob, 'followed', null, firstPage)).items.map((v) => v.page.id)).toEqual([page.id]);
    expect((await pages.followers(ada, page.id, firstPage)).items.map((v) => v.user.id)).toEqual([bob.userId]);

    const comment = await posts.comment(bob, published.post.id, 'J’apporte des graines');
    expect(comment).toMatchObject({ comment: { post_id: published.post.id, user_id: bob.userId, content: 'J’apporte des graines' } });
    expect((await posts.comments(ada, page.id, published.post.id, firstPage)).items.map((c) => c.comment.content)).toEqual([
      'J’apporte des graines',
    ]);

    expect(await posts.react(bob, published.post.id, 'love')).toEqual({ post_id: published.post.id, like_count: 1, user_reaction: 'love' });
    const seen = await posts.list(bob, page.id, firstPage);
    expect(seen.items).toHaveLength(1);
    expect(seen.items[0]).toMatchObject({ post: { id: published.post.id, like_count: 1 }, user_reaction: 'love' });
    // The same reaction again takes it back, as pages.php does.
    expect(await posts.react(bob, published.post.id, 'love')).toEqual({ post_id: published.post.id, like_count: 0, user_reaction: null });
  });

  it('refuses bad input with the Invalid HTTP answers, before the service, and changes nothing', async () => {
    const cy = await register('cy');
    const page = await plaza.pages.pages.create(cy, { name: 'Atelier vélo' });
    const call = untyped().pages;

    expect((await refusal(call.pages.create(cy, { name: 42 }))).details).toEqual([{ field: 'name', problem: expect.any(String) }]);
    expect((await refusal(call.pages.create(cy, { name: 'x'.repeat(10_000) }))).details?.[0].field).toBe('name');
    expect((await refusal(call.pages.update(cy, page.id, { privacy: 'secret' }))).details?.[0].field).toBe('privacy');
    expect((await refusal(call.pages.follow(cy, 'page'))).details?.[0].field).toBe('pageId');
    expect((await refusal(call.pages.list(cy, 'everything', null, firstPage))).details?.[0].field).toBe('kind');
    expect((await refusal(call.pages.addTeamMember(cy, page.id, 'someone', 'owner'))).details?.[0].field).toBe('role');
    expect((await refusal(call.posts.create(cy, { page_id: page.id, content: 42 }))).details?.[0].field).toBe('content');
    expect((await refusal(call.posts.create(cy, { content: 'Where?' }))).details?.[0].field).toBe('page_id');
    expect((await refusal(call.posts.create({ userId: '1' }, { page_id: page.id, content: 'hi' }))).details?.map((d) => d.field)).toContain(
      'actor.userId',
    );
    expect((await refusal(call.posts.react(cy, 1, 'adore'))).details?.[0].field).toBe('type');
    expect((await refusal(call.posts.comment(cy, 1, { text: 'hi' }))).details?.[0].field).toBe('content');
    expect((await refusal(call.posts.list(cy, page.id, { page: 0, perPage: 20 }))).details?.[0].field).toBe('page');

    const rows = await database.db.selectFrom('page_posts').select('id').where('page_id', '=', page.id).execute();
    expect(rows).toEqual([]);
    expect((await plaza.pages.pages.visiblePage(cy, page.id)).page).toMatchObject({ name: 'Atelier vélo', privacy: 'public' });
    // Good input goes through with the HTTP schema's coercions (a numeric string id).
    const dee = await register('dee');
    expect(await call.pages.follow(dee, String(page.id))).toEqual({ followed: true, followers_count: 1 });
  });

  it('lets only the page’s team publish', async () => {
    const eve = await register('eve');
    const fay = await register('fay');
    const gus = await register('gus');
    const page = await plaza.pages.pages.create(eve, { name: 'Cantine solidaire' });
    await plaza.pages.pages.follow(fay, page.id);

    const refused = await plaza.pages.posts.create(fay, { page_id: page.id, content: 'Moi aussi' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Forbidden);
    expect(refused).toMatchObject({ code: 'not_page_admin' });
    expect((await plaza.pages.posts.list(eve, page.id, firstPage)).items).toEqual([]);

    // Once on the team (an editor), the same user publishes.
    expect(await plaza.pages.pages.addTeamMember(eve, page.id, gus.username, 'editor')).toEqual({ user_id: gus.userId, role: 'editor' });
    const byEditor = await plaza.pages.posts.create(gus, { page_id: page.id, content: 'Menu du jour : soupe' });
    expect((await plaza.pages.posts.list(fay, page.id, firstPage)).items.map((v) => v.post.id)).toEqual([byEditor.post.id]);
  });
});
