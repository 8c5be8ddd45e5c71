import { Conflict, Invalid, type Actor, pageRequest } from '@plaza/domain';
import { MOTIVATION_MAX, type CandidateVote, type ElectionService } from '@plaza/domain/moderation';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, refuse, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { ActionItem, CandidateItem, presentAction, presentCandidate } from '../presenters/moderation.js';
import { PageMetaWire } from '../presenters/wire.js';

const Applied = z.object({ message: z.string(), candidate: CandidateItem });
const Voted = z.object({
  message: z.string(),
  elected: z.boolean(),
  revoked: z.boolean(),
  rejected: z.boolean(),
  candidate: CandidateItem,
});
/**
 * "Already a moderator" / "Already a candidate" are answered as a 200 `success: false`: the app shows
 * the server's words only on a 2xx and matches these two (contract §26, docs/decisions/0012).
 */
const AlreadyRefusal = z.object({ error: z.string(), message: z.string(), code: z.enum(['already_moderator', 'already_candidate']) });

export const applyBody = z.object({ motivation: z.string().max(MOTIVATION_MAX) });
export const voteBody = z.object({ candidate_id: zId, vote: z.enum(['for', 'against']) });

const Lists = {
  candidates: z.object({ candidates: z.array(CandidateItem), meta: PageMetaWire }),
  moderators: z.object({ moderators: z.array(CandidateItem), meta: PageMetaWire }),
  actions: z.object({ actions: z.array(ActionItem), meta: PageMetaWire }),
  all: z.object({ candidates: z.array(CandidateItem), moderators: z.array(CandidateItem), actions: z.array(ActionItem) }),
};

export function moderatorsScript(elections: ElectionService, p: PresenterContext): Script {
  async function apply(actor: Actor, motivation: string) {
    try {
      const view = await elections.apply(actor, motivation);
      return { message: 'Candidacy registered: the members can now vote', candidate: presentCandidate(view, p) };
    } catch (error) {
      const code = error instanceof Conflict ? error.code : null;
      if (code === 'already_moderator' || code === 'already_candidate') {
        return refuse<z.input<typeof AlreadyRefusal>>({ error: (error as Conflict).message, message: (error as Conflict).message, code });
      }
      throw error;
    }
  }

  async function vote(actor: Actor, candidateId: number, choice: CandidateVote) {
    const r = await elections.vote(actor, candidateId, choice);
    const message = r.elected
      ? 'Vote recorded: the candidate is elected'
      : r.revoked
        ? 'Vote recorded: the moderator is revoked'
        : r.rejected
          ? 'Vote recorded: the candidacy is turned down'
          : 'Vote recorded';
    return { message, elected: r.elected, revoked: r.revoked, rejected: r.rejected, candidate: presentCandidate(r.candidate, p) };
  }

  return {
    name: 'moderators',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ type: z.enum(['candidates', 'moderators', 'actions', '']).optional(), ...paginationQuery }),
        summary:
          'type=candidates (newest first), moderators (admins included, by id) or actions (the log, newest first); without type, the first page of each',
        response: z.union([Lists.candidates, Lists.moderators, Lists.actions, Lists.all]),
        handle: async (ctx) => {
          const page = pageRequest(ctx.query.page, ctx.query.per_page);
          switch (ctx.query.type) {
            case 'candidates': {
              const r = await elections.candidates(ctx.actor, page);
              return { candidates: r.items.map((v) => presentCandidate(v, p)), meta: r.meta };
            }
            case 'moderators': {
              const r = await elections.moderators(ctx.actor, page);
              return { moderators: r.items.map((v) => presentCandidate(v, p)), meta: r.meta };
            }
            case 'actions': {
              const r = await elections.actions(ctx.actor, page);
              return { actions: r.items.map((v) => presentAction(v, p)), meta: r.meta };
            }
            default: {
              const [c, m, a] = [
                await elections.candidates(ctx.actor, page),
                await elections.moderators(ctx.actor, page),
                await elections.actions(ctx.actor, page),
              ];
              return {
                candidates: c.items.map((v) => presentCandidate(v, p)),
                moderators: m.items.map((v) => presentCandidate(v, p)),
                actions: a.items.map((v) => presentAction(v, p)),
              };
            }
          }
        },
      }),
      op({
        method: 'POST',
        select: { action: 'apply' },
        auth: 'required',
        body: applyBody,
        summary: 'Become a candidate, with a motivation',
        response: Applied,
        refusal: AlreadyRefusal,
        handle: (ctx) => apply(ctx.actor, ctx.body.motivation),
      }),
      op({
        method: 'POST',
        select: { action: 'vote_moderator' },
        auth: 'required',
        body: voteBody,
        summary: 'Vote for or against a candidate or a moderator; elected / revoked say whether this vote decided',
        response: Voted,
        handle: (ctx) => vote(ctx.actor, ctx.body.candidate_id, ctx.body.vote),
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: z.object({
          motivation: applyBody.shape.motivation.optional(),
          candidate_id: zId.optional(),
          vote: voteBody.shape.vote.optional(),
        }),
        summary: 'The spec’s form without action: a vote when the body has candidate_id (and vote), else a candidacy (motivation)',
        response: z.union([Voted, Applied]),
        refusal: AlreadyRefusal,
        handle: async (ctx) => {
          const b = ctx.body;
          if (b.candidate_id !== undefined) {
            if (b.vote === undefined) throw Invalid.field('vote', 'required with candidate_id: for or against');
            return vote(ctx.actor, b.candidate_id, b.vote);
          }
          return apply(ctx.actor, b.motivation ?? '');
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        summary: 'Withdraw one’s candidacy, or step down as an elected moderator',
        response: z.object({ message: z.string(), status: z.enum(['withdrawn', 'resigned']) }),
        handle: async (ctx) => {
          const r = await elections.withdraw(ctx.actor);
          return { message: r.status === 'withdrawn' ? 'Candidacy withdrawn' : 'You stepped down as moderator', status: r.status };
        },
      }),
    ],
  };
}
