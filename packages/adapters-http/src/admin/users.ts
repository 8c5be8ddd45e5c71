import { canModerate, Conflict, Invalid, pageRequest } from '@plaza/domain';
import type { AccountModerationService, ReportService } from '@plaza/domain/moderation';
import type { Context } from 'koa';
import type { AdminKit, AdminSection } from './section.js';

const PER_PAGE = 50;
const REPORTS_SHOWN = 20;

/** What a finished action says on the page it lands on. */
const DONE: Record<string, string> = {
  suspend: 'The account is suspended and its sessions are ended.',
  unsuspend: 'The suspension is lifted: the account may sign in again.',
  reset_two_factor: 'Two-factor authentication is off for this account; its owner is told by e-mail.',
  delete: 'The account is deleted.',
};

/**
 * The admin panel's Users pages (docs/decisions/0105): search by username or e-mail, an account's page
 * (counts, open sessions, sanctions, reports about it) and the actions on it. Who may do what is the
 * domain's (AccountModerationService); the pages show the buttons it allows and render its refusals.
 */
export function usersSection(accounts: AccountModerationService, reports: ReportService): AdminSection {
  return {
    nav: [{ href: '/admin/users.php', label: 'Users', shownTo: canModerate }],
    mount(kit: AdminKit) {
      kit.page('/admin/users.php', ['GET'], async (ctx) => {
        const admin = await kit.signedIn(ctx);
        if (!admin) return;
        const q = kit.queryOf(ctx, 'q').slice(0, 100);
        const pageNo = pageNumber(kit.queryOf(ctx, 'page'));
        const list = await accounts.search(admin.actor, q || null, pageRequest(pageNo, PER_PAGE));
        kit.render(ctx, 'users', {
          title: 'Users',
          users: list.items,
          more: list.more,
          q,
          pageNo,
          notice: kit.queryOf(ctx, 'done') === 'delete' ? DONE.delete : null,
        });
      });

      kit.page('/admin/user.php', ['GET', 'POST'], async (ctx) => {
        const admin = await kit.signedIn(ctx);
        if (!admin) return;
        const userId = idOf(kit.queryOf(ctx, 'id'), 'id');
        const here = `/admin/user.php?id=${userId}`;
        let error: string | null = null;
        let status = 200;
        let reason = '';
        if (ctx.method === 'POST') {
          const action = kit.field(ctx, 'action', 20);
          reason = kit.field(ctx, 'reason', 600);
          try {
            if (action === 'suspend') await accounts.suspend(admin.actor, userId, reason);
            else if (action === 'unsuspend') await accounts.unsuspend(admin.actor, userId);
            else if (action === 'reset_two_factor') await accounts.resetTwoFactor(admin.actor, userId);
            else if (action === 'delete') {
              if (kit.field(ctx, 'confirm', 10) !== 'yes')
                throw Invalid.field('confirm', 'tick the box to confirm the deletion', 'confirmation_required');
              await accounts.delete(admin.actor, userId);
              return kit.redirect(ctx, '/admin/users.php?done=delete');
            } else throw Invalid.field('action', 'must be suspend, unsuspend, reset_two_factor or delete');
            return kit.redirect(ctx, `${here}&done=${action}`);
          } catch (e) {
            // A refusal by role is the 403 page, an unknown account the 404 page; what the form got
            // wrong or what changed meanwhile (409) is shown on the account's page.
            if (!(e instanceof Invalid) && !(e instanceof Conflict)) throw e;
            error = e.message;
            status = e instanceof Invalid ? 400 : 409;
          }
        }
        const overview = await accounts.overview(admin.actor, userId);
        const about = await reports.aboutUser(admin.actor, userId, pageRequest(1, REPORTS_SHOWN));
        render(kit, ctx, { overview, about, here, error, reason, status, notice: error ? null : (DONE[kit.queryOf(ctx, 'done')] ?? null) });
      });
    },
  };
}

function render(kit: AdminKit, ctx: Context, data: Record<string, unknown> & { status: number; overview: { user: { username: string } } }) {
  kit.render(ctx, 'user', { title: `@${data.overview.user.username}`, ...data }, data.status);
}

function pageNumber(raw: string): number {
  return Math.min(Math.max(Number(raw) || 1, 1), 10_000);
}

/** A positive id from the query or a form, else 400. */
export function idOf(raw: string, field: string): number {
  const id = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw Invalid.field(field, 'must be an id');
  return id;
}
