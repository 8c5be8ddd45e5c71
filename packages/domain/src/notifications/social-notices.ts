import type { Actor } from '../shared/actor.js';
import type { FollowEventListener } from '../social/follow-events.js';
import type { FriendAcceptedEvent, FriendEventListener, FriendRequestedEvent } from '../social/friend-events.js';
import type { NotificationService } from './notification-service.js';

/** Where the app lists the requests it answers (contract §14: `friends.php?type=pending`). */
const REQUESTS_LINK = 'friends.php?type=pending';

/**
 * The notices of follows and friend requests, raised by listening to the social context's events
 * (social/follow-events.ts, social/friend-events.ts) instead of being called from its services, so that
 * notifications depend on social and not the reverse (issue 28). Called inside the unit of work of the
 * change: a notice that fails to be stored undoes the follow or the request. The rows and pushes are
 * the ones the app knows: the push's title is the acting account's name.
 */
export class SocialNotices implements FollowEventListener, FriendEventListener {
  constructor(private readonly notifications: NotificationService) {}

  async followed(_followerId: number, followeeId: number, follower: Actor): Promise<void> {
    await this.notifications.raise(
      { user_id: followeeId, from_user_id: follower.userId, type: 'follow', content: `${follower.username} started following you` },
      { title: follower.username, body: `${follower.username} started following you` },
    );
  }

  async requested({ actor, recipientId }: FriendRequestedEvent): Promise<void> {
    await this.notifications.raise(
      { user_id: recipientId, from_user_id: actor.userId, type: 'friend_request', content: `${actor.username} sent you a friend request` },
      { title: actor.username, body: `${actor.username} sent you a friend request` },
    );
  }

  /**
   * A remote account's Follow of a private account, waiting in friends.php's pending list
   * (docs/decisions/0210): a `friend_request`, so the app opens the same requests screen, from no local
   * sender (`from_user_id` null, as remote engagement notices, 0205) and linked to that list.
   */
  async remoteFollowRequested({ recipientId, handle }: { recipientId: number; handle: string }): Promise<void> {
    const text = `${handle} asked to follow you`;
    await this.notifications.raise(
      { user_id: recipientId, from_user_id: null, type: 'friend_request', content: text, link: REQUESTS_LINK },
      { title: handle, body: text },
    );
  }

  async accepted({ actor, senderId }: FriendAcceptedEvent): Promise<void> {
    await this.notifications.raise(
      { user_id: senderId, from_user_id: actor.userId, type: 'friend_accept', content: `${actor.username} accepted your friend request` },
      { title: actor.username, body: `${actor.username} accepted your friend request` },
    );
  }
}
