import type { PostService } from '../content/post-service.js';
import type { Actor } from '../shared/actor.js';
import type { ReportableContent } from './ports.js';

/** Wall posts as reports.php names them (`post_type: "post"`): seen and removed through the content context's rules. */
export class ReportableWallPosts implements ReportableContent {
  readonly type = 'post' as const;

  constructor(private readonly posts: PostService) {}

  async find(actor: Actor, postId: number) {
    const post = await this.posts.visiblePost(actor, postId);
    return { author_id: post.user_id, content: post.content, media: post.media };
  }

  remove(moderator: Actor, postId: number): Promise<void> {
    return this.posts.delete(moderator, postId);
  }
}
