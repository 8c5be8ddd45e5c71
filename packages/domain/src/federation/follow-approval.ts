import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { OutsideFollowRequests, OutsideRequestView } from '../social/outside-requests.js';
import { handleOf, remoteIdentityOf, type RemoteActor } from './model.js';
import type { Counted, RemoteActorRepository, RemoteFollowRepository } from './ports.js';

/** A remote actor's Follow of a private account, waiting for the account's answer (docs/decisions/0210). */
export interface RemoteFollowRequest {
  id: number;
  user_id: number;
  actor_url: string;
  /** Id of the remote Follow activity: the Accept or Reject names it, an Undo may name it alone. */
  follow_id: string;
  requested_at: Timestamp;
}

export type NewRemoteFollowRequest = Omit<RemoteFollowRequest, 'id'>;

export interface RemoteFollowRequestRepository {
  /**
   * Stores the request, or refreshes the Follow id of the one the actor already made: one per actor and
   * user. True when this call stored a new request (only that one notifies the account).
   */
  add(request: NewRemoteFollowRequest): Promise<boolean>;
  find(id: number): Promise<RemoteFollowRequest | null>;
  /**
   * Deletes the request if it is still there, in one conditional write: true for the one caller that
   * removed it (of concurrent accepts and rejects, only that one answers).
   */
  remove(id: number): Promise<boolean>;
  /** Undo(Follow) by the actor (object embedded): its request to this user, if any. */
  removeByActor(userId: number, actorUrl: string): Promise<boolean>;
  /** Undo(Follow) naming the Follow by its id alone. */
  removeByFollowId(actorUrl: string, followId: string): Promise<boolean>;
  /** The requests addressed to a user, newest first. */
  pending(userId: number, page: PageRequest): Promise<Counted<RemoteFollowRequest>>;
}
export const RemoteFollowRequestRepository = token<RemoteFollowRequestRepository>('federation.RemoteFollowRequestRepository');

/**
 * The account's notice of a new request: a `friend_request` like a local one, from the remote handle
 * (no local sender), raised in the request's unit of work.
 */
export interface FollowRequestNotices {
  requested(notice: { recipientId: number; handle: string }): Promise<void>;
}

/** What an answer sends: Accept(Follow) or Reject(Follow) to the follower, queued in the answer's unit of work. */
export interface FollowAnswerOutbox {
  accept(user: UserRecord, remote: RemoteActor, followId: string): Promise<void>;
  reject(user: UserRecord, remote: RemoteActor, followId: string): Promise<void>;
}

/**
 * Follow approval (docs/decisions/0210): a private account's actor says `manuallyApprovesFollowers`,
 * and a remote Follow of it waits here until the account accepts (the follower is stored and Accept
 * queued) or rejects (Reject queued). Answered through friends.php like local requests
 * (`OutsideFollowRequests`). Each answer is one conditional delete of the request: of concurrent
 * answers only the one that removed it stores a follower and queues an activity.
 */
export class RemoteFollowApproval implements OutsideFollowRequests {
  constructor(
    private readonly users: UserRepository,
    private readonly actors: RemoteActorRepository,
    private readonly follows: RemoteFollowRepository,
    private readonly requests: RemoteFollowRequestRepository,
    private readonly outbox: FollowAnswerOutbox,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** The account's notice of each new request; none without it. */
    private readonly notices?: FollowRequestNotices,
  ) {}

  /**
   * A verified Follow of a private account: kept as a request (the caller has stored the actor, and
   * runs this in its unit of work). A new request is notified; a repeated Follow only refreshes it.
   */
  async requested(user: UserRecord, remote: RemoteActor, followId: string): Promise<void> {
    const created = await this.requests.add({
      user_id: user.id,
      actor_url: remote.actor_url,
      follow_id: followId,
      requested_at: toTimestamp(this.clock.now()),
    });
    if (created && this.notices) await this.notices.requested({ recipientId: user.id, handle: handleOf(remote) });
  }

  /** Undo(Follow) with the Follow embedded: the pending request goes (the follower, if any, is the caller's). */
  withdrawn(userId: number, actorUrl: string): Promise<boolean> {
    return this.requests.removeByActor(userId, actorUrl);
  }

  /** Undo(Follow) naming the Follow by id alone. */
  withdrawnById(actorUrl: string, followId: string): Promise<boolean> {
    return this.requests.removeByFollowId(actorUrl, followId);
  }

  async pending(actor: Actor, page: PageRequest): Promise<{ items: OutsideRequestView[]; total: number }> {
    const list = await this.requests.pending(actor.userId, page);
    const actors = await this.actors.findMany([...new Set(list.items.map((r) => r.actor_url))]);
    return {
      total: list.total,
      items: list.items.map((r) => ({
        id: r.id,
        requester: remoteIdentityOf(r.actor_url, actors.get(r.actor_url) ?? null),
        created_at: r.requested_at,
      })),
    };
  }

  accept(actor: Actor, id: number): Promise<void> {
    return this.answer(actor, id, async (user, request, remote) => {
      await this.follows.addFollower({
        user_id: user.id,
        actor_url: request.actor_url,
        follow_id: request.follow_id,
        followed_at: toTimestamp(this.clock.now()),
      });
      await this.outbox.accept(user, remote, request.follow_id);
    });
  }

  reject(actor: Actor, id: number): Promise<void> {
    return this.answer(actor, id, (user, request, remote) => this.outbox.reject(user, remote, request.follow_id));
  }

  private async answer(
    actor: Actor,
    id: number,
    then: (user: UserRecord, request: RemoteFollowRequest, remote: RemoteActor) => Promise<void>,
  ): Promise<void> {
    const request = await this.requests.find(id);
    // Another account's request is not told apart from none.
    if (!request || request.user_id !== actor.userId) throw new NotFound('Friend request not found', 'friend_request_not_found');
    const user = await this.users.findById(actor.userId);
    if (!user || user.deleted_at) throw new NotFound('User not found', 'user_not_found');
    const remote = await this.actors.find(request.actor_url);
    if (!remote) throw new NotFound('Friend request not found', 'friend_request_not_found');
    await this.uow.run(async () => {
      if (!(await this.requests.remove(id))) throw new Conflict('This request has already been answered', 'request_not_pending');
      await then(user, request, remote);
    });
  }
}
