import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import {
  DOMAIN_BLOCK_REASON_MAX,
  DOMAIN_BLOCK_SEVERITIES,
  type DomainBlock,
  type DomainBlockRepository,
  type DomainBlockSeverity,
  type DomainPolicy,
  normalizeBlockedDomain,
} from './domain-blocks.js';
import type { QueueEntry, QueueState } from './model.js';
import type { Counted, FederationQueue, RemoteFollowRepository, RemotePostRepository } from './ports.js';

/** The federation decisions written to the moderators' action log. */
export type FederationActionType = 'block_domain' | 'unblock_domain' | 'retry_delivery' | 'discard_delivery';

/**
 * Where decisions are recorded: the moderators' action log (moderators.php?type=actions), inside the
 * decision's unit of work. A federation decision concerns no local account: its line names the
 * administrator as target (as invitations do, docs/decisions/0104).
 */
export interface FederationDecisionLog {
  record(entry: {
    moderator_id: number;
    action_type: FederationActionType;
    target_user_id: number;
    reason: string;
    created_at: Timestamp;
  }): Promise<void>;
}

export interface DomainBlockInput {
  domain: string;
  severity: string;
  reason: string;
}

export interface DeliveryQueueView extends Counted<QueueEntry> {
  counts: Record<QueueState, number>;
}

function assertModerator(actor: Actor): void {
  if (!canModerate(actor)) throw new Forbidden('Only moderators and administrators see the federation pages', 'not_moderator');
}

function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new Forbidden('Only administrators block servers and manage deliveries', 'not_admin');
}

/**
 * The admin panel's Federation pages (docs/decisions/0106): blocked domains and the delivery queue.
 * Moderators read both; administrators alone decide. Every decision is one conditional write (a
 * domain is blocked once, unblocked once; a delivery is retried or discarded only when no worker
 * holds it) with its line of the moderators' log in the same unit of work.
 */
export class FederationAdminService {
  constructor(
    private readonly blocks: DomainBlockRepository,
    private readonly policy: DomainPolicy,
    private readonly follows: RemoteFollowRepository,
    private readonly posts: RemotePostRepository,
    private readonly queue: FederationQueue,
    private readonly log: FederationDecisionLog,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** The queue channels that are outbound deliveries (the page lists these only). */
    private readonly deliveryChannels: string[],
  ) {}

  async blocked(actor: Actor): Promise<DomainBlock[]> {
    assertModerator(actor);
    return this.blocks.all();
  }

  /**
   * Blocks the domain (and its subdomains). A suspension removes, with the block, every follow both
   * ways of the domain's known accounts and their stored notes; what is queued for it is dropped when
   * its turn comes. Blocking a domain that is blocked already is a 409 and changes nothing (unblock
   * first to change the severity).
   */
  async block(actor: Actor, input: DomainBlockInput): Promise<{ block: DomainBlock; removedFollows: number; removedPosts: number }> {
    assertModerator(actor);
    assertAdmin(actor);
    const domain = normalizeBlockedDomain(input.domain);
    if (!(DOMAIN_BLOCK_SEVERITIES as readonly string[]).includes(input.severity)) {
      throw Invalid.field('severity', `must be one of ${DOMAIN_BLOCK_SEVERITIES.join(', ')}`, 'invalid_severity');
    }
    const severity = input.severity as DomainBlockSeverity;
    const reason = input.reason.trim();
    if (!reason) throw Invalid.field('reason', 'say why the server is blocked', 'reason_required');
    if (reason.length > DOMAIN_BLOCK_REASON_MAX)
      throw Invalid.field('reason', `must be at most ${DOMAIN_BLOCK_REASON_MAX} characters`, 'reason_too_long');
    const now = this.now();
    const block: DomainBlock = { domain, severity, reason, created_by: actor.userId, created_at: now };
    const result = await this.uow.run(async () => {
      if (!(await this.blocks.add(block)))
        throw new Conflict(`${domain} is blocked already: unblock it first to change the block`, 'already_blocked');
      const removedPosts = severity === 'suspend' ? await this.posts.deleteOfDomain(domain) : 0;
      const removedFollows = severity === 'suspend' ? await this.follows.removeAllOfDomain(domain) : 0;
      const removed = severity === 'suspend' ? ` (${removedFollows} follow${removedFollows === 1 ? '' : 's'} removed)` : '';
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'block_domain',
        target_user_id: actor.userId,
        reason: `${domain} ${severity === 'suspend' ? 'suspended' : 'silenced'}${removed}: ${reason}`.slice(0, 600),
        created_at: now,
      });
      return { block, removedFollows, removedPosts };
    });
    this.policy.invalidate();
    return result;
  }

  async unblock(actor: Actor, rawDomain: string): Promise<DomainBlock> {
    assertModerator(actor);
    assertAdmin(actor);
    const domain = normalizeBlockedDomain(rawDomain);
    const now = this.now();
    const removed = await this.uow.run(async () => {
      const gone = await this.blocks.remove(domain);
      if (!gone) throw new NotFound(`${domain} is not blocked (it may have been unblocked meanwhile)`, 'not_blocked');
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'unblock_domain',
        target_user_id: actor.userId,
        reason: `${domain} unblocked (it was ${gone.severity === 'suspend' ? 'suspended' : 'silenced'}: ${gone.reason})`.slice(0, 600),
        created_at: now,
      });
      return gone;
    });
    this.policy.invalidate();
    return removed;
  }

  /** The outbound deliveries in one state, oldest due first, with how many are in each state. */
  async deliveries(actor: Actor, state: QueueState, page: PageRequest): Promise<DeliveryQueueView> {
    assertModerator(actor);
    const [list, pending, failing, dead] = await Promise.all([
      this.queue.list(state, this.deliveryChannels, page),
      this.queue.list('pending', this.deliveryChannels, { page: 1, perPage: 1 }),
      this.queue.list('failing', this.deliveryChannels, { page: 1, perPage: 1 }),
      this.queue.list('dead', this.deliveryChannels, { page: 1, perPage: 1 }),
    ]);
    return { ...list, counts: { pending: pending.total, failing: failing.total, dead: dead.total } };
  }

  /** Makes a failing or dead delivery due now (in place: a delivery a worker holds is refused, never copied). */
  async retry(actor: Actor, id: number): Promise<void> {
    assertModerator(actor);
    assertAdmin(actor);
    const now = this.now();
    await this.uow.run(async () => {
      if (!(await this.queue.retry(id, now))) throw busy(id);
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'retry_delivery',
        target_user_id: actor.userId,
        reason: `Delivery #${id} retried`,
        created_at: now,
      });
    });
  }

  async discard(actor: Actor, id: number): Promise<void> {
    assertModerator(actor);
    assertAdmin(actor);
    const now = this.now();
    await this.uow.run(async () => {
      if (!(await this.queue.discard(id, now))) throw busy(id);
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'discard_delivery',
        target_user_id: actor.userId,
        reason: `Delivery #${id} discarded`,
        created_at: now,
      });
    });
  }

  private now(): Timestamp {
    return toTimestamp(this.clock.now());
  }
}

const busy = (id: number) =>
  new Conflict(`Delivery #${id} is gone, not tried yet, or being delivered right now: reload the page`, 'delivery_busy');
