import type { SurfacePostLookup, ShareablePostRef } from '../content/surface-engagement-ports.js';
import type { Actor } from '../shared/actor.js';
import type { GroupPostRecord, GroupRecord } from './model.js';
import { groupLink } from './visibility.js';

/**
 * Group posts for content's bookmarks and shares (docs/decisions/0195), found through the group post
 * service's `visiblePost` (the group rule, `canSeeGroupContent`): a private group's post is its members'
 * only and is not shareable (docs/decisions/0196).
 */
export class GroupSurfacePosts implements SurfacePostLookup {
  readonly type = 'group' as const;

  constructor(
    private readonly posts: { visiblePost(actor: Actor, postId: number): Promise<{ post: GroupPostRecord; group: GroupRecord }> },
  ) {}

  async visiblePost(actor: Actor, postId: number): Promise<ShareablePostRef> {
    const { post, group } = await this.posts.visiblePost(actor, postId);
    return {
      id: post.id,
      user_id: post.user_id,
      shareable: group.privacy === 'public',
      // As GroupSurface.noticePlace places every notice about a group post.
      notice: { surface: 'group', group_id: group.id, link: groupLink(group.id, post.id), in: group.name },
    };
  }
}
