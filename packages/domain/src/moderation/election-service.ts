import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { NotificationService } from '../notifications/notification-service.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { fromTimestamp, toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { CandidacyRecord, ModerationActionRecord } from './model.js';
import type { CandidacyRepository, ModerationLog, ModeratorRoster } from './ports.js';
import { CANDIDATE_VOTES, MOTIVATION_MAX, type CandidateVote, type ModerationRules } from './rules.js';
import { userMap } from '../accounts/user-map.js';

/** A candidate, or a moderator with the mandate they were elected with (none for admins and appointed moderators). */
export interface CandidateView {
  user: UserRecord;
  candidacy: CandidacyRecord | null;
  my_vote: CandidateVote | null;
}

export interface ActionView {
  action: ModerationActionRecord;
  moderator: UserRecord | null;
  target: UserRecord | null;
}

export interface VoteOutcome {
  candidate: CandidateView;
  /** This vote elected the candidate. */
  elected: boolean;
  /** This vote revoked the moderator. */
  revoked: boolean;
  /** This vote turned the candidacy down. */
  rejected: boolean;
}

const DAY_MS = 86_400_000;

/**
 * Elected moderators (docs/decisions/0012). A member applies with a motivation; members vote `for` or
 * `against` (one vote each, which they may change); a candidate with `electionVotes` votes for, more
 * than against, is elected; a moderator with `recallVotes` votes against, more than for, is revoked (a
 * candidate so opposed is turned down). Election and revocation set the account's moderator flag in the
 * same unit of work as the vote, under the candidate's lock, so one vote decides and it decides once.
 */
export class ElectionService {
  constructor(
    private readonly candidacies: CandidacyRepository,
    private readonly roster: ModeratorRoster,
    private readonly log: ModerationLog,
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly rules: ModerationRules,
  ) {}

  async apply(actor: Actor, motivation: string): Promise<CandidateView> {
    const text = motivation.trim();
    if (text === '') throw Invalid.field('motivation', 'tell the members why you apply', 'motivation_required');
    if (text.length > MOTIVATION_MAX) throw Invalid.field('motivation', `must be at most ${MOTIVATION_MAX} characters`);
    // The app matches these two messages (contract §26).
    if (canModerate(actor)) throw new Conflict('Already a moderator', 'already_moderator');
    const candidacy = await this.candidacies.create(actor.userId, text, toTimestamp(this.clock.now()));
    if (!candidacy) {
      const open = await this.candidacies.findOpen(actor.userId);
      throw open?.status === 'elected'
        ? new Conflict('Already a moderator', 'already_moderator')
        : new Conflict('Already a candidate', 'already_candidate');
    }
    const user = await this.users.findById(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    return { user, candidacy, my_vote: null };
  }

  /** DELETE moderators.php: a candidate withdraws; an elected moderator steps down. */
  async withdraw(actor: Actor): Promise<{ status: 'withdrawn' | 'resigned' }> {
    return this.uow.run(async () => {
      await this.candidacies.lockCandidate(actor.userId);
      const open = await this.candidacies.findOpen(actor.userId);
      if (!open) throw new NotFound('You are not a candidate', 'not_candidate');
      const now = toTimestamp(this.clock.now());
      if (open.status === 'candidate') {
        await this.candidacies.close(open.id, 'withdrawn', now);
        return { status: 'withdrawn' as const };
      }
      await this.candidacies.close(open.id, 'resigned', now);
      await this.roster.setModerator(actor.userId, false);
      return { status: 'resigned' as const };
    });
  }

  async vote(actor: Actor, candidateId: number, vote: CandidateVote): Promise<VoteOutcome> {
    if (!(CANDIDATE_VOTES as readonly string[]).includes(vote)) throw Invalid.field('vote', 'must be for or against', 'invalid_vote');
    if (candidateId === actor.userId) throw Invalid.field('candidate_id', 'you cannot vote on yourself', 'cannot_vote_self');
    // Unknown first: whoever asks, a member who is not running is a 404 (the unit checks again under the lock).
    if (!(await this.candidacies.findOpen(candidateId)))
      throw new NotFound('This member is neither a candidate nor an elected moderator', 'not_candidate');
    const voter = await this.users.findById(actor.userId);
    if (!voter) throw new NotFound('User not found', 'user_not_found');
    const ageDays = (this.clock.now().getTime() - fromTimestamp(voter.created_at).getTime()) / DAY_MS;
    if (ageDays < this.rules.voterMinAccountDays) {
      throw new Forbidden(`Accounts younger than ${this.rules.voterMinAccountDays} days do not vote in elections`, 'account_too_new');
    }
    const outcome = await this.uow.run(async () => {
      await this.candidacies.lockCandidate(candidateId);
      const open = await this.candidacies.findOpen(candidateId);
      if (!open) throw new NotFound('This member is neither a candidate nor an elected moderator', 'not_candidate');
      const now = toTimestamp(this.clock.now());
      await this.candidacies.setVote(open.id, actor.userId, vote, now);
      const c = (await this.candidacies.findOpen(candidateId))!;
      const result = { elected: false, revoked: false, rejected: false };
      const opposed = c.votes_against >= this.rules.recallVotes && c.votes_against > c.votes_for;
      if (c.status === 'candidate' && c.votes_for >= this.rules.electionVotes && c.votes_for > c.votes_against) {
        result.elected = await this.candidacies.elect(c.id, now);
        await this.roster.setModerator(candidateId, true);
        await this.tell(candidateId, 'moderator_elected', 'The members elected you moderator');
      } else if (c.status === 'candidate' && opposed) {
        result.rejected = await this.candidacies.close(c.id, 'rejected', now);
      } else if (c.status === 'elected' && opposed) {
        result.revoked = await this.candidacies.close(c.id, 'revoked', now);
        await this.roster.setModerator(candidateId, false);
        await this.tell(candidateId, 'moderator_revoked', 'The members revoked your moderator mandate');
      }
      return result;
    });
    return { ...outcome, candidate: await this.candidateView(actor, candidateId) };
  }

  async candidates(actor: Actor, page: PageRequest): Promise<{ items: CandidateView[]; meta: PageMeta }> {
    const { items, total } = await this.candidacies.candidates(page);
    const users = await userMap(
      this.users,
      items.map((c) => c.user_id),
    );
    const mine = await this.candidacies.votesOf(
      actor.userId,
      items.map((c) => c.id),
    );
    return {
      items: items.flatMap((c) =>
        users.has(c.user_id) ? [{ user: users.get(c.user_id)!, candidacy: c, my_vote: mine.get(c.id) ?? null }] : [],
      ),
      meta: pageMeta(page, total),
    };
  }

  /** Everyone `isModerator` holds for, with their mandate when they were elected. */
  async moderators(actor: Actor, page: PageRequest): Promise<{ items: CandidateView[]; meta: PageMeta }> {
    const { ids, total } = await this.roster.moderatorIds(page);
    const users = await userMap(this.users, ids);
    const mandates = new Map((ids.length ? await this.candidacies.findOpenOf(ids) : []).map((c) => [c.user_id, c]));
    const mine = await this.candidacies.votesOf(
      actor.userId,
      [...mandates.values()].map((c) => c.id),
    );
    return {
      items: ids.flatMap((id) => {
        const user = users.get(id);
        if (!user) return [];
        const candidacy = mandates.get(id) ?? null;
        return [{ user, candidacy, my_vote: candidacy ? (mine.get(candidacy.id) ?? null) : null }];
      }),
      meta: pageMeta(page, total),
    };
  }

  async actions(_actor: Actor, page: PageRequest): Promise<{ items: ActionView[]; meta: PageMeta }> {
    const { items, total } = await this.log.list(page);
    const users = await userMap(
      this.users,
      items.flatMap((a) => [a.moderator_id, a.target_user_id]),
    );
    return {
      items: items.map((a) => ({ action: a, moderator: users.get(a.moderator_id) ?? null, target: users.get(a.target_user_id) ?? null })),
      meta: pageMeta(page, total),
    };
  }

  private async candidateView(actor: Actor, userId: number): Promise<CandidateView> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    // After a revocation or a rejection the candidacy is closed: the answer shows the account without one.
    const candidacy = await this.candidacies.findOpen(userId);
    const mine = candidacy ? await this.candidacies.votesOf(actor.userId, [candidacy.id]) : new Map<number, CandidateVote>();
    return { user, candidacy, my_vote: candidacy ? (mine.get(candidacy.id) ?? null) : null };
  }

  private async tell(userId: number, type: 'moderator_elected' | 'moderator_revoked', text: string): Promise<void> {
    await this.notifications.raise({ user_id: userId, from_user_id: null, type, content: text }, { title: 'Moderation', body: text });
  }
}
