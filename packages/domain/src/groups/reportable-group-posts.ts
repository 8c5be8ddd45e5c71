import type { ReportableContent } from '../moderation/ports.js';
import type { Actor } from '../shared/actor.js';
import type { GroupPostService } from './group-post-service.js';

/**
 * Group posts as reports.php names them (`post_type: "group"`): the reporter must see the post (a
 * member, in a private group); while the report is pending the moderators read it and its thread
 * (`GroupPostService.readablePost`), and a `remove` decision deletes it with its thread.
 */
export class ReportableGroupPosts implements ReportableContent {
  readonly type = 'group' as const;

  constructor(private readonly posts: GroupPostService) {}

  async find(actor: Actor, postId: number) {
    const { post } = await this.posts.visiblePost(actor, postId);
    return { author_id: post.user_id, content: post.content, media: post.media };
  }

  remove(moderator: Actor, postId: number): Promise<void> {
    return this.posts.removeByModerators(moderator, postId);
  }
}
