import { Invalid, pageRequest } from '@plaza/domain';
import {
  ACTION_REASON_MAX,
  REPORT_DESCRIPTION_MAX,
  REPORTED_POST_TYPES,
  type ModeratorAction,
  type ReportOutcome,
  type ReportService,
} from '@plaza/domain/moderation';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { presentReport, ReportItem } from '../presenters/moderation.js';
import { PageMetaWire, zWireId } from '../presenters/wire.js';

/**
 * POST reports.php carries three requests told apart by their body (contract §25): a report
 * (`post_id` or `user_id`, `reason`; `post_type` group or page for a group's or a page's post), a vote
 * (`report_id`, `vote`) or a moderator's action
 * (`moderator_action`, `report_id`, `reason`?). `reason` is the report's reason in the first and the
 * moderator's words in the last; the domain checks each.
 */
/** Which kind of post `post_id` names; the clients' post card sends none: a wall post. */
const postType = z.enum(REPORTED_POST_TYPES).default('post');

export const postBody = z.object({
  post_id: zId.optional().nullable(),
  post_type: postType,
  user_id: zId.optional().nullable(),
  reason: z.string().max(ACTION_REASON_MAX).optional().nullable(),
  description: z.string().max(REPORT_DESCRIPTION_MAX).optional().nullable(),
  report_id: zId.optional(),
  vote: z.enum(['remove', 'warn', 'keep', 'cancel']).optional(),
  moderator_action: z.enum(['delete_post', 'warn_user']).optional(),
});

const Created = z.object({ message: z.string(), report_id: zWireId, report: ReportItem });
const Voted = z.object({ message: z.string(), resolved: z.boolean(), report: ReportItem });
const Acted = z.object({ message: z.string(), action: z.enum(['delete_post', 'warn_user']), report: ReportItem });

function requireReportId(id: number | undefined): number {
  if (id === undefined) throw Invalid.field('report_id', 'required with vote and moderator_action');
  return id;
}

/** A vote or an action is about a report: naming a post or an account as well would be two requests in one. */
function refuseTargets(b: { post_id?: number | null; user_id?: number | null }): void {
  const named = (['post_id', 'user_id'] as const).filter((k) => b[k] !== undefined && b[k] !== null);
  if (named.length) {
    throw new Invalid(
      `${named.join(' and ')}: not with vote or moderator_action, which name their report by report_id`,
      'invalid_input',
      named.map((field) => ({ field, problem: 'not with vote or moderator_action' })),
    );
  }
}

/** Also the library's check (docs/decisions/0113). */
export const cancelBody = z.object({ report_id: zId.optional(), post_id: zId.optional(), post_type: postType, user_id: zId.optional() });

/** Also the library's check (docs/decisions/0113). */
export const listQuery = z.object({ status: z.enum(['pending', 'resolved', '']).optional(), ...paginationQuery });

export function reportsScript(reports: ReportService, p: PresenterContext): Script {
  return {
    name: 'reports',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: listQuery,
        summary:
          'Reports, newest first: status=pending (default) or resolved; the whole queue for moderators, one’s own reports for everyone else',
        response: z.object({ reports: z.array(ReportItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const r = await reports.list(
            ctx.actor,
            ctx.query.status === 'resolved' ? 'resolved' : 'pending',
            pageRequest(ctx.query.page, ctx.query.per_page),
          );
          return { reports: r.items.map((v) => presentReport(v, p)), meta: r.meta };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: postBody,
        summary:
          'Report a post or an account ({post_id|user_id, reason, description?}; post_type group or page for a group’s or page’s post); or, moderators, vote on a report ({report_id, vote: remove|warn|keep|cancel}) or decide alone ({moderator_action: delete_post|warn_user, report_id, reason?})',
        response: z.union([Created, Voted, Acted]),
        handle: async (ctx) => {
          const b = ctx.body;
          if (b.moderator_action !== undefined) {
            refuseTargets(b);
            const view = await reports.act(ctx.actor, requireReportId(b.report_id), b.moderator_action as ModeratorAction, b.reason);
            const message = b.moderator_action === 'delete_post' ? 'Post removed and its author warned' : 'Warning issued';
            return { message, action: b.moderator_action, report: presentReport(view, p) };
          }
          if (b.vote !== undefined) {
            refuseTargets(b);
            const r = await reports.vote(ctx.actor, requireReportId(b.report_id), b.vote as ReportOutcome | 'cancel');
            const message = b.vote === 'cancel' ? 'Vote withdrawn' : r.resolved ? 'Vote recorded: the report is resolved' : 'Vote recorded';
            return { message, resolved: r.resolved, report: presentReport(r.report, p) };
          }
          if (b.report_id !== undefined)
            throw Invalid.field('report_id', 'names a report to vote on (vote) or decide (moderator_action): send one of them');
          if (!b.reason) throw Invalid.field('reason', 'required: spam, harassment, hate_speech, misinformation, violence or other');
          const view = await reports.create(ctx.actor, {
            post_id: b.post_id,
            post_type: b.post_type,
            user_id: b.user_id,
            reason: b.reason,
            description: b.description,
          });
          return { message: 'Report sent to the moderators', report_id: view.report.id, report: presentReport(view, p) };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        body: cancelBody,
        summary:
          'Cancel one’s own pending report, named by report_id, or by the post_id (with its post_type) or user_id it is about (JSON body)',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          const { report_id, post_id, post_type, user_id } = ctx.body;
          const given = Object.entries({ report_id, post_id, user_id }).flatMap(([k, v]) => (v === undefined ? [] : [k]));
          if (given.length !== 1) {
            const problem = 'send exactly one of report_id, post_id, user_id';
            throw new Invalid(
              `Send exactly one of report_id, post_id or user_id`,
              'invalid_input',
              (given.length ? given : ['report_id']).map((field) => ({ field, problem })),
            );
          }
          await reports.cancel(
            ctx.actor,
            report_id !== undefined ? { report_id } : post_id !== undefined ? { post_id, post_type } : { user_id: user_id! },
          );
          return { message: 'Report cancelled' };
        },
      }),
    ],
  };
}
