import { describe, expect, it } from 'vitest';
import { Invalid, NotFound } from '../shared/errors.js';
import { pageRequest } from '../shared/pagination.js';
import { moderationWorld } from './testing/world.js';

const page = pageRequest();

describe('ElectionService', () => {
  it('takes one candidacy per member, with a motivation, and not from moderators', async () => {
    const w = moderationWorld();
    const [cand, mod, admin] = [await w.actor(), await w.actor({ moderator: true }), await w.actor({ admin: true })];
    await expect(w.elections.apply(cand, '   ')).rejects.toBeInstanceOf(Invalid);
    const view = await w.elections.apply(cand, '  I read every report  ');
    expect(view).toMatchObject({
      user: { id: cand.userId },
      candidacy: { motivation: 'I read every report', status: 'candidate' },
      my_vote: null,
    });
    await expect(w.elections.apply(cand, 'again')).rejects.toMatchObject({ code: 'already_candidate', message: 'Already a candidate' });
    await expect(w.elections.apply(mod, 'me')).rejects.toMatchObject({ code: 'already_moderator', message: 'Already a moderator' });
    await expect(w.elections.apply(admin, 'me')).rejects.toMatchObject({ code: 'already_moderator' });
    expect(w.candidacies.rows).toHaveLength(1);
  });

  it('elects at the threshold of votes for, once, and sets the role and tells the candidate', async () => {
    const w = moderationWorld({ electionVotes: 3 });
    const cand = await w.actor();
    await w.elections.apply(cand, 'pick me');
    const voters = [await w.actor(), await w.actor(), await w.actor(), await w.actor()];
    expect(await w.elections.vote(voters[0], cand.userId, 'for')).toMatchObject({
      elected: false,
      revoked: false,
      candidate: { my_vote: 'for', candidacy: { votes_for: 1 } },
    });
    await w.elections.vote(voters[1], cand.userId, 'against');
    await w.elections.vote(voters[1], cand.userId, 'for'); // changed: the vote is replaced, not added
    expect(await w.candidacies.findOpen(cand.userId)).toMatchObject({ votes_for: 2, votes_against: 0 });
    const deciding = await w.elections.vote(voters[2], cand.userId, 'for');
    expect(deciding).toMatchObject({ elected: true, revoked: false, candidate: { candidacy: { status: 'elected' } } });
    expect((await w.users.findById(cand.userId))?.is_moderator).toBe(true);
    expect((await w.elections.vote(voters[3], cand.userId, 'for')).elected).toBe(false);
    expect(w.notes.rows.filter((n) => n.type === 'moderator_elected')).toEqual([expect.objectContaining({ user_id: cand.userId })]);

    const moderators = await w.elections.moderators(voters[0], page);
    expect(moderators.items).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: cand.userId }), my_vote: 'for' })]);
    expect((await w.elections.candidates(voters[0], page)).items).toEqual([]);
    await expect(w.elections.apply(await w.again(cand), 'again')).rejects.toMatchObject({ code: 'already_moderator' });
  });

  it('revokes a moderator once the votes against reach the threshold and outnumber the votes for', async () => {
    const w = moderationWorld({ electionVotes: 1, recallVotes: 2 });
    const cand = await w.actor();
    await w.elections.apply(cand, 'pick me');
    const [fan, x, y, z] = [await w.actor(), await w.actor(), await w.actor(), await w.actor()];
    expect((await w.elections.vote(fan, cand.userId, 'for')).elected).toBe(true);
    await w.elections.vote(x, cand.userId, 'against');
    // Two against one, at the threshold of two: revoked.
    const deciding = await w.elections.vote(y, cand.userId, 'against');
    expect(deciding).toMatchObject({ elected: false, revoked: true, candidate: { candidacy: null, my_vote: null } });
    expect((await w.users.findById(cand.userId))?.is_moderator).toBe(false);
    await expect(w.elections.vote(z, cand.userId, 'against')).rejects.toMatchObject({ code: 'not_candidate' });
    expect(w.notes.rows.filter((n) => n.type === 'moderator_revoked')).toHaveLength(1);
    // The member may run again, from zero votes.
    expect((await w.elections.apply(cand, 'second chance')).candidacy).toMatchObject({ votes_for: 0, votes_against: 0 });
  });

  it('turns down a candidacy the members oppose', async () => {
    const w = moderationWorld({ electionVotes: 5, recallVotes: 2 });
    const cand = await w.actor();
    await w.elections.apply(cand, 'pick me');
    await w.elections.vote(await w.actor(), cand.userId, 'against');
    expect((await w.elections.vote(await w.actor(), cand.userId, 'against')).rejected).toBe(true);
    expect(await w.candidacies.findOpen(cand.userId)).toBeNull();
  });

  it('refuses self votes, new accounts and unknown candidates, changing nothing', async () => {
    const w = moderationWorld({ voterMinAccountDays: 7 });
    const cand = await w.actor();
    await w.elections.apply(cand, 'pick me');
    await expect(w.elections.vote(cand, cand.userId, 'for')).rejects.toMatchObject({ code: 'cannot_vote_self' });
    const fresh = await w.actor({ createdAt: '2026-05-30 12:00:00' });
    await expect(w.elections.vote(fresh, cand.userId, 'for')).rejects.toMatchObject({ kind: 'forbidden', code: 'account_too_new' });
    await expect(w.elections.vote(await w.actor(), 999, 'for')).rejects.toBeInstanceOf(NotFound);
    await expect(w.elections.vote(await w.actor(), cand.userId, 'maybe' as never)).rejects.toMatchObject({ code: 'invalid_vote' });
    expect(w.candidacies.votes).toEqual([]);
  });

  it('withdraws a candidacy, or steps a moderator down', async () => {
    const w = moderationWorld({ electionVotes: 1 });
    const [cand, other] = [await w.actor(), await w.actor()];
    await expect(w.elections.withdraw(cand)).rejects.toMatchObject({ code: 'not_candidate' });
    await w.elections.apply(cand, 'pick me');
    expect(await w.elections.withdraw(cand)).toEqual({ status: 'withdrawn' });
    await w.elections.apply(cand, 'pick me after all');
    await w.elections.vote(other, cand.userId, 'for');
    expect(await w.elections.withdraw(await w.again(cand))).toEqual({ status: 'resigned' });
    expect((await w.users.findById(cand.userId))?.is_moderator).toBe(false);
  });

  it('lists candidates with my vote, moderators (admins included) and the action log', async () => {
    const w = moderationWorld();
    const [a, b, me, admin] = [await w.actor(), await w.actor(), await w.actor(), await w.actor({ admin: true })];
    await w.elections.apply(a, 'a');
    await w.elections.apply(b, 'b');
    await w.elections.vote(me, a.userId, 'against');
    const candidates = await w.elections.candidates(me, page);
    expect(candidates.items.map((c) => [c.user.id, c.my_vote])).toEqual([
      [b.userId, null],
      [a.userId, 'against'],
    ]);
    expect((await w.elections.moderators(me, page)).items).toEqual([
      { user: expect.objectContaining({ id: admin.userId }), candidacy: null, my_vote: null },
    ]);
    const author = await w.actor();
    const post = (await w.posts.create(author, { content: 'x' })).post;
    const { report } = await w.reportService.create(me, { post_id: post.id, reason: 'spam' });
    await w.reportService.act(admin, report.id, 'delete_post');
    const actions = await w.elections.actions(me, page);
    expect(actions.items).toEqual([
      expect.objectContaining({
        action: expect.objectContaining({ action_type: 'delete_post' }),
        moderator: expect.objectContaining({ id: admin.userId }),
        target: expect.objectContaining({ id: author.userId }),
      }),
    ]);
  });
});
