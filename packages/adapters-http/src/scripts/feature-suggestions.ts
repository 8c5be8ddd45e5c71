import { pageRequest } from '@plaza/domain';
import {
  ADMIN_RESPONSE_MAX,
  SUGGESTION_COMMENT_MAX,
  SUGGESTION_DESCRIPTION_MAX,
  SUGGESTION_STATUSES,
  SUGGESTION_TITLE_MAX,
  type FeatureSuggestionService,
} from '@plaza/domain/moderation';
import { z } from 'zod';
import { paginationQuery, zId, zPage, zPerPage } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { presentSuggestion, presentSuggestionComment, SuggestionCommentItem, SuggestionItem } from '../presenters/feature-suggestion.js';
import { PageMetaWire, zCount } from '../presenters/wire.js';

/** The app sends 1 or -1 as JSON numbers; their string forms are taken too. */
export const zVote = z
  .union([z.literal(1), z.literal(-1), z.literal('1'), z.literal('-1')])
  .transform((v) => (Number(v) === 1 ? 1 : -1) as 1 | -1);

/** The longest text accepted; the domain checks the contract's minimums, after trimming. */
const text = (max: number) => z.string().max(max);

const Stats = z.object({ total: zCount, pending: zCount, planned: zCount, in_progress: zCount, done: zCount, rejected: zCount });

/** Comments of the detail: the app reads them all at once, so a page holds up to 100 unless asked otherwise. */
const DETAIL_COMMENTS = 100;

/** Also the library's check (docs/decisions/0113). */
export const listQuery = z.object({ filter: z.enum(['popular', 'recent', 'planned', 'done', '']).optional(), ...paginationQuery });
export const suggestionBody = z.object({ title: text(SUGGESTION_TITLE_MAX), description: text(SUGGESTION_DESCRIPTION_MAX) });
export const suggestionVoteBody = z.object({ suggestion_id: zId, vote: zVote });
export const suggestionCommentBody = z.object({ suggestion_id: zId, content: text(SUGGESTION_COMMENT_MAX) });
export const statusBody = z.object({
  suggestion_id: zId,
  status: z.enum(SUGGESTION_STATUSES),
  admin_response: text(ADMIN_RESPONSE_MAX).optional().nullable(),
});

export function featureSuggestionsScript(suggestions: FeatureSuggestionService, p: PresenterContext): Script {
  return {
    name: 'feature_suggestions',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: listQuery,
        summary: 'Suggestions: filter=popular (by score), recent (the default), planned (with in progress) or done',
        response: z.object({ suggestions: z.array(SuggestionItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const r = await suggestions.list(ctx.actor, ctx.query.filter || null, pageRequest(ctx.query.page, ctx.query.per_page));
          return { suggestions: r.items.map((v) => presentSuggestion(v, p)), meta: r.meta };
        },
      }),
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId, page: zPage, per_page: zPerPage }),
        summary: 'One suggestion with its comments, oldest first (up to 100 per page)',
        response: z.object({ suggestion: SuggestionItem, comments: z.array(SuggestionCommentItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const r = await suggestions.detail(ctx.actor, ctx.query.id, pageRequest(ctx.query.page, ctx.query.per_page ?? DETAIL_COMMENTS));
          return {
            suggestion: presentSuggestion(r.suggestion, p),
            comments: r.comments.map((c) => presentSuggestionComment(c, p)),
            meta: r.meta,
          };
        },
      }),
      op({
        method: 'GET',
        select: { action: 'stats' },
        auth: 'required',
        summary: 'How many suggestions have each status, and in all',
        response: z.object({ stats: Stats }),
        handle: async () => ({ stats: await suggestions.stats() }),
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: suggestionBody,
        summary: 'Suggest a feature (title at least 5 characters, description at least 20)',
        response: z.object({ message: z.string(), suggestion: SuggestionItem }),
        handle: async (ctx) => ({
          message: 'Suggestion created',
          suggestion: presentSuggestion(await suggestions.create(ctx.actor, ctx.body), p),
        }),
      }),
      op({
        method: 'POST',
        select: { action: 'vote' },
        auth: 'required',
        body: suggestionVoteBody,
        summary: 'Vote 1 or -1: the same vote again withdraws it, the other replaces it; answers the updated suggestion',
        response: z.object({ message: z.string(), suggestion: SuggestionItem }),
        handle: async (ctx) => {
          const view = await suggestions.vote(ctx.actor, ctx.body.suggestion_id, ctx.body.vote);
          return { message: view.my_vote === null ? 'Vote withdrawn' : 'Vote recorded', suggestion: presentSuggestion(view, p) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'comment' },
        auth: 'required',
        body: suggestionCommentBody,
        summary: 'Comment on a suggestion (at least 3 characters)',
        response: z.object({ message: z.string(), comment: SuggestionCommentItem }),
        handle: async (ctx) => ({
          message: 'Comment added',
          comment: presentSuggestionComment(await suggestions.comment(ctx.actor, ctx.body.suggestion_id, ctx.body.content), p),
        }),
      }),
      op({
        method: 'POST',
        select: { action: 'update_status' },
        auth: 'required',
        body: statusBody,
        summary: 'Moderators and admins: set the status (pending, planned, in_progress, done, rejected) with an answer',
        response: z.object({ message: z.string(), suggestion: SuggestionItem }),
        handle: async (ctx) => ({
          message: 'Status updated',
          suggestion: presentSuggestion(await suggestions.updateStatus(ctx.actor, ctx.body.suggestion_id, ctx.body), p),
        }),
      }),
      op({
        method: 'DELETE',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Delete a suggestion: its author, a moderator or an admin',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          await suggestions.delete(ctx.actor, ctx.query.id);
          return { message: 'Suggestion deleted' };
        },
      }),
    ],
  };
}
