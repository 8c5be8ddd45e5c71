import { type Clock, Conflict, Invalid, NotFound, pageRequest, type Timestamp, toTimestamp } from '@plaza/domain';
import type { Invitation, RegistrationAdminService, RegistrationPolicy } from '@plaza/domain/accounts';
import type { Context } from 'koa';
import type { AdminKit, AdminSection } from './section.js';

const REGISTRATIONS = '/admin/registrations.php';
const INVITATIONS = '/admin/invitations.php';
const PER_PAGE = 50;

/** What each page says of the mode in effect (API_REGISTRATION, docs/decisions/0104). */
const MODE_TEXT: Record<RegistrationPolicy['mode'], string> = {
  open: 'Registration is open: anyone can create an account.',
  approval: 'Registration needs approval: new accounts wait here until a moderator or an administrator decides.',
  invite: 'Registration needs an invitation: only a code from this page creates an account.',
  closed: 'Registration is closed: nobody can create an account.',
};

/**
 * Sign-ups in the admin panel (issue 26, items 3 and 4): the registrations waiting for approval
 * (moderators and administrators approve or reject) and the invitation codes (administrators create,
 * list and revoke). The service checks the roles; every decision goes to the moderators' action log.
 */
export function registrationsSection(service: RegistrationAdminService, policy: RegistrationPolicy, clock: Clock): AdminSection {
  const modeText = `${MODE_TEXT[policy.mode]}${policy.emailConfirm ? ' New accounts confirm their e-mail address first.' : ''}`;
  const pageNumber = (kit: AdminKit, ctx: Context) => Math.min(Math.max(Number(kit.queryOf(ctx, 'page')) || 1, 1), 10_000);
  const positiveId = (value: string, name: string) => {
    const id = Number(value);
    if (!/^\d{1,15}$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw Invalid.field(name, 'must be an id');
    return id;
  };

  return {
    nav: [
      { href: REGISTRATIONS, label: 'Sign-ups', shownTo: (actor) => actor.isModerator },
      { href: INVITATIONS, label: 'Invitations', shownTo: (actor) => actor.isAdmin },
    ],
    mount(kit) {
      kit.page(REGISTRATIONS, ['GET', 'POST'], async (ctx) => {
        const admin = await kit.signedIn(ctx);
        if (!admin) return;
        const pageNo = pageNumber(kit, ctx);
        let error: string | null = null;
        let status = 200;
        if (ctx.method === 'POST') {
          const action = kit.field(ctx, 'action', 20);
          const userId = positiveId(kit.field(ctx, 'user_id', 20), 'user_id');
          try {
            if (action === 'approve') await service.approve(admin.actor, userId);
            else if (action === 'reject') await service.reject(admin.actor, userId, kit.field(ctx, 'reason', 500));
            else throw Invalid.field('action', 'must be approve or reject');
            return kit.redirect(ctx, `${REGISTRATIONS}?done=${action}`);
          } catch (e) {
            if (!(e instanceof Conflict) && !(e instanceof NotFound)) throw e;
            error = e.message;
            status = e instanceof Conflict ? 409 : 404;
          }
        }
        const list = await service.pending(admin.actor, pageRequest(pageNo, PER_PAGE));
        const done = kit.queryOf(ctx, 'done');
        kit.render(
          ctx,
          'registrations',
          {
            title: 'Sign-ups',
            modeText,
            // Whether an address is confirmed only says something when confirmation is asked for.
            emailConfirm: policy.emailConfirm,
            pending: list.items,
            more: list.has_more,
            pageNo,
            error,
            notice:
              done === 'approve'
                ? 'Approved: the account can sign in, and its owner has been told by e-mail.'
                : done === 'reject'
                  ? 'Rejected: the account is deleted, and its owner has been told by e-mail.'
                  : null,
          },
          status,
        );
      });

      kit.page(INVITATIONS, ['GET', 'POST'], async (ctx) => {
        const admin = await kit.signedIn(ctx);
        if (!admin) return;
        const pageNo = pageNumber(kit, ctx);
        let created: { code: string; id: number } | null = null;
        let error: string | null = null;
        let problems: unknown[] = [];
        let status = 200;
        const form = { max_uses: '1', expires_in_days: '7' };
        if (ctx.method === 'POST') {
          const action = kit.field(ctx, 'action', 20);
          if (action === 'create') {
            form.max_uses = kit.field(ctx, 'max_uses', 10).trim();
            form.expires_in_days = kit.field(ctx, 'expires_in_days', 10).trim();
            try {
              const maxUses = /^\d{1,6}$/.test(form.max_uses) ? Number(form.max_uses) : Number.NaN;
              const days =
                form.expires_in_days === '' ? null : /^\d{1,6}$/.test(form.expires_in_days) ? Number(form.expires_in_days) : Number.NaN;
              const result = await service.createInvitation(admin.actor, { maxUses: maxUses, expiresInDays: days });
              created = { code: result.code, id: result.invitation.id };
            } catch (e) {
              if (!(e instanceof Invalid)) throw e;
              error = e.message;
              problems = e.details;
              status = 400;
            }
          } else if (action === 'revoke') {
            const id = positiveId(kit.field(ctx, 'invitation_id', 20), 'invitation_id');
            try {
              await service.revokeInvitation(admin.actor, id);
              return kit.redirect(ctx, `${INVITATIONS}?revoked=${id}`);
            } catch (e) {
              if (!(e instanceof NotFound)) throw e;
              error = e.message;
              status = 404;
            }
          } else {
            throw Invalid.field('action', 'must be create or revoke');
          }
        }
        const list = await service.invitationList(admin.actor, pageRequest(pageNo, PER_PAGE));
        const revoked = kit.queryOf(ctx, 'revoked');
        kit.render(
          ctx,
          'invitations',
          {
            title: 'Invitations',
            modeText,
            inviteMode: policy.mode === 'invite',
            invitations: list.items.map((i) => ({
              ...i,
              uses_left: Math.max(i.max_uses - i.uses, 0),
              state: stateOf(i, toTimestamp(clock.now())),
            })),
            more: list.has_more,
            pageNo,
            created,
            form,
            error,
            problems,
            notice: /^\d+$/.test(revoked) ? `Invitation #${revoked} is revoked: its code no longer works.` : null,
          },
          status,
        );
      });
    },
  };
}

/** What the list says of an invitation: whether its code still creates an account, or why not. */
function stateOf(invitation: Invitation, now: Timestamp): 'live' | 'revoked' | 'expired' | 'used up' {
  if (invitation.revoked_at !== null) return 'revoked';
  if (invitation.expires_at !== null && invitation.expires_at <= now) return 'expired';
  if (invitation.uses >= invitation.max_uses) return 'used up';
  return 'live';
}
