import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { EngagementEvents } from './engagement-events.js';
import type { ReactionType } from './model.js';
import type { PostEngagementRepository } from './ports.js';
import type { PostService } from './post-service.js';

/** Reactions (a like is the reaction `like`), shares and bookmarks of posts. */
export class EngagementService {
  constructor(
    private readonly posts: PostService,
    private readonly engagement: PostEngagementRepository,
    /** The engagement listeners (notifications among them), called inside each write's unit of work. */
    private readonly events: EngagementEvents,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * The publishing core with the wall surface (post-service.ts) puts the reaction, as it does on groups and
   * pages: the one reaction rule under the post's lock, the author told if they still see it, the counter
   * read under the lock.
   */
  async react(
    actor: Actor,
    postId: number,
    type: ReactionType,
  ): Promise<{ post_id: number; reaction_type: ReactionType; likes_count: number }> {
    const { post } = await this.posts.core.react(actor, postId, type);
    return { post_id: postId, reaction_type: type, likes_count: post.likes_count };
  }

  /** The core takes the reaction back (never announced); the counter is read after its unit of work. */
  async unreact(actor: Actor, postId: number): Promise<{ post_id: number; removed: boolean; likes_count: number }> {
    const removed = await this.posts.core.unreact(actor, postId);
    const after = await this.posts.core.store.findPost(postId);
    return { post_id: postId, removed, likes_count: after?.likes_count ?? 0 };
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
        await this.events.shared({ actor, recipientId: post.user_id, postId });
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
