import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { MAX_GUEST_MESSAGE, type GuestStatus, type LiveGuestRecord, type LiveRecord } from './model.js';
import type { LiveRepository } from './ports.js';
import { canHost } from './hosts.js';

export interface GuestView {
  guest: LiveGuestRecord;
  user: UserRecord | null;
}

/**
 * Guests: viewers who ask to go on stage (publish) in a live, and the host's decision. The creator
 * and the live's moderators decide (`canHost`); at most `max_guests` are approved at once,
 * counted under the live's lock so that two approvals cannot both take the last place.
 */
export class LiveStageService {
  constructor(
    private readonly lives: LiveRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  private now() {
    return toTimestamp(this.clock.now());
  }

  /** Answers the request as it stands; the live's moderators are approved at once while places remain. */
  async request(actor: Actor, liveId: number, message?: string | null): Promise<LiveGuestRecord> {
    const text = message?.trim() || null;
    if (text && text.length > MAX_GUEST_MESSAGE) throw Invalid.field('message', `must be at most ${MAX_GUEST_MESSAGE} characters`);
    const live = await this.activeLive(liveId);
    if (live.user_id === actor.userId) throw new Invalid('You are the host of this live', 'own_live');
    return this.uow.run(async () => {
      await this.lives.lockLive(live.id);
      const request = await this.lives.requestGuest(live.id, actor.userId, text, this.now());
      if (request.status === 'pending' && (await this.lives.isModerator(live.id, actor.userId)) && (await this.hasPlace(live))) {
        await this.lives.decideGuest(live.id, actor.userId, ['pending'], 'approved', this.now());
        return (await this.lives.guest(live.id, actor.userId))!;
      }
      return request;
    });
  }

  async approve(actor: Actor, liveId: number, userId: number): Promise<LiveGuestRecord> {
    const live = await this.hosted(actor, liveId);
    return this.uow.run(async () => {
      await this.lives.lockLive(live.id);
      const current = await this.lives.guest(live.id, userId);
      if (!current) throw new NotFound('This user has not asked to join the stage', 'guest_request_not_found');
      if (current.status === 'approved') return current;
      if (!(await this.hasPlace(live))) throw new Conflict(`The stage is full (${live.max_guests} guests at most)`, 'stage_full');
      await this.lives.decideGuest(live.id, userId, ['pending', 'rejected'], 'approved', this.now());
      return (await this.lives.guest(live.id, userId))!;
    });
  }

  /** Rejects a pending request, or takes an approved guest off the stage. */
  async reject(actor: Actor, liveId: number, userId: number): Promise<LiveGuestRecord> {
    const live = await this.hosted(actor, liveId);
    const current = await this.lives.guest(live.id, userId);
    if (!current) throw new NotFound('This user has not asked to join the stage', 'guest_request_not_found');
    await this.lives.decideGuest(live.id, userId, ['pending', 'approved'], 'rejected', this.now());
    return (await this.lives.guest(live.id, userId))!;
  }

  async list(actor: Actor, liveId: number, status: GuestStatus | null, page: PageRequest): Promise<{ items: GuestView[]; meta: PageMeta }> {
    const live = await this.find(liveId);
    const { items, total } = await this.lives.guests(live.id, status, page);
    const users = new Map((items.length ? await this.users.findByIds(items.map((g) => g.user_id)) : []).map((u) => [u.id, u]));
    return { items: items.map((guest) => ({ guest, user: users.get(guest.user_id) ?? null })), meta: pageMeta(page, total) };
  }

  private async hasPlace(live: LiveRecord): Promise<boolean> {
    return (await this.lives.countGuests(live.id, 'approved')) < live.max_guests;
  }

  private async find(liveId: number): Promise<LiveRecord> {
    const live = await this.lives.findById(liveId);
    if (!live) throw new NotFound('Live not found', 'live_not_found');
    return live;
  }

  private async activeLive(liveId: number): Promise<LiveRecord> {
    const live = await this.find(liveId);
    if (live.status !== 'active') throw new Conflict('This live has ended', 'live_ended');
    return live;
  }

  private async hosted(actor: Actor, liveId: number): Promise<LiveRecord> {
    const live = await this.activeLive(liveId);
    if (!(await canHost(this.lives, actor, live)))
      throw new Forbidden('Only the host and the live moderators can do this', 'not_live_host');
    return live;
  }
}
