import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { PageCommentTarget } from './page-comment-target.js';
import { PagePostService } from './page-post-service.js';
import { PageService } from './page-service.js';
import { canSeePage, pageAllows } from './rules.js';
import { InMemoryPagePostRepository, InMemoryPageRepository } from './testing/in-memory-pages.js';

const page = { page: 1, perPage: 20 };

function setup() {
  const users = new InMemoryUserRepository();
  const pageRepo = new InMemoryPageRepository();
  const postRepo = new InMemoryPagePostRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const uow = new InMemoryUnitOfWork(users, pageRepo, postRepo);
  const uploaded = new InMemoryUploads();
  const media = uploaded.references;
  const pages = new PageService(pageRepo, users, clock, uow, media);
  const posts = new PagePostService(pages, postRepo, users, clock, uow, media);
  const actor = async (flags: Partial<Actor> = {}): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false, ...flags };
  };
  return { users, pageRepo, postRepo, pages, posts, actor, uploaded };
}

describe('page rules', () => {
  it('gives admins and editors what decision 0035 says', () => {
    expect(pageAllows('admin', 'publish') && pageAllows('editor', 'publish')).toBe(true);
    expect(pageAllows(null, 'publish')).toBe(false);
    expect(pageAllows('editor', 'manage') || pageAllows('editor', 'deleteAnyPost')).toBe(false);
    expect(pageAllows('editor', 'deleteAnyComment')).toBe(true);
    const viewer = { userId: 1, moderator: true };
    expect(canSeePage(viewer, { id: 1, privacy: 'public' }, null)).toBe(true);
    expect(canSeePage(viewer, { id: 1, privacy: 'private' }, null)).toBe(false);
    expect(canSeePage({ userId: 1, moderator: false }, { id: 1, privacy: 'private' }, 'editor')).toBe(true);
  });
});

describe('PageService and PagePostService on the fakes', () => {
  it('Errors 3 and 4: a post needs content or media, and a member of page_admins', async () => {
    const { pages, posts, actor, uploaded } = setup();
    const [admin, stranger] = [await actor(), await actor()];
    const p = await pages.create(admin, { name: 'Collectif' });
    await expect(posts.create(admin, { page_id: p.id, content: ' ', media: '' })).rejects.toMatchObject({ code: 'empty_post' });
    await expect(posts.create(stranger, { page_id: p.id, content: 'x' })).rejects.toBeInstanceOf(Forbidden);
    await expect(posts.create(admin, { page_id: p.id, media: 'media_a1.jpg' })).rejects.toMatchObject({ code: 'invalid_media' });
    await uploaded.place('uploads/posts/media_a1.mp4', admin.userId);
    const v = await posts.create(admin, { page_id: p.id, media: 'uploads/posts/media_a1.mp4' });
    expect(v.post).toMatchObject({ media: 'media_a1.mp4', media_type: 'video', content: '' });
  });

  it('keeps the last admin; editors do not run the team but may leave it', async () => {
    const { pages, pageRepo, actor, users } = setup();
    const [admin, editor] = [await actor(), await actor()];
    const p = await pages.create(admin, { name: 'Collectif' });
    await pages.addTeamMember(admin, p.id, (await users.findById(editor.userId))!.username, 'editor');
    await expect(pages.addTeamMember(editor, p.id, 'nobody', 'editor')).rejects.toBeInstanceOf(NotFound);
    await expect(pages.updateTeamRole(editor, p.id, editor.userId, 'admin')).rejects.toBeInstanceOf(Forbidden);
    await expect(pages.updateTeamRole(admin, p.id, admin.userId, 'editor')).rejects.toBeInstanceOf(Conflict);
    await expect(pages.removeTeamMember(admin, p.id, admin.userId)).rejects.toMatchObject({ code: 'last_admin' });
    expect(await pageRepo.countAdmins(p.id)).toBe(1);
    await pages.removeTeamMember(editor, p.id, editor.userId);
    expect((await pageRepo.team(p.id, page)).total).toBe(1);
  });

  it('hides a private page from everyone but its team, and reacts by toggling', async () => {
    const { pages, posts, actor } = setup();
    const [admin, fan, mod] = [await actor(), await actor(), await actor({ isModerator: true })];
    const p = await pages.create(admin, { name: 'Collectif' });
    const v = await posts.create(admin, { page_id: p.id, content: 'x' });
    expect(await posts.react(fan, v.post.id, 'love')).toEqual({ post_id: v.post.id, like_count: 1, user_reaction: 'love' });
    expect(await posts.react(fan, v.post.id, 'wow')).toEqual({ post_id: v.post.id, like_count: 1, user_reaction: 'wow' });
    expect(await posts.react(fan, v.post.id, 'wow')).toEqual({ post_id: v.post.id, like_count: 0, user_reaction: null });
    await pages.update(admin, p.id, { privacy: 'private' });
    for (const who of [fan, mod]) {
      await expect(pages.visiblePage(who, p.id)).rejects.toBeInstanceOf(NotFound);
      await expect(posts.list(who, p.id, page)).rejects.toBeInstanceOf(NotFound);
      await expect(posts.react(who, v.post.id, 'like')).rejects.toMatchObject({ code: 'post_not_found' });
    }
    expect((await posts.list(admin, p.id, page)).total).toBe(1);
  });

  it('serves comment_reactions.php: finds a page comment for those who see the page, with a link', async () => {
    const { pages, posts, postRepo, users, actor } = setup();
    const [admin, fan] = [await actor(), await actor()];
    const p = await pages.create(admin, { name: 'Collectif' });
    const v = await posts.create(admin, { page_id: p.id, content: 'x' });
    const c = await posts.comment(fan, v.post.id, 'hello');
    const target = new PageCommentTarget(pages, posts, postRepo, users);
    expect(await target.find(admin, c.comment.id)).toEqual({
      id: c.comment.id,
      user_id: fan.userId,
      notification: { post_id: null, group_id: null, link: `page_detail.php?id=${p.id}` },
    });
    expect(await target.find(admin, 999)).toBeNull();
    await target.counter.adjust(c.comment.id, 1);
    expect(await target.counter.read(c.comment.id)).toBe(1);
    await pages.update(admin, p.id, { privacy: 'private' });
    expect(await target.find(fan, c.comment.id)).toBeNull();
    expect(await target.canUserSee(fan.userId, (await target.find(admin, c.comment.id))!)).toBe(false);
    await expect(posts.comment(admin, v.post.id, '')).rejects.toBeInstanceOf(Invalid);
  });
});
