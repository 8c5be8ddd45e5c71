import { describe, expect, it } from 'vitest';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageRequest } from '../shared/pagination.js';
import { moderationWorld } from './testing/world.js';

const page = pageRequest();
const idea = { title: 'Dark mode', description: 'A dark theme for reading at night' };

describe('FeatureSuggestionService', () => {
  it('creates with the contract’s minimum lengths and refuses shorter, changing nothing', async () => {
    const w = moderationWorld();
    const me = await w.actor();
    await expect(w.suggestions.create(me, { title: 'Dark', description: idea.description })).rejects.toMatchObject({
      code: 'too_short',
      details: [{ field: 'title' }],
    });
    await expect(w.suggestions.create(me, { title: idea.title, description: 'too short text' })).rejects.toBeInstanceOf(Invalid);
    expect(w.suggestionRepo.rows).toEqual([]);
    const view = await w.suggestions.create(me, { title: '  Dark mode ', description: idea.description });
    expect(view).toMatchObject({
      suggestion: { title: 'Dark mode', status: 'pending', score: 0 },
      author: { id: me.userId },
      my_vote: null,
    });
  });

  it('toggles a vote given twice and replaces it by the opposite one', async () => {
    const w = moderationWorld();
    const [me, you] = [await w.actor(), await w.actor()];
    const s = (await w.suggestions.create(me, idea)).suggestion;
    expect(await w.suggestions.vote(me, s.id, 1)).toMatchObject({ my_vote: 1, suggestion: { votes_up: 1, votes_down: 0, score: 1 } });
    expect(await w.suggestions.vote(me, s.id, 1)).toMatchObject({ my_vote: null, suggestion: { votes_up: 0, score: 0 } });
    await w.suggestions.vote(you, s.id, 1);
    expect(await w.suggestions.vote(me, s.id, -1)).toMatchObject({ my_vote: -1, suggestion: { votes_up: 1, votes_down: 1, score: 0 } });
    expect(await w.suggestions.vote(me, s.id, 1)).toMatchObject({ my_vote: 1, suggestion: { votes_up: 2, votes_down: 0, score: 2 } });
    await expect(w.suggestions.vote(me, s.id, 2 as never)).rejects.toMatchObject({ code: 'invalid_vote' });
    await expect(w.suggestions.vote(me, 999, 1)).rejects.toBeInstanceOf(NotFound);
  });

  it('filters popular by score, recent by date, planned with in progress, and done; counts per status', async () => {
    const w = moderationWorld();
    const [me, mod] = [await w.actor(), await w.actor({ moderator: true })];
    const a = (await w.suggestions.create(me, { ...idea, title: 'First idea' })).suggestion;
    const b = (await w.suggestions.create(me, { ...idea, title: 'Second idea' })).suggestion;
    const c = (await w.suggestions.create(me, { ...idea, title: 'Third idea' })).suggestion;
    await w.suggestions.vote(mod, a.id, 1);
    await w.suggestions.vote(mod, c.id, -1);
    const ids = async (filter: Parameters<typeof w.suggestions.list>[1]) =>
      (await w.suggestions.list(me, filter, page)).items.map((v) => v.suggestion.id);
    expect(await ids('popular')).toEqual([a.id, b.id, c.id]);
    expect(await ids('recent')).toEqual([c.id, b.id, a.id]);
    await w.suggestions.updateStatus(mod, a.id, { status: 'in_progress' });
    await w.suggestions.updateStatus(mod, b.id, { status: 'planned', admin_response: 'Soon' });
    await w.suggestions.updateStatus(mod, c.id, { status: 'done' });
    expect(await ids('planned')).toEqual([a.id, b.id]);
    expect(await ids('done')).toEqual([c.id]);
    expect(await w.suggestions.stats()).toEqual({ total: 3, pending: 0, planned: 1, in_progress: 1, done: 1, rejected: 0 });
  });

  it('lets only moderators and admins set the status, with an answer, and tells the author', async () => {
    const w = moderationWorld();
    const [me, other, admin] = [await w.actor(), await w.actor(), await w.actor({ admin: true })];
    const s = (await w.suggestions.create(me, idea)).suggestion;
    await expect(w.suggestions.updateStatus(other, s.id, { status: 'planned' })).rejects.toMatchObject({ code: 'not_moderator' });
    await expect(w.suggestions.updateStatus(admin, s.id, { status: 'someday' })).rejects.toMatchObject({ code: 'invalid_status' });
    expect((await w.suggestionRepo.findById(s.id))?.status).toBe('pending');
    w.clock.advance(60_000);
    const view = await w.suggestions.updateStatus(admin, s.id, { status: 'rejected', admin_response: ' Out of scope ' });
    expect(view.suggestion).toMatchObject({ status: 'rejected', admin_response: 'Out of scope', updated_at: '2026-06-01 12:01:00' });
    expect(w.notes.rows).toEqual([expect.objectContaining({ user_id: me.userId, type: 'suggestion_status' })]);
  });

  it('comments and shows them with the detail, oldest first', async () => {
    const w = moderationWorld();
    const [me, you] = [await w.actor(), await w.actor()];
    const s = (await w.suggestions.create(me, idea)).suggestion;
    await expect(w.suggestions.comment(you, s.id, 'ok')).rejects.toBeInstanceOf(Invalid);
    await w.suggestions.comment(you, s.id, 'Yes please');
    await w.suggestions.comment(me, s.id, 'Thanks!');
    await expect(w.suggestions.comment(me, 999, 'Hello there')).rejects.toBeInstanceOf(NotFound);
    const detail = await w.suggestions.detail(me, s.id, page);
    expect(detail.suggestion.suggestion.comment_count).toBe(2);
    expect(detail.comments.map((c) => [c.comment.content, c.author?.id])).toEqual([
      ['Yes please', you.userId],
      ['Thanks!', me.userId],
    ]);
  });

  it('deletes for the author, a moderator or an admin only', async () => {
    const w = moderationWorld();
    const [me, other, mod] = [await w.actor(), await w.actor(), await w.actor({ moderator: true })];
    const s1 = (await w.suggestions.create(me, idea)).suggestion;
    const s2 = (await w.suggestions.create(me, idea)).suggestion;
    await expect(w.suggestions.delete(other, s1.id)).rejects.toBeInstanceOf(Forbidden);
    await w.suggestions.delete(me, s1.id);
    await w.suggestions.delete(mod, s2.id);
    expect(w.suggestionRepo.rows).toEqual([]);
    await expect(w.suggestions.delete(me, s1.id)).rejects.toBeInstanceOf(NotFound);
  });
});
