import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import { viewerOf, viewerOfUser } from '../content/visibility.js';
import type { MediaReferences, Uploader } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { BLANK_PAGE, PAGE_SOCIAL_FIELDS, type PageFields, type PageRecord, type PageRole, type PagePrivacy } from './model.js';
import type { PageRepository, Paged } from './ports.js';
import { canSeePage, pageAllows, type PagePermission } from './rules.js';

export interface PageView {
  page: PageRecord;
  /** The caller's role on the page. */
  role: PageRole | null;
  is_followed: boolean;
}

export interface PagePersonView {
  user: UserRecord;
  role?: PageRole;
  since: string;
}

export type PageListKind = 'managed' | 'followed' | 'discover';

/** What create and update_page accept; absent fields are left as they are (update) or empty (create). */
export type PageInput = Partial<Record<keyof PageFields, string | null>>;

const TEXT_FIELDS = ['description', 'category', 'location', 'website', ...PAGE_SOCIAL_FIELDS] as const;

/** Pages, their team and their followers (pages.php, contract §22). */
export class PageService {
  constructor(
    private readonly pages: PageRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly media: MediaReferences,
  ) {}

  async list(actor: Actor, kind: PageListKind, q: string | null, req: PageRequest): Promise<Paged<PageView>> {
    const found =
      kind === 'managed'
        ? await this.pages.managedBy(actor.userId, req)
        : kind === 'followed'
          ? await this.pages.followedBy(actor.userId, req)
          : await this.pages.discover(actor.userId, q, req);
    const ids = found.items.map((p) => p.id);
    const [roles, follows] = await Promise.all([this.pages.rolesOf(actor.userId, ids), this.pages.followsOf(actor.userId, ids)]);
    return {
      total: found.total,
      // A followed page that turned private is no longer shown to a follower outside its team.
      items: found.items
        .filter((page) => canSeePage(viewerOf(actor), page, roles.get(page.id) ?? null))
        .map((page) => ({ page, role: roles.get(page.id) ?? null, is_followed: follows.has(page.id) })),
    };
  }

  /** The page as the caller may see it: 404 when it does not exist or is private to another team. */
  async visiblePage(actor: Actor, pageId: number): Promise<PageView> {
    const page = await this.pages.findById(pageId);
    const role = page ? ((await this.pages.rolesOf(actor.userId, [pageId])).get(pageId) ?? null) : null;
    if (!page || !canSeePage(viewerOf(actor), page, role)) throw new NotFound('Page not found', 'page_not_found');
    const follows = await this.pages.followsOf(actor.userId, [pageId]);
    return { page, role, is_followed: follows.has(pageId) };
  }

  /** Whether another user (a notification's recipient) may see the page. */
  async canUserSee(user: UserRecord, pageId: number): Promise<boolean> {
    const page = await this.pages.findById(pageId);
    if (!page) return false;
    const role = (await this.pages.rolesOf(user.id, [pageId])).get(pageId) ?? null;
    return canSeePage(viewerOfUser(user), page, role);
  }

  /** The visible page, refused (403) unless the caller's role allows `permission`. */
  async pageAllowing(actor: Actor, pageId: number, permission: PagePermission, refusal: string): Promise<PageView> {
    const view = await this.visiblePage(actor, pageId);
    if (!pageAllows(view.role, permission)) throw new Forbidden(refusal, 'not_page_admin');
    return view;
  }

  /**
   * The page's team (every role) edits it together: one may use an image or a file a teammate uploaded
   * (docs/decisions/0114).
   */
  teamOf(actor: Actor, pageId: number): Uploader {
    return { userId: actor.userId, teammate: async (ownerId) => (await this.pages.rolesOf(ownerId, [pageId])).has(pageId) };
  }

  async create(actor: Actor, input: PageInput): Promise<PageRecord> {
    const name = input.name?.trim() ?? '';
    if (!name) throw Invalid.field('name', 'must not be empty');
    const fields: PageFields = { ...BLANK_PAGE, name, ...(await patchOf(input, this.media, actor)) };
    return this.pages.create({ ...fields, created_by: actor.userId, created_at: toTimestamp(this.clock.now()) });
  }

  async update(actor: Actor, pageId: number, input: PageInput): Promise<PageRecord> {
    await this.pageAllowing(actor, pageId, 'manage', 'Only the page’s admins can update it');
    const patch = await patchOf(input, this.media, this.teamOf(actor, pageId));
    if (input.name !== undefined && !patch.name) throw Invalid.field('name', 'must not be empty');
    await this.pages.update(pageId, patch, toTimestamp(this.clock.now()));
    return (await this.pages.findById(pageId))!;
  }

  async follow(actor: Actor, pageId: number): Promise<{ followed: boolean; followers_count: number }> {
    await this.visiblePage(actor, pageId);
    const added = await this.pages.follow(pageId, actor.userId, toTimestamp(this.clock.now()));
    return { followed: added, followers_count: (await this.pages.findById(pageId))?.followers_count ?? 0 };
  }

  /** Unfollowing needs no visibility: one may always take back a follow. */
  async unfollow(actor: Actor, pageId: number): Promise<{ removed: boolean; followers_count: number }> {
    const page = await this.pages.findById(pageId);
    if (!page) throw new NotFound('Page not found', 'page_not_found');
    const removed = await this.pages.unfollow(pageId, actor.userId);
    return { removed, followers_count: (await this.pages.findById(pageId))?.followers_count ?? 0 };
  }

  async followers(actor: Actor, pageId: number, req: PageRequest): Promise<Paged<PagePersonView>> {
    await this.visiblePage(actor, pageId);
    const rows = await this.pages.followers(pageId, req);
    const users = await this.usersById(rows.items.map((r) => r.user_id));
    return {
      total: rows.total,
      items: rows.items.flatMap((r) => (users.has(r.user_id) ? [{ user: users.get(r.user_id)!, since: r.created_at }] : [])),
    };
  }

  async team(actor: Actor, pageId: number, req: PageRequest): Promise<Paged<PagePersonView>> {
    await this.visiblePage(actor, pageId);
    const rows = await this.pages.team(pageId, req);
    const users = await this.usersById(rows.items.map((r) => r.user_id));
    return {
      total: rows.total,
      items: rows.items.flatMap((r) => (users.has(r.user_id) ? [{ user: users.get(r.user_id)!, role: r.role, since: r.created_at }] : [])),
    };
  }

  /** Adds an account, by username, to the team (admins). */
  async addTeamMember(actor: Actor, pageId: number, username: string, role: PageRole): Promise<{ user_id: number; role: PageRole }> {
    const user = await this.users.findByLogin(username.trim());
    if (!user || user.deleted_at) throw new NotFound('User not found', 'user_not_found');
    return this.uow.run(async () => {
      await this.pages.lock(pageId);
      await this.pageAllowing(actor, pageId, 'manage', 'Only the page’s admins can manage its team');
      const current = (await this.pages.rolesOf(user.id, [pageId])).get(pageId);
      if (current) throw new Conflict('This account is already on the team', 'already_team_member');
      await this.pages.setRole(pageId, user.id, role, toTimestamp(this.clock.now()));
      return { user_id: user.id, role };
    });
  }

  /** Changes a member's role (admins); the last admin cannot become an editor. */
  async updateTeamRole(actor: Actor, pageId: number, userId: number, role: PageRole): Promise<{ user_id: number; role: PageRole }> {
    return this.uow.run(async () => {
      await this.pages.lock(pageId);
      await this.pageAllowing(actor, pageId, 'manage', 'Only the page’s admins can manage its team');
      const current = (await this.pages.rolesOf(userId, [pageId])).get(pageId);
      if (!current) throw new NotFound('This account is not on the team', 'not_team_member');
      if (current === 'admin' && role !== 'admin' && (await this.pages.countAdmins(pageId)) <= 1) {
        throw new Conflict('A page keeps at least one admin', 'last_admin');
      }
      await this.pages.setRole(pageId, userId, role, toTimestamp(this.clock.now()));
      return { user_id: userId, role };
    });
  }

  /** Admins remove anyone; every member may remove themselves. The last admin stays. */
  async removeTeamMember(actor: Actor, pageId: number, userId: number): Promise<void> {
    await this.uow.run(async () => {
      await this.pages.lock(pageId);
      const view = await this.visiblePage(actor, pageId);
      if (userId !== actor.userId && !pageAllows(view.role, 'manage'))
        throw new Forbidden('Only the page’s admins can manage its team', 'not_page_admin');
      const current = (await this.pages.rolesOf(userId, [pageId])).get(pageId);
      if (!current) throw new NotFound('This account is not on the team', 'not_team_member');
      if (current === 'admin' && (await this.pages.countAdmins(pageId)) <= 1)
        throw new Conflict('A page keeps at least one admin', 'last_admin');
      await this.pages.removeMember(pageId, userId);
    });
  }

  async removeFollower(actor: Actor, pageId: number, userId: number): Promise<{ removed: boolean; followers_count: number }> {
    await this.pageAllowing(actor, pageId, 'manage', 'Only the page’s admins can remove followers');
    const removed = await this.pages.unfollow(pageId, userId);
    if (!removed) throw new NotFound('This account does not follow the page', 'not_following');
    return { removed, followers_count: (await this.pages.findById(pageId))?.followers_count ?? 0 };
  }

  private async usersById(ids: number[]): Promise<Map<number, UserRecord>> {
    const found = await this.users.findByIds([...new Set(ids)]);
    return new Map(found.map((u) => [u.id, u]));
  }
}

/** The stored form of the fields given: trimmed texts, checked media references. */
async function patchOf(input: PageInput, media: MediaReferences, uploader: Uploader): Promise<Partial<PageFields>> {
  const patch: Partial<PageFields> = {};
  if (input.name !== undefined && input.name !== null) patch.name = input.name.trim();
  for (const f of TEXT_FIELDS) {
    const v = input[f];
    if (v !== undefined) patch[f] = (v ?? '').trim();
  }
  if (input.website) {
    const w = input.website.trim();
    if (w && !/^https?:\/\/[^\s]+$/i.test(w)) throw Invalid.field('website', 'must be an http(s) address');
  }
  if (input.privacy !== undefined && input.privacy !== null) patch.privacy = input.privacy as PagePrivacy;
  // Page pictures are uploaded with type page (or group, avatar): `page_…`, `group_…`, `avatar_…` under uploads/.
  if (input.avatar !== undefined)
    patch.avatar = await media.optional(uploader, 'avatar', input.avatar, ['group', 'avatar'], { placeholder: true });
  if (input.cover_image !== undefined)
    patch.cover_image = await media.optional(uploader, 'cover_image', input.cover_image, ['group', 'avatar'], { placeholder: true });
  return patch;
}
