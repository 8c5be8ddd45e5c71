import { isModerator, type RoleFlags } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import { canModerate } from '../shared/actor.js';
import type { FollowRepository } from '../social/ports.js';
import type { PostRecord } from './model.js';
import type { PostRepository } from './ports.js';

/** Who is looking, as far as visibility cares: an account, and whether it moderates. */
export interface Viewer {
  userId: number;
  moderator: boolean;
}

export function viewerOf(actor: Actor): Viewer {
  return { userId: actor.userId, moderator: canModerate(actor) };
}

/** A user who is not the caller, e.g. the recipient of a notification about a post. */
export function viewerOfUser(user: RoleFlags): Viewer {
  return { userId: user.id, moderator: isModerator(user) };
}

/**
 * Who a post is published to. Every post today is an account's (on its author's wall); group and page
 * posts will add their kinds here (`{ kind: 'group', groupId, privacy }`, …), with the relation they
 * need below (membership, page role), and every path that applies the rule covers them at once.
 */
export type PostAudience =
  | { kind: 'account'; authorId: number; isPrivate: boolean }
  /** A page's posts (pages context, docs/decisions/0035): a private page is its team's only. */
  | { kind: 'page'; pageId: number; isPrivate: boolean }
  /** A community group's posts (groups context, docs/decisions/0030): a private group's are its members' only. */
  | { kind: 'group'; groupId: number; isPrivate: boolean };

/** What the viewer is to the audience, and what the post is to moderation, as far as the rule reads it. */
export interface AudienceRelation {
  follows: boolean;
  /** A pending report names the post, so the moderators must see it to judge it; unknown is not. */
  reported?: boolean;
  /** The viewer is on the team (page_admins) of the page a page post is published on. */
  onTeam?: boolean;
  /** The viewer is a member of the group a group post is published in. */
  member?: boolean;
}

/**
 * THE visibility rule of posts, and of everything that hangs on one (its comments, reactions, shares,
 * bookmarks, the notifications that link it): a public account's posts are everyone's; a private
 * account's are its author's and its followers', and the moderators' while a pending report names the
 * post (they must see what they judge, and nothing more). It is decided each time a post is read, so
 * unfollowing, an account turning private or a report being decided hides what was seen before.
 *
 * Lists apply it in SQL: `postVisibleTo` in adapters-mysql (content/post-visibility.ts) is this rule
 * as a predicate, and the content contract suite holds the SQL and in-memory lists to this function.
 */
export function canSeePost(viewer: Viewer, audience: PostAudience, relation: AudienceRelation): boolean {
  switch (audience.kind) {
    case 'account':
      return (
        !audience.isPrivate || audience.authorId === viewer.userId || relation.follows || (viewer.moderator && relation.reported === true)
      );
    case 'page':
      return !audience.isPrivate || relation.onTeam === true;
    case 'group':
      return !audience.isPrivate || relation.member === true;
  }
}

/** The rule above with the lookups it needs, for the use cases that check one post or one account. */
export class PostVisibility {
  constructor(
    private readonly posts: PostRepository,
    private readonly follows: FollowRepository,
  ) {}

  /** Whether the viewer may see the post; false when its author no longer exists. */
  async canSee(viewer: Viewer, post: Pick<PostRecord, 'id' | 'user_id'>): Promise<boolean> {
    const author = (await this.posts.authors([post.user_id])).get(post.user_id);
    if (author === undefined) return false;
    if (await this.canSeeAccount(viewer, author)) return true;
    // Only a moderator's view depends on the post itself; ask only then.
    return viewer.moderator && canSeePost(viewer, audienceOf(author), { follows: false, reported: await this.posts.underReport(post.id) });
  }

  /**
   * Whether the viewer may see what an account publishes to its own audience: its posts, and also its
   * wall (the shares on it) and its stories, which the app shows to the same people.
   */
  async canSeeAccount(viewer: Viewer, account: { id: number; is_private: boolean }): Promise<boolean> {
    if (!account.is_private || account.id === viewer.userId) return true;
    const follows = await this.follows.isFollowing(viewer.userId, account.id);
    return canSeePost(viewer, audienceOf(account), { follows });
  }
}

function audienceOf(account: { id: number; is_private: boolean }): PostAudience {
  return { kind: 'account', authorId: account.id, isPrivate: account.is_private };
}
