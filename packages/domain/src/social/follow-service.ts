import type { UserRepository } from '../accounts/ports.js';
import { asSeenBy } from '../accounts/preferences.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { FollowEvents } from './follow-events.js';
import type { FollowRepository } from './ports.js';

export interface UserPage {
  users: UserRecord[];
  meta: PageMeta;
}

/**
 * Loads users by id keeping the order of `ids` (one query), as `viewerId` may see them: presence
 * hidden where its owner turned `privacy_online_status` off.
 */
export async function usersInOrder(users: UserRepository, ids: number[], viewerId: number): Promise<UserRecord[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await users.findByIds(ids)).map((u) => [u.id, asSeenBy(u, viewerId)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export class FollowService {
  constructor(
    private readonly follows: FollowRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /**
     * The follow listeners (follow-events.ts), called inside the unit of work of each change: the home
     * timeline, and the notification of the followed account (notifications/social-notices.ts).
     */
    private readonly events: FollowEvents = new FollowEvents(),
  ) {}

  /** Following twice is not an error; only the first follow is told to the listeners (and notifies), in the same unit of work. */
  async follow(actor: Actor, userId: number): Promise<{ followed: boolean }> {
    if (userId === actor.userId) throw Invalid.field('user_id', 'you cannot follow yourself', 'cannot_follow_self');
    const target = await this.users.findById(userId);
    // A deleted account's tombstone (docs/decisions/0090) takes no new relation.
    if (!target || target.deleted_at !== null) throw new NotFound('User not found', 'user_not_found');
    return this.uow.run(async () => {
      // The insert itself tells whether the relation is new: no read to race with.
      const created = await this.follows.follow(actor.userId, userId, toTimestamp(this.clock.now()));
      if (created) {
        await this.events.followed(actor, userId);
      }
      return { followed: created };
    });
  }

  /** Unfollowing someone one does not follow is not an error; unfollowing no one is a 404. */
  async unfollow(actor: Actor, userId: number): Promise<{ unfollowed: boolean }> {
    if (!(await this.users.findById(userId))) throw new NotFound('User not found', 'user_not_found');
    return this.uow.run(async () => {
      const removed = await this.follows.unfollow(actor.userId, userId);
      if (removed) await this.events.unfollowed(actor.userId, userId);
      return { unfollowed: removed };
    });
  }

  async list(actor: Actor, userId: number | undefined, type: 'followers' | 'following', page: PageRequest): Promise<UserPage> {
    const owner = userId ?? actor.userId;
    if (owner !== actor.userId && !(await this.users.findById(owner))) throw new NotFound('User not found', 'user_not_found');
    const { ids, total } =
      type === 'followers' ? await this.follows.followerIds(owner, page) : await this.follows.followingIds(owner, page);
    return { users: await usersInOrder(this.users, ids, actor.userId), meta: pageMeta(page, total) };
  }
}
