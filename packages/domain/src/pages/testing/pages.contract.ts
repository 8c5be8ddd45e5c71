import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import { BLANK_PAGE, type PageFields } from '../model.js';
import type { PagePostRepository, PageRepository } from '../ports.js';

const page = (p = 1, perPage = 20) => ({ page: p, perPage });

export interface PagesPorts {
  users: UserRepository;
  pages: PageRepository;
  posts: PagePostRepository;
  /** Stores a reaction row to a page comment as comment_reactions.php does (content's table on SQL). */
  reactToComment(commentId: number, userId: number): Promise<void>;
}

export function aNewPage(overrides: Partial<PageFields> = {}): PageFields {
  return { ...BLANK_PAGE, name: 'Collectif', description: 'd', category: 'Collectif', ...overrides };
}

/** Pages, their team, followers, posts, reactions and comments: the same in memory and on SQL. */
export function pagesContract(name: string, make: () => Promise<PagesPorts>) {
  const people = async (users: UserRepository, n: number) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await users.create(aNewUser()));
    return out;
  };

  describe(`${name}: pages`, () => {
    it('creates a page with its creator as admin, finds, updates and lists it', async () => {
      const { users, pages } = await make();
      const [a, b] = await people(users, 2);
      const p = await pages.create({ ...aNewPage({ name: 'Syndicat du coin' }), created_by: a.id, created_at: '2026-01-01 00:00:00' });
      expect(p).toEqual({
        ...aNewPage({ name: 'Syndicat du coin' }),
        id: expect.any(Number),
        created_by: a.id,
        followers_count: 0,
        created_at: '2026-01-01 00:00:00',
        updated_at: null,
      });
      expect(await pages.findById(p.id)).toEqual(p);
      expect(await pages.findById(p.id + 1000)).toBeNull();
      await pages.update(p.id, { description: 'new', privacy: 'private' }, '2026-01-02 00:00:00');
      expect(await pages.findByIds([p.id])).toEqual([{ ...p, description: 'new', privacy: 'private', updated_at: '2026-01-02 00:00:00' }]);
      expect(await pages.rolesOf(a.id, [p.id])).toEqual(new Map([[p.id, 'admin']]));
      expect(await pages.rolesOf(b.id, [p.id])).toEqual(new Map());
      expect(await pages.countAdmins(p.id)).toBe(1);
      const p2 = await pages.create({ ...aNewPage(), created_by: a.id, created_at: '2026-01-01 00:00:00' });
      const managed = await pages.managedBy(a.id, page(1, 1));
      expect(managed.total).toBe(2);
      expect(managed.items.map((x) => x.id)).toEqual([p2.id]);
      expect((await pages.managedBy(b.id, page())).total).toBe(0);
    });

    it('follows once, counts followers, lists followed and discoverable pages', async () => {
      const { users, pages } = await make();
      const [a, b, c] = await people(users, 3);
      // The database may hold other tests' pages: discover is asked about this test's, by name.
      const tag = `t${Math.random().toString(36).slice(2, 8)}`;
      const p1 = await pages.create({
        ...aNewPage({ name: `${tag} Alpha infokiosque` }),
        created_by: a.id,
        created_at: '2026-01-01 00:00:00',
      });
      const p2 = await pages.create({ ...aNewPage({ name: `${tag} Beta media` }), created_by: a.id, created_at: '2026-01-01 00:00:00' });
      const hidden = await pages.create({
        ...aNewPage({ name: `${tag} Alpha hidden`, privacy: 'private' }),
        created_by: a.id,
        created_at: '2026-01-01 00:00:00',
      });
      await pages.lock(p1.id);
      expect(await pages.follow(p1.id, b.id, '2026-01-02 00:00:00')).toBe(true);
      expect(await pages.follow(p1.id, b.id, '2026-01-02 00:00:01')).toBe(false);
      expect(await pages.follow(p2.id, c.id, '2026-01-03 00:00:00')).toBe(true);
      expect(await pages.follow(p2.id, b.id, '2026-01-04 00:00:00')).toBe(true);
      expect((await pages.findById(p1.id))!.followers_count).toBe(1);
      expect((await pages.findById(p2.id))!.followers_count).toBe(2);
      expect(await pages.followsOf(b.id, [p1.id, p2.id, hidden.id])).toEqual(new Set([p1.id, p2.id]));
      expect((await pages.followedBy(b.id, page())).items.map((p) => p.id)).toEqual([p2.id, p1.id]);
      expect((await pages.followers(p2.id, page())).items).toEqual([
        { page_id: p2.id, user_id: b.id, created_at: '2026-01-04 00:00:00' },
        { page_id: p2.id, user_id: c.id, created_at: '2026-01-03 00:00:00' },
      ]);
      // c: follows p2 only; discover shows public pages c neither follows nor runs, most followed first.
      expect((await pages.discover(c.id, tag, page())).items.map((p) => p.id)).toEqual([p1.id]);
      expect((await pages.discover(a.id, tag, page())).items).toEqual([]);
      const [d] = await people(users, 1);
      const found = await pages.discover(d.id, tag, page(1, 1));
      expect(found.items.map((p) => p.id)).toEqual([p2.id]);
      expect(found.total).toBe(2);
      expect((await pages.discover(d.id, tag, page(2, 1))).items.map((p) => p.id)).toEqual([p1.id]);
      expect((await pages.discover(d.id, `${tag} alpha`, page())).items.map((p) => p.id)).toEqual([p1.id]);
      expect((await pages.discover(d.id, null, page(1, 100))).items.map((p) => p.id)).toEqual(expect.arrayContaining([p1.id, p2.id]));
      expect(await pages.unfollow(p2.id, b.id)).toBe(true);
      expect(await pages.unfollow(p2.id, b.id)).toBe(false);
      expect((await pages.findById(p2.id))!.followers_count).toBe(1);
    });

    it('adds, changes and removes team members, admins first', async () => {
      const { users, pages } = await make();
      const [a, b, c] = await people(users, 3);
      const p = await pages.create({ ...aNewPage(), created_by: a.id, created_at: '2026-01-01 00:00:00' });
      expect(await pages.setRole(p.id, b.id, 'editor', '2026-01-02 00:00:00')).toBe('added');
      expect(await pages.setRole(p.id, c.id, 'editor', '2026-01-03 00:00:00')).toBe('added');
      expect(await pages.setRole(p.id, c.id, 'editor', '2026-01-03 00:00:00')).toBe('unchanged');
      expect(await pages.setRole(p.id, c.id, 'admin', '2026-01-04 00:00:00')).toBe('changed');
      expect(await pages.countAdmins(p.id)).toBe(2);
      const team = await pages.team(p.id, page());
      expect(team.total).toBe(3);
      expect(team.items.map((m) => [m.user_id, m.role])).toEqual([
        [a.id, 'admin'],
        [c.id, 'admin'],
        [b.id, 'editor'],
      ]);
      expect(await pages.removeMember(p.id, b.id)).toBe(true);
      expect(await pages.removeMember(p.id, b.id)).toBe(false);
      expect((await pages.team(p.id, page())).total).toBe(2);
    });
  });

  describe(`${name}: page posts`, () => {
    it('stores posts, lists them newest first, edits and deletes them with what hangs on them', async () => {
      const { users, pages, posts, reactToComment } = await make();
      const [a, b] = await people(users, 2);
      const p = await pages.create({ ...aNewPage(), created_by: a.id, created_at: '2026-01-01 00:00:00' });
      const first = await posts.create({
        page_id: p.id,
        user_id: a.id,
        content: 'one',
        media: null,
        media_type: null,
        created_at: '2026-01-02 00:00:00',
      });
      const second = await posts.create({
        page_id: p.id,
        user_id: a.id,
        content: '',
        media: 'media_x1.jpg',
        media_type: 'image',
        created_at: '2026-01-03 00:00:00',
      });
      expect(second).toEqual({
        id: expect.any(Number),
        page_id: p.id,
        user_id: a.id,
        content: '',
        media: 'media_x1.jpg',
        media_type: 'image',
        like_count: 0,
        comment_count: 0,
        created_at: '2026-01-03 00:00:00',
        updated_at: null,
      });
      const listed = await posts.list(p.id, page(1, 1));
      expect(listed.total).toBe(2);
      expect(listed.items.map((x) => x.id)).toEqual([second.id]);
      await posts.update(first.id, 'edited', '2026-01-04 00:00:00');
      expect(await posts.findById(first.id)).toMatchObject({ content: 'edited', updated_at: '2026-01-04 00:00:00' });

      await posts.lock(first.id);
      await posts.setReaction(first.id, b.id, 'love', '2026-01-05 00:00:00');
      await posts.setReaction(first.id, a.id, 'like', '2026-01-05 00:00:00');
      await posts.setReaction(first.id, b.id, 'sad', '2026-01-05 00:00:00');
      expect((await posts.findById(first.id))!.like_count).toBe(2);
      expect(await posts.reactionsOf(b.id, [first.id, second.id])).toEqual(new Map([[first.id, 'sad']]));
      await posts.setReaction(first.id, a.id, null, '2026-01-05 00:00:00');
      await posts.setReaction(first.id, a.id, null, '2026-01-05 00:00:00');
      expect((await posts.findById(first.id))!.like_count).toBe(1);

      const c1 = await posts.createComment({ post_id: first.id, user_id: b.id, content: 'hi', created_at: '2026-01-06 00:00:00' });
      const c2 = await posts.createComment({ post_id: first.id, user_id: a.id, content: 'hello', created_at: '2026-01-06 00:00:01' });
      expect(c1).toEqual({
        id: expect.any(Number),
        post_id: first.id,
        user_id: b.id,
        content: 'hi',
        reactions_count: 0,
        created_at: '2026-01-06 00:00:00',
        updated_at: null,
      });
      expect((await posts.findById(first.id))!.comment_count).toBe(2);
      expect((await posts.comments(first.id, page())).items.map((c) => c.id)).toEqual([c1.id, c2.id]);
      await posts.updateComment(c1.id, 'edited', '2026-01-07 00:00:00');
      expect(await posts.findComment(c1.id)).toMatchObject({ content: 'edited', updated_at: '2026-01-07 00:00:00' });

      await posts.lockComment(c1.id);
      await posts.adjustCommentReactions(c1.id, 1);
      await posts.adjustCommentReactions(c1.id, 1);
      await posts.adjustCommentReactions(c1.id, -1);
      expect((await posts.findComment(c1.id))!.reactions_count).toBe(1);
      expect((await posts.findComment(c2.id))!.reactions_count).toBe(0);
      await reactToComment(c1.id, a.id);
      expect(await posts.commentsReactedBy(a.id, [c1.id, c2.id])).toEqual(new Set([c1.id]));
      expect(await posts.commentsReactedBy(b.id, [c1.id, c2.id])).toEqual(new Set());

      expect(await posts.deleteComment(c1.id)).toBe(true);
      expect(await posts.deleteComment(c1.id)).toBe(false);
      expect(await posts.commentsReactedBy(a.id, [c1.id])).toEqual(new Set());
      expect((await posts.findById(first.id))!.comment_count).toBe(1);

      await reactToComment(c2.id, b.id);
      expect(await posts.commentsReactedBy(b.id, [c2.id])).toEqual(new Set([c2.id]));
      await posts.delete(first.id);
      expect(await posts.findById(first.id)).toBeNull();
      expect(await posts.findComment(c2.id)).toBeNull();
      expect(await posts.commentsReactedBy(b.id, [c2.id])).toEqual(new Set());
      expect(await posts.reactionsOf(b.id, [first.id])).toEqual(new Map());
      expect((await posts.list(p.id, page())).total).toBe(1);
    });
  });
}
