import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { NotificationService } from '../notifications/notification-service.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { SuggestionCommentRecord, SuggestionRecord } from './model.js';
import type { FeatureSuggestionRepository } from './ports.js';
import {
  ADMIN_RESPONSE_MAX,
  SUGGESTION_COMMENT_MAX,
  SUGGESTION_COMMENT_MIN,
  SUGGESTION_DESCRIPTION_MAX,
  SUGGESTION_DESCRIPTION_MIN,
  SUGGESTION_STATUSES,
  SUGGESTION_TITLE_MAX,
  SUGGESTION_TITLE_MIN,
  type SuggestionFilter,
  type SuggestionStatus,
  type SuggestionVote,
} from './rules.js';
import { userMap } from '../accounts/user-map.js';

export interface SuggestionView {
  suggestion: SuggestionRecord;
  author: UserRecord | null;
  my_vote: SuggestionVote | null;
}

export interface SuggestionCommentView {
  comment: SuggestionCommentRecord;
  author: UserRecord | null;
}

export type SuggestionStats = Record<SuggestionStatus, number> & { total: number };

function checkLength(field: string, value: string, min: number, max: number): string {
  const text = value.trim();
  if (text.length < min) throw Invalid.field(field, `must be at least ${min} characters`, 'too_short');
  if (text.length > max) throw Invalid.field(field, `must be at most ${max} characters`, 'too_long');
  return text;
}

/**
 * The product ideas board. Members propose, vote (1 or -1: the same vote again withdraws it, the other
 * replaces it) and comment; moderators and admins set the status with an answer; the author, a
 * moderator or an admin deletes. A vote moves the counters under the suggestion's lock, in one unit.
 */
export class FeatureSuggestionService {
  constructor(
    private readonly suggestions: FeatureSuggestionRepository,
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async list(actor: Actor, filter: SuggestionFilter | null, page: PageRequest): Promise<{ items: SuggestionView[]; meta: PageMeta }> {
    const { items, total } = await this.suggestions.list(filter, page);
    return { items: await this.views(actor, items), meta: pageMeta(page, total) };
  }

  /** The suggestion and a page of its comments, oldest first. */
  async detail(
    actor: Actor,
    id: number,
    page: PageRequest,
  ): Promise<{ suggestion: SuggestionView; comments: SuggestionCommentView[]; meta: PageMeta }> {
    const suggestion = await this.found(id);
    const { items, total } = await this.suggestions.comments(id, page);
    const users = await userMap(
      this.users,
      items.map((c) => c.user_id),
    );
    return {
      suggestion: (await this.views(actor, [suggestion]))[0],
      comments: items.map((c) => ({ comment: c, author: users.get(c.user_id) ?? null })),
      meta: pageMeta(page, total),
    };
  }

  async stats(): Promise<SuggestionStats> {
    const counts = await this.suggestions.countByStatus();
    return { ...counts, total: SUGGESTION_STATUSES.reduce((sum, s) => sum + counts[s], 0) };
  }

  async create(actor: Actor, input: { title: string; description: string }): Promise<SuggestionView> {
    const title = checkLength('title', input.title, SUGGESTION_TITLE_MIN, SUGGESTION_TITLE_MAX);
    const description = checkLength('description', input.description, SUGGESTION_DESCRIPTION_MIN, SUGGESTION_DESCRIPTION_MAX);
    const created = await this.suggestions.create({ user_id: actor.userId, title, description, created_at: toTimestamp(this.clock.now()) });
    return (await this.views(actor, [created]))[0];
  }

  async vote(actor: Actor, id: number, vote: SuggestionVote): Promise<SuggestionView> {
    if (vote !== 1 && vote !== -1) throw Invalid.field('vote', 'must be 1 or -1', 'invalid_vote');
    await this.uow.run(async () => {
      await this.suggestions.lock(id);
      await this.found(id);
      const mine = (await this.suggestions.votesOf(actor.userId, [id])).get(id) ?? null;
      await this.suggestions.setVote(id, actor.userId, mine === vote ? null : vote, toTimestamp(this.clock.now()));
    });
    return (await this.views(actor, [await this.found(id)]))[0];
  }

  async comment(actor: Actor, id: number, content: string): Promise<SuggestionCommentView> {
    const text = checkLength('content', content, SUGGESTION_COMMENT_MIN, SUGGESTION_COMMENT_MAX);
    return this.uow.run(async () => {
      await this.suggestions.lock(id);
      await this.found(id);
      const comment = await this.suggestions.addComment({
        suggestion_id: id,
        user_id: actor.userId,
        content: text,
        created_at: toTimestamp(this.clock.now()),
      });
      return { comment, author: await this.users.findById(actor.userId) };
    });
  }

  async updateStatus(actor: Actor, id: number, input: { status: string; admin_response?: string | null }): Promise<SuggestionView> {
    if (!canModerate(actor)) throw new Forbidden('Only moderators and admins set the status of a suggestion', 'not_moderator');
    if (!(SUGGESTION_STATUSES as readonly string[]).includes(input.status))
      throw Invalid.field('status', `must be one of ${SUGGESTION_STATUSES.join(', ')}`, 'invalid_status');
    const response = (input.admin_response ?? '').trim();
    if (response.length > ADMIN_RESPONSE_MAX) throw Invalid.field('admin_response', `must be at most ${ADMIN_RESPONSE_MAX} characters`);
    const status = input.status as SuggestionStatus;
    const updated = await this.uow.run(async () => {
      await this.suggestions.lock(id);
      const before = await this.found(id);
      await this.suggestions.setStatus(id, status, response || null, toTimestamp(this.clock.now()));
      if (before.status !== status) {
        const text = `Your suggestion "${before.title}" is now ${status.replace('_', ' ')}`;
        await this.notifications.raise(
          { user_id: before.user_id, from_user_id: actor.userId, type: 'suggestion_status', content: text },
          { title: 'Suggestion', body: text },
        );
      }
      return this.found(id);
    });
    return (await this.views(actor, [updated]))[0];
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const suggestion = await this.found(id);
    if (suggestion.user_id !== actor.userId && !canModerate(actor))
      throw new Forbidden('Only its author, a moderator or an admin can delete a suggestion', 'not_author');
    if (!(await this.suggestions.delete(id))) throw new NotFound('Suggestion not found', 'suggestion_not_found');
  }

  private async found(id: number): Promise<SuggestionRecord> {
    const s = await this.suggestions.findById(id);
    if (!s) throw new NotFound('Suggestion not found', 'suggestion_not_found');
    return s;
  }

  private async views(actor: Actor, items: SuggestionRecord[]): Promise<SuggestionView[]> {
    if (items.length === 0) return [];
    const users = await userMap(
      this.users,
      items.map((s) => s.user_id),
    );
    const mine = await this.suggestions.votesOf(
      actor.userId,
      items.map((s) => s.id),
    );
    return items.map((s) => ({ suggestion: s, author: users.get(s.user_id) ?? null, my_vote: mine.get(s.id) ?? null }));
  }
}
