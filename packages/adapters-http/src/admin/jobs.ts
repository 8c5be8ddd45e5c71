import { canModerate, Forbidden, type FailedJobRuns } from '@plaza/domain';
import type { AdminKit, AdminSection } from './section.js';

const PER_PAGE = 25;

/**
 * The admin panel's Jobs page (docs/decisions/0160): the periodic jobs' runs that failed every attempt
 * (BullMQ's dead letters, with REDIS_URL), newest first; administrators run one again or discard it.
 * Without Redis the jobs run on timers, whose failures are only logged: the page says so.
 */
export function jobsSection(runs: FailedJobRuns): AdminSection {
  return {
    nav: [{ href: '/admin/jobs.php', label: 'Jobs', shownTo: canModerate }],
    mount(kit: AdminKit) {
      kit.page('/admin/jobs.php', ['GET', 'POST'], async (ctx) => {
        const me = await kit.signedIn(ctx);
        if (!me) return;
        if (!canModerate(me.actor)) throw new Forbidden('Only moderators and administrators see the jobs');
        const pageNo = Math.min(Math.max(Number(kit.queryOf(ctx, 'page')) || 1, 1), 10_000);
        let error: string | null = null;
        let status = 200;
        if (ctx.method === 'POST') {
          if (!me.actor.isAdmin) throw new Forbidden('Only administrators retry or discard a run');
          const action = kit.field(ctx, 'action', 10);
          const id = kit.field(ctx, 'id', 100);
          if ((action === 'retry' || action === 'discard') && id) {
            const done = action === 'retry' ? await runs.retry(id) : await runs.discard(id);
            if (done) return kit.redirect(ctx, `/admin/jobs.php?done=${action}&id=${encodeURIComponent(id)}`);
            error = `Run ${id} is no longer failed (retried or discarded meanwhile).`;
            status = 409;
          } else {
            error = 'action must be retry or discard, with the id of a run';
            status = 400;
          }
        }
        const [view, counts] = await Promise.all([
          runs.failed((pageNo - 1) * PER_PAGE, PER_PAGE),
          // The counts only inform: Redis failing them still shows the page.
          runs.counts().catch(() => null),
        ]);
        const done = kit.queryOf(ctx, 'done');
        const doneId = kit.queryOf(ctx, 'id').slice(0, 100);
        const notice = done === 'retry' ? `Run ${doneId} runs again now.` : done === 'discard' ? `Run ${doneId} is discarded.` : null;
        kit.render(
          ctx,
          'jobs',
          {
            title: 'Jobs',
            engine: runs.engine,
            counts,
            runs: view.items,
            total: view.total,
            pageNo,
            totalPages: Math.max(1, Math.ceil(view.total / PER_PAGE)),
            error,
            notice,
            canDecide: me.actor.isAdmin,
          },
          status,
        );
      });
    },
  };
}
