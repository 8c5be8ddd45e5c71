import type {
  CommentedEvent,
  CommentReactedEvent,
  EngagementListener,
  MentionedEvent,
  NoticePlace,
  PostReactedEvent,
  SharedEvent,
} from '../content/engagement-events.js';
import type { NotificationService } from './notification-service.js';

/**
 * The notices of reactions, comments, shares and mentions, raised by listening to the publishing core's
 * events (content/engagement-events.ts) instead of being called from it. The texts, types, links and
 * push payloads are the ones the app knows per surface: a wall post's like is a `like`, any other
 * reaction a `reaction`; in a group every text ends with "in <group>" and links the group.
 */
export class EngagementNotices implements EngagementListener {
  constructor(private readonly notifications: NotificationService) {}

  async postReacted({ actor, recipientId, reaction, place }: PostReactedEvent): Promise<void> {
    const like = place.surface === 'wall' && reaction === 'like';
    const text = `${actor.username} ${like ? 'liked' : 'reacted to'} your post${where(place)}`;
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: actor.userId,
        type: like ? 'like' : 'reaction',
        reaction_type: reaction,
        ...links(place),
        content: text,
      },
      { title: like ? 'Like' : 'Reaction', body: text },
    );
  }

  async commented({ actor, commentId, postAuthorId, parentAuthorId, place }: CommentedEvent): Promise<void> {
    if (postAuthorId !== null) {
      const text = `${actor.username} commented on your post${where(place)}`;
      await this.notifications.raise(
        { user_id: postAuthorId, from_user_id: actor.userId, type: 'comment', ...links(place), comment_id: commentId, content: text },
        { title: 'Comment', body: text },
      );
    }
    if (parentAuthorId !== null) {
      const text = `${actor.username} replied to your comment${where(place)}`;
      await this.notifications.raise(
        { user_id: parentAuthorId, from_user_id: actor.userId, type: 'reply', ...links(place), comment_id: commentId, content: text },
        { title: 'Reply', body: text },
      );
    }
  }

  async commentReacted({ actor, recipientId, commentId, reaction, place }: CommentReactedEvent): Promise<void> {
    const text = `${actor.username} reacted to your comment`;
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: actor.userId,
        type: 'reaction',
        reaction_type: reaction,
        ...links(place),
        comment_id: commentId,
        content: text,
      },
      { title: 'Reaction', body: text },
    );
  }

  async shared({ actor, recipientId, postId }: SharedEvent): Promise<void> {
    const text = `${actor.username} shared your post`;
    await this.notifications.raise(
      { user_id: recipientId, from_user_id: actor.userId, type: 'share', post_id: postId, content: text },
      { title: 'Share', body: text },
    );
  }

  async mentioned({ actor, recipientId, postId, commentId }: MentionedEvent): Promise<void> {
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: actor.userId,
        type: 'mention',
        post_id: postId,
        comment_id: commentId,
        content: `${actor.username} mentioned you`,
      },
      { title: 'Mention', body: `${actor.username} mentioned you` },
    );
  }
}

/** What a notice links, as the surface placed it (only the fields the surface sets). */
function links(place: NoticePlace): { post_id?: number | null; group_id?: number | null; link?: string | null } {
  const { surface: _surface, in: _in, ...rest } = place;
  return rest;
}

function where(place: NoticePlace): string {
  return place.in ? ` in ${place.in}` : '';
}
