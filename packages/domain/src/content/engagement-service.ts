import type { NotificationService } from '../notifications/notification-service.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { ReactionType } from './model.js';
import type { PostEngagementRepository } from './ports.js';
import type { PostService } from './post-service.js';

/** Reactions (a like is the reaction `like`), shares and bookmarks of posts. */
export class EngagementService {
  constructor(
    private readonly posts: PostService,
    private readonly engagement: PostEngagementRepository,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async react(
    actor: Actor,
    postId: number,
    type: ReactionType,
  ): Promise<{ post_id: number; reaction_type: ReactionType; likes_count: number }> {
    const post = await this.posts.visiblePost(actor, postId);
    // The reaction, the post's counter and the notification are stored together.
    await this.uow.run(async () => {
      const outcome = await this.engagement.react(postId, actor.userId, type, toTimestamp(this.clock.now()));
      if (outcome !== 'unchanged') {
        const text = type === 'like' ? `${actor.username} liked your post` : `${actor.username} reacted to your post`;
        await this.notifications.raise(
          {
            user_id: post.user_id,
            from_user_id: actor.userId,
            type: type === 'like' ? 'like' : 'reaction',
            reaction_type: type,
            post_id: postId,
            content: text,
          },
          { title: type === 'like' ? 'Like' : 'Reaction', body: text },
        );
      }
    });
    const after = await this.posts.visiblePost(actor, postId);
    return { post_id: postId, reaction_type: type, likes_count: after.likes_count };
  }

  async unreact(actor: Actor, postId: number): Promise<{ post_id: number; removed: boolean; likes_count: number }> {
    await this.posts.visiblePost(actor, postId);
    const removed = await this.engagement.unreact(postId, actor.userId);
    const after = await this.posts.visiblePost(actor, postId);
    return { post_id: postId, removed, likes_count: after.likes_count };
  }

  async reactions(actor: Actor, postId: number): Promise<Record<string, number>> {
    await this.posts.visiblePost(actor, postId);
    return this.engagement.reactionCounts(postId);
  }

  async share(actor: Actor, postId: number): Promise<{ post_id: number; shared: boolean; shares_count: number }> {
    const post = await this.posts.visiblePost(actor, postId);
    // The share, its wall entry, the post's counter and the notification are stored together.
    const shared = await this.uow.run(async () => {
      const at = toTimestamp(this.clock.now());
      const entryId = await this.engagement.share(postId, actor.userId, at);
      if (entryId !== null) {
        await this.posts.events.shared({ post, userId: actor.userId, entryId, at });
        const text = `${actor.username} shared your post`;
        await this.notifications.raise(
          { user_id: post.user_id, from_user_id: actor.userId, type: 'share', post_id: postId, content: text },
          { title: 'Share', body: text },
        );
      }
      return entryId !== null;
    });
    const after = await this.posts.visiblePost(actor, postId);
    return { post_id: postId, shared, shares_count: after.shares_count };
  }

  async bookmark(actor: Actor, postId: number): Promise<boolean> {
    await this.posts.visiblePost(actor, postId);
    return this.engagement.bookmark(postId, actor.userId, toTimestamp(this.clock.now()));
  }

  async unbookmark(actor: Actor, postId: number): Promise<boolean> {
    // Like un-reacting: a post one cannot see (or that does not exist) is a 404, not "not bookmarked".
    await this.posts.visiblePost(actor, postId);
    return this.engagement.unbookmark(postId, actor.userId);
  }
}
