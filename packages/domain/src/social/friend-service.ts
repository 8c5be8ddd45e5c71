import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { usersInOrder } from './follow-service.js';
import { FriendEvents } from './friend-events.js';
import type { FriendRequestRepository } from './ports.js';

export interface PendingRequestView {
  request_id: number;
  user: UserRecord;
  created_at: string;
}

/**
 * Friend requests move pending → accepted | rejected; only the addressee decides. An accepted request
 * is the friendship; removing a friend deletes it. A rejected sender may ask again. Each decision
 * runs in one unit of work under the lock of the two users' requests.
 */
export class FriendService {
  constructor(
    private readonly requests: FriendRequestRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** The friend request listeners (friend-events.ts: the notifications), called inside each change's unit of work. */
    private readonly events: FriendEvents = new FriendEvents(),
  ) {}

  /** Asking someone who already asked us is accepting their request. */
  async send(actor: Actor, userId: number): Promise<{ request_id: number; status: 'pending' | 'accepted' }> {
    if (userId === actor.userId) throw Invalid.field('user_id', 'you cannot befriend yourself', 'cannot_befriend_self');
    const target = await this.users.findById(userId);
    // A deleted account's tombstone (docs/decisions/0090) takes no new relation.
    if (!target || target.deleted_at !== null) throw new NotFound('User not found', 'user_not_found');
    return this.betweenLocked(actor.userId, userId, async () => {
      const now = toTimestamp(this.clock.now());
      const reverse = await this.requests.findBetween(userId, actor.userId);
      if (reverse?.status === 'accepted') throw new Conflict('You are already friends', 'already_friends');
      if (reverse?.status === 'pending') {
        // They asked first: asking back is accepting (in this same unit of work).
        await this.accept(actor, reverse.id);
        return { request_id: reverse.id, status: 'accepted' as const };
      }
      const existing = await this.requests.findBetween(actor.userId, userId);
      if (existing?.status === 'accepted') throw new Conflict('You are already friends', 'already_friends');
      if (existing?.status === 'pending') return { request_id: existing.id, status: 'pending' as const };
      let id: number;
      if (existing) {
        await this.requests.setStatus(existing.id, 'pending', now);
        id = existing.id;
      } else {
        id = (await this.requests.create(actor.userId, userId, now)).id;
      }
      await this.events.requested({ actor, recipientId: userId, requestId: id });
      return { request_id: id, status: 'pending' as const };
    });
  }

  /** The friendship and what its listeners write (the notification) are stored together; a request answered meanwhile is a conflict. */
  async accept(actor: Actor, requestId: number): Promise<void> {
    await this.answering(requestId, async () => {
      const request = await this.pendingAddressedTo(actor, requestId);
      await this.requests.setStatus(request.id, 'accepted', toTimestamp(this.clock.now()));
      await this.events.accepted({ actor, senderId: request.sender_id, requestId: request.id });
    });
  }

  async reject(actor: Actor, requestId: number): Promise<void> {
    await this.answering(requestId, async () => {
      const request = await this.pendingAddressedTo(actor, requestId);
      await this.requests.setStatus(request.id, 'rejected', toTimestamp(this.clock.now()));
    });
  }

  async remove(actor: Actor, userId: number): Promise<{ removed: boolean }> {
    if (!(await this.users.findById(userId))) throw new NotFound('User not found', 'user_not_found');
    return this.betweenLocked(actor.userId, userId, async () => {
      const removed = await this.requests.removeFriendship(actor.userId, userId);
      if (!removed) {
        // Withdrawing one's own pending request is the other way to "remove".
        const mine = await this.requests.findBetween(actor.userId, userId);
        if (mine?.status === 'pending') {
          await this.requests.setStatus(mine.id, 'rejected', toTimestamp(this.clock.now()));
          return { removed: true };
        }
      }
      return { removed };
    });
  }

  async friends(actor: Actor, page: PageRequest): Promise<{ users: UserRecord[]; meta: PageMeta }> {
    const { ids, total } = await this.requests.friendIds(actor.userId, page);
    return { users: await usersInOrder(this.users, ids, actor.userId), meta: pageMeta(page, total) };
  }

  async pending(actor: Actor, page: PageRequest): Promise<{ items: PendingRequestView[]; meta: PageMeta }> {
    const { items, total } = await this.requests.pendingReceived(actor.userId, page);
    const users = new Map(
      (
        await usersInOrder(
          this.users,
          items.map((r) => r.sender_id),
          actor.userId,
        )
      ).map((u) => [u.id, u]),
    );
    return {
      items: items.flatMap((r) =>
        users.has(r.sender_id) ? [{ request_id: r.id, user: users.get(r.sender_id)!, created_at: r.created_at }] : [],
      ),
      meta: pageMeta(page, total),
    };
  }

  /**
   * Runs `work` in a unit of work that first takes the lock of the pair's friend requests: every
   * decision between two users (send, accept, reject, remove) reads after it, so none acts on a
   * request another one has just changed.
   */
  private betweenLocked<T>(a: number, b: number, work: () => Promise<T>): Promise<T> {
    return this.uow.run(async () => {
      await this.requests.lockPair(a, b);
      return work();
    });
  }

  /** Answers a request under its pair's lock; the request is looked up once before, to know the pair. */
  private async answering(requestId: number, work: () => Promise<void>): Promise<void> {
    const request = await this.requests.findById(requestId);
    if (!request) throw new NotFound('Friend request not found', 'friend_request_not_found');
    await this.betweenLocked(request.sender_id, request.receiver_id, work);
  }

  private async pendingAddressedTo(actor: Actor, requestId: number) {
    const request = await this.requests.findById(requestId);
    if (!request) throw new NotFound('Friend request not found', 'friend_request_not_found');
    if (request.receiver_id !== actor.userId) throw new Forbidden('Only the addressee can answer this request', 'not_addressee');
    if (request.status !== 'pending') throw new Conflict('This request has already been answered', 'request_not_pending');
    return request;
  }
}
