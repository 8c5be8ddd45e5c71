import type { ReportableContent } from '../moderation/ports.js';
import type { Actor } from '../shared/actor.js';
import type { PagePostService } from './page-post-service.js';

/**
 * Page posts as reports.php names them (`post_type: "page"`): the reporter must see the post, and the
 * moderators remove it as page-post deletion allows them to (docs/decisions/0035). A private page is
 * its team's alone, moderators included: a report from inside the team is its admins' to act on.
 */
export class ReportablePagePosts implements ReportableContent {
  readonly type = 'page' as const;

  constructor(private readonly posts: PagePostService) {}

  async find(actor: Actor, postId: number) {
    const { post } = await this.posts.visiblePost(actor, postId);
    return { author_id: post.user_id, content: post.content, media: post.media ? [post.media] : [] };
  }

  remove(moderator: Actor, postId: number): Promise<void> {
    return this.posts.delete(moderator, postId);
  }
}
