import type { Actor } from '../shared/actor.js';
import type { ReportedPostType } from './rules.js';
import type { ReportableContent } from './ports.js';

/** A post of any surface as reports read it: its author, text and media (one file name, several, or none). */
export interface ReportedPost {
  user_id: number;
  content: string;
  media: readonly string[] | string | null;
}

/**
 * What reports need of one surface's posts (wall, group, page): the post as the reporter sees it
 * (NotFound when missing or hidden from them, so a report reveals nothing), and its removal on the
 * moderators' `remove` decision, as that surface lets moderators remove (NotFound when gone already).
 */
export interface ReportedSurface {
  visiblePost(actor: Actor, postId: number): Promise<ReportedPost>;
  removeReported(moderator: Actor, postId: number): Promise<void>;
}

/** The one `ReportableContent` of posts, whatever their surface: reports.php's `post_type` picks it. */
export class ReportablePosts implements ReportableContent {
  constructor(
    readonly type: ReportedPostType,
    private readonly surface: ReportedSurface,
  ) {}

  async find(actor: Actor, postId: number) {
    const post = await this.surface.visiblePost(actor, postId);
    const media = post.media === null ? [] : typeof post.media === 'string' ? [post.media] : [...post.media];
    return { author_id: post.user_id, content: post.content, media };
  }

  remove(moderator: Actor, postId: number): Promise<void> {
    return this.surface.removeReported(moderator, postId);
  }
}
