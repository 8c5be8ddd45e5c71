import type {
  CommentedEvent,
  CommentReactedEvent,
  EngagementListener,
  MentionedEvent,
  NoticePlace,
  PostReactedEvent,
  SharedEvent,
} from '../content/engagement-events.js';
import type { ReactionType } from '../content/model.js';
import type { Actor } from '../shared/actor.js';
import type { NotificationService } from './notification-service.js';

/**
 * The notices of reactions, comments, shares and mentions, raised by listening to the publishing core's
 * events (content/engagement-events.ts) instead of being called from it. The texts, types, links and
 * push payloads are the ones the app knows per surface: a wall post's like is a `like`, any other
 * reaction a `reaction`; in a group every text ends with "in <group>" and links the group.
 */
export class EngagementNotices implements EngagementListener {
  constructor(private readonly notifications: NotificationService) {}

  postReacted({ actor, recipientId, reaction, place }: PostReactedEvent): Promise<void> {
    return this.reaction(senderOf(actor), recipientId, reaction, place);
  }

  /** A reaction on a post, from a local account or a remote one (federation's inbound likes). */
  async reaction(from: NoticeSender, recipientId: number, reaction: ReactionType, place: NoticePlace): Promise<void> {
    const like = place.surface === 'wall' && reaction === 'like';
    const text = `${from.name} ${like ? 'liked' : 'reacted to'} your post${where(place)}`;
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: from.userId,
        type: like ? 'like' : 'reaction',
        reaction_type: reaction,
        ...links(place),
        content: text,
      },
      { title: like ? 'Like' : 'Reaction', body: text },
    );
  }

  async commented({ actor, commentId, postAuthorId, parentAuthorId, place }: CommentedEvent): Promise<void> {
    if (postAuthorId !== null) await this.comment(senderOf(actor), postAuthorId, commentId, false, place);
    if (parentAuthorId !== null) await this.comment(senderOf(actor), parentAuthorId, commentId, true, place);
  }

  /** A comment on a post (`reply`: on a comment), from a local account or a remote one. */
  async comment(from: NoticeSender, recipientId: number, commentId: number, reply: boolean, place: NoticePlace): Promise<void> {
    const text = `${from.name} ${reply ? 'replied to your comment' : 'commented on your post'}${where(place)}`;
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: from.userId,
        type: reply ? 'reply' : 'comment',
        ...links(place),
        comment_id: commentId,
        content: text,
      },
      { title: reply ? 'Reply' : 'Comment', body: text },
    );
  }

  commentReacted({ actor, recipientId, commentId, reaction, place }: CommentReactedEvent): Promise<void> {
    return this.commentReaction(senderOf(actor), recipientId, commentId, reaction, place);
  }

  /** A reaction on a comment, from a local account or a remote one (federation's inbound likes). */
  async commentReaction(
    from: NoticeSender,
    recipientId: number,
    commentId: number,
    reaction: ReactionType,
    place: NoticePlace,
  ): Promise<void> {
    const text = `${from.name} reacted to your comment`;
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: from.userId,
        type: 'reaction',
        reaction_type: reaction,
        ...links(place),
        comment_id: commentId,
        content: text,
      },
      { title: 'Reaction', body: text },
    );
  }

  shared({ actor, recipientId, postId, place }: SharedEvent): Promise<void> {
    return this.share(senderOf(actor), recipientId, postId, place);
  }

  /**
   * A first share of a post, by a local account or a remote one (an Announce). A wall post's notice
   * names the post; a group post's names its group and links the post there, as a reaction's does
   * (the app opens `post_id` through posts.php, where a group post's id names another post).
   */
  async share(from: NoticeSender, recipientId: number, postId: number, place?: NoticePlace): Promise<void> {
    const text = `${from.name} shared your post${place ? where(place) : ''}`;
    await this.notifications.raise(
      {
        user_id: recipientId,
        from_user_id: from.userId,
        type: 'share',
        ...(place ? links(place) : { post_id: postId }),
        content: text,
      },
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

/** Whom a notice is from: a local account, or a remote one (named by its handle, no user id). */
export interface NoticeSender {
  name: string;
  userId: number | null;
}

function senderOf(actor: Actor): NoticeSender {
  return { name: actor.username, userId: actor.userId };
}

/** What a notice links, as the surface placed it (only the fields the surface sets). */
function links(place: NoticePlace): { post_id?: number | null; group_id?: number | null; link?: string | null } {
  const { surface: _surface, in: _in, ...rest } = place;
  return rest;
}

function where(place: NoticePlace): string {
  return place.in ? ` in ${place.in}` : '';
}
