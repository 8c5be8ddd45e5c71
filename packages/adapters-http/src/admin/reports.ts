import { canModerate, Conflict, Invalid, NotFound, pageRequest } from '@plaza/domain';
import {
  type ElectionService,
  MODERATOR_ACTIONS,
  type ModeratorAction,
  REPORT_OUTCOMES,
  type ReportOutcome,
  type ReportService,
} from '@plaza/domain/moderation';
import { postMediaPath } from '../presenters/post.js';
import type { AdminKit, AdminSection } from './section.js';
import { idOf } from './users.js';

const PER_PAGE = 20;
const LOG_PER_PAGE = 50;

/**
 * The admin panel's Reports page (docs/decisions/0105): the moderators' queue with what was reported
 * (the post's text as reported, its media as they are now, the account) and the same decisions as
 * reports.php, through the same ReportService: a vote (remove, warn, keep, or cancel one's vote), or a
 * moderator's direct action (remove the post and warn, or warn). Beside it, the moderators' log as
 * moderators.php?type=actions serves it (the same ElectionService read): every decision and every
 * action of the Users pages.
 */
export function reportsSection(reports: ReportService, elections: ElectionService): AdminSection {
  return {
    nav: [
      { href: '/admin/reports.php', label: 'Reports', shownTo: canModerate },
      { href: '/admin/moderation_log.php', label: 'Log', shownTo: canModerate },
    ],
    mount(kit: AdminKit) {
      kit.page('/admin/moderation_log.php', ['GET'], async (ctx) => {
        const admin = await kit.signedIn(ctx);
        if (!admin) return;
        const pageNo = Math.min(Math.max(Number(kit.queryOf(ctx, 'page')) || 1, 1), 10_000);
        const log = await elections.actions(admin.actor, pageRequest(pageNo, LOG_PER_PAGE));
        kit.render(ctx, 'moderation_log', { title: 'Moderators’ log', entries: log.items, meta: log.meta, pageNo });
      });

      kit.page('/admin/reports.php', ['GET', 'POST'], async (ctx) => {
        const admin = await kit.signedIn(ctx);
        if (!admin) return;
        const status = kit.queryOf(ctx, 'status') === 'resolved' ? 'resolved' : 'pending';
        const pageNo = Math.min(Math.max(Number(kit.queryOf(ctx, 'page')) || 1, 1), 10_000);
        const here = `/admin/reports.php?status=${status}${pageNo > 1 ? `&page=${pageNo}` : ''}`;
        let error: string | null = null;
        let code = 200;
        if (ctx.method === 'POST') {
          const reportId = idOf(kit.field(ctx, 'report_id', 20), 'report_id');
          const vote = kit.field(ctx, 'vote', 10);
          const action = kit.field(ctx, 'moderator_action', 20);
          try {
            if (vote) {
              if (vote !== 'cancel' && !(REPORT_OUTCOMES as readonly string[]).includes(vote))
                throw Invalid.field('vote', `must be one of ${REPORT_OUTCOMES.join(', ')} or cancel`, 'invalid_vote');
              const { resolved } = await reports.vote(admin.actor, reportId, vote as ReportOutcome | 'cancel');
              return kit.redirect(ctx, `${here}${here.includes('?') ? '&' : '?'}done=${resolved ? 'resolved' : 'voted'}`);
            }
            if (!(MODERATOR_ACTIONS as readonly string[]).includes(action))
              throw Invalid.field('moderator_action', `send a vote, or one of ${MODERATOR_ACTIONS.join(', ')}`, 'invalid_action');
            await reports.act(admin.actor, reportId, action as ModeratorAction, kit.field(ctx, 'reason', 600));
            return kit.redirect(ctx, `${here}&done=resolved`);
          } catch (e) {
            // Not a moderator, or one's own case: the 403 page. A report decided meanwhile (409) or
            // gone (404), or a wrong form (400): shown above the queue.
            if (!(e instanceof Invalid) && !(e instanceof Conflict) && !(e instanceof NotFound)) throw e;
            error = e.message;
            code = e instanceof Invalid ? 400 : e instanceof Conflict ? 409 : 404;
          }
        }
        const queue = await reports.queue(admin.actor, status, pageRequest(pageNo, PER_PAGE));
        const done = kit.queryOf(ctx, 'done');
        kit.render(
          ctx,
          'reports',
          {
            title: 'Reports',
            status,
            // Where the app fetches each medium: the posts' presenter's path, from this server's root.
            reports: queue.items.map((v) => ({
              ...v,
              media: v.media?.map((m) => (/^https?:\/\//.test(m) ? m : `/${postMediaPath(m)}`)) ?? null,
            })),
            meta: queue.meta,
            pageNo,
            here,
            error,
            notice: done === 'resolved' ? 'The report is resolved.' : done === 'voted' ? 'Your vote is counted.' : null,
          },
          code,
        );
      });
    },
  };
}
