import { canSeePost, type Viewer } from '../content/visibility.js';
import type { PageRecord, PageRole } from './model.js';

/**
 * Who may do what on a page (docs/decisions/0035). The team is page_admins: an `admin` runs the page
 * (its details, its team, its followers) and everything an editor may; an `editor` publishes. Site
 * moderators may remove content anywhere, as they do on posts, but never run a page.
 */
export const PAGE_PERMISSIONS = {
  /** Publishing (spec Authentication 9: page posting requires membership of page_admins). */
  publish: ['admin', 'editor'],
  /** update_page, add_team_member, update_team_role, remove_team_member (others), remove_follower. */
  manage: ['admin'],
  /** Deleting any post of the page, not only one's own. */
  deleteAnyPost: ['admin'],
  /** Deleting any comment under the page's posts. */
  deleteAnyComment: ['admin', 'editor'],
} as const satisfies Record<string, readonly PageRole[]>;

export type PagePermission = keyof typeof PAGE_PERMISSIONS;

export function pageAllows(role: PageRole | null, permission: PagePermission): boolean {
  return role !== null && (PAGE_PERMISSIONS[permission] as readonly PageRole[]).includes(role);
}

/**
 * Who sees a page, its posts and their comments: the one visibility rule of posts (`canSeePost`,
 * content/visibility.ts) with the page's audience: a public page is everyone's; a private page (one
 * not published yet) is its team's only. Decided at every read.
 */
export function canSeePage(viewer: Viewer, page: Pick<PageRecord, 'id' | 'privacy'>, role: PageRole | null): boolean {
  return canSeePost(
    viewer,
    { kind: 'page', pageId: page.id, isPrivate: page.privacy === 'private' },
    { follows: false, onTeam: role !== null },
  );
}
