import type { PostService } from '../content/post-service.js';
import { ReportablePosts } from './reportable-posts.js';

/** Wall posts as reports.php names them (`post_type: "post"`): seen and removed through the content context's rules. */
export class ReportableWallPosts extends ReportablePosts {
  constructor(posts: PostService) {
    super('post', {
      visiblePost: (actor, postId) => posts.visiblePost(actor, postId),
      removeReported: (moderator, postId) => posts.delete(moderator, postId),
    });
  }
}
