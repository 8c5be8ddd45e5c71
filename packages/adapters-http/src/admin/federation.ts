import { canModerate, Conflict, Invalid, NotFound, pageRequest } from '@plaza/domain';
import { type FederationAdminService, QUEUE_STATES, type QueueEntry, type QueueState } from '@plaza/domain/federation';
import type { AdminKit, AdminSection } from './section.js';
import { idOf } from './users.js';

const PER_PAGE = 25;

/** What the queue page shows of a row: where it goes and what it carries, never its signature or key. */
function describe(entry: QueueEntry) {
  const payload = (entry.payload ?? {}) as { inbox?: unknown; username?: unknown; activity?: { type?: unknown; id?: unknown } };
  return {
    ...entry,
    kind: entry.channel === 'fanout' ? 'to every follower' : 'to one inbox',
    inbox: typeof payload.inbox === 'string' ? payload.inbox : null,
    username: typeof payload.username === 'string' ? payload.username : null,
    activity: typeof payload.activity?.type === 'string' ? payload.activity.type : '?',
  };
}

/** The page's error for a refusal it shows (a bad form, a decision made meanwhile); anything else (403) is the panel's error page. */
function shownError(e: unknown): { error: string; code: number } {
  if (!(e instanceof Invalid) && !(e instanceof Conflict) && !(e instanceof NotFound)) throw e;
  const reason =
    e instanceof Invalid && e.details.length ? `${e.message}: ${e.details.map((d) => `${d.field} ${d.problem}`).join('; ')}` : e.message;
  return { error: reason, code: e instanceof Invalid ? 400 : e instanceof Conflict ? 409 : 404 };
}

/**
 * The admin panel's Federation pages (docs/decisions/0106): blocked domains (suspend or silence, with
 * a reason; unblock) and the outbound delivery queue (pending, failing, dead; retry and discard).
 * Moderators read them; the decisions are the administrators', each in the moderators' log.
 */
export function federationSection(admin: FederationAdminService): AdminSection {
  return {
    nav: [
      { href: '/admin/federation.php', label: 'Federation', shownTo: canModerate },
      { href: '/admin/deliveries.php', label: 'Deliveries', shownTo: canModerate },
    ],
    mount(kit: AdminKit) {
      kit.page('/admin/federation.php', ['GET', 'POST'], async (ctx) => {
        const me = await kit.signedIn(ctx);
        if (!me) return;
        let failure: { error: string; code: number } | null = null;
        const form = { domain: '', severity: 'suspend', reason: '' };
        if (ctx.method === 'POST') {
          const action = kit.field(ctx, 'action', 10);
          try {
            if (action === 'block') {
              Object.assign(form, {
                domain: kit.field(ctx, 'domain', 400),
                severity: kit.field(ctx, 'severity', 10),
                reason: kit.field(ctx, 'reason', 1000),
              });
              const { block, removedFollows } = await admin.block(me.actor, form);
              return kit.redirect(
                ctx,
                `/admin/federation.php?done=blocked&domain=${encodeURIComponent(block.domain)}&removed=${removedFollows}`,
              );
            }
            if (action === 'unblock') {
              const gone = await admin.unblock(me.actor, kit.field(ctx, 'domain', 400));
              return kit.redirect(ctx, `/admin/federation.php?done=unblocked&domain=${encodeURIComponent(gone.domain)}`);
            }
            throw Invalid.field('action', 'must be block or unblock', 'invalid_action');
          } catch (e) {
            failure = shownError(e);
          }
        }
        const blocks = await admin.blocked(me.actor);
        const done = kit.queryOf(ctx, 'done');
        const domain = kit.queryOf(ctx, 'domain').slice(0, 253);
        const removed = Number(kit.queryOf(ctx, 'removed')) || 0;
        const notice =
          done === 'blocked'
            ? `${domain} is blocked${removed ? ` (${removed} follow${removed === 1 ? '' : 's'} removed)` : ''}.`
            : done === 'unblocked'
              ? `${domain} is unblocked.`
              : null;
        kit.render(
          ctx,
          'federation',
          { title: 'Federation', blocks, form, error: failure?.error ?? null, notice, canDecide: me.actor.isAdmin },
          failure?.code ?? 200,
        );
      });

      kit.page('/admin/deliveries.php', ['GET', 'POST'], async (ctx) => {
        const me = await kit.signedIn(ctx);
        if (!me) return;
        const asked = kit.queryOf(ctx, 'state');
        const state: QueueState = (QUEUE_STATES as readonly string[]).includes(asked) ? (asked as QueueState) : 'failing';
        const pageNo = Math.min(Math.max(Number(kit.queryOf(ctx, 'page')) || 1, 1), 10_000);
        const here = `/admin/deliveries.php?state=${state}${pageNo > 1 ? `&page=${pageNo}` : ''}`;
        let failure: { error: string; code: number } | null = null;
        if (ctx.method === 'POST') {
          const action = kit.field(ctx, 'action', 10);
          try {
            const id = idOf(kit.field(ctx, 'id', 20), 'id');
            if (action === 'retry') await admin.retry(me.actor, id);
            else if (action === 'discard') await admin.discard(me.actor, id);
            else throw Invalid.field('action', 'must be retry or discard', 'invalid_action');
            return kit.redirect(ctx, `${here}&done=${action}&id=${id}`);
          } catch (e) {
            failure = shownError(e);
          }
        }
        const view = await admin.deliveries(me.actor, state, pageRequest(pageNo, PER_PAGE));
        const done = kit.queryOf(ctx, 'done');
        const doneId = Number(kit.queryOf(ctx, 'id')) || 0;
        const notice =
          done === 'retry'
            ? `Delivery #${doneId} will be tried again now.`
            : done === 'discard'
              ? `Delivery #${doneId} is discarded.`
              : null;
        kit.render(
          ctx,
          'deliveries',
          {
            title: 'Deliveries',
            state,
            states: QUEUE_STATES,
            counts: view.counts,
            entries: view.items.map(describe),
            totalPages: Math.max(1, Math.ceil(view.total / PER_PAGE)),
            pageNo,
            here,
            error: failure?.error ?? null,
            notice,
            canDecide: me.actor.isAdmin,
          },
          failure?.code ?? 200,
        );
      });
    },
  };
}
