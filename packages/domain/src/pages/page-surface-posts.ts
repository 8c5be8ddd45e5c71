import type { SurfacePostLookup, ShareablePostRef } from '../content/surface-engagement-ports.js';
import type { Actor } from '../shared/actor.js';
import type { PagePostRecord } from './model.js';
import type { PageView } from './page-service.js';

/**
 * Page posts for content's bookmarks and shares (docs/decisions/0195), found through the page post
 * service's `visiblePost` (the page rule, `canSeePage`): a public page's post may be shared, a private
 * page's (its team's only, a page not published yet) may not (docs/decisions/0196).
 */
export class PageSurfacePosts implements SurfacePostLookup {
  readonly type = 'page' as const;

  constructor(private readonly posts: { visiblePost(actor: Actor, postId: number): Promise<{ post: PagePostRecord; page: PageView }> }) {}

  async visiblePost(actor: Actor, postId: number): Promise<ShareablePostRef> {
    const { post, page } = await this.posts.visiblePost(actor, postId);
    // A page's posts tell no one (PageSurface.noticePlace, docs/decisions/0120).
    return { id: post.id, user_id: post.user_id, shareable: page.page.privacy === 'public', notice: null };
  }
}
