import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { putReaction, reactionSlotsOf, removeReaction } from '../shared/reaction-rule.js';
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

  /** A wall post's reactions, as the one reaction rule (shared/reaction-rule.ts) puts and removes them. */
  private get slots() {
    return reactionSlotsOf<ReactionType>(this.engagement);
  }

  async react(
    actor: Actor,
    postId: number,
    type: ReactionType,
  ): Promise<{ post_id: number; reaction_type: ReactionType; likes_count: number }> {
    const post = await this.posts.visiblePost(actor, postId);
    // The reaction, the post's counter and the notification are stored together.
    await this.uow.run(() =>
      putReaction(this.slots, postId, actor.userId, type, toTimestamp(this.clock.now()), {
        notify: (change) =>
          this.events.postReacted({
            actor,
            recipientId: post.user_id,
            reaction: type,
            change,
            place: { surface: 'wall', post_id: postId },
          }),
      }),
    );
    const after = await this.posts.visiblePost(actor, postId);
    return { post_id: postId, reaction_type: type, likes_count: after.likes_count };
  }

  async unreact(actor: Actor, postId: number): Promise<{ post_id: number; removed: boolean; likes_count: number }> {
    await this.posts.visiblePost(actor, postId);
    const removed = await removeReaction(this.slots, postId, actor.userId);
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
