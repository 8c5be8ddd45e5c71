import { asSeenBy } from '../accounts/preferences.js';
import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { GroupService, GroupView } from '../groups/index.js';
import type { PageService, PageView } from '../pages/index.js';
import type { Actor } from '../shared/actor.js';
import type { PageRequest } from '../shared/pagination.js';
import { token } from '../shared/token.js';

export const DISCOVER_TYPES = ['all', 'users', 'groups', 'pages'] as const;
export type DiscoverType = (typeof DISCOVER_TYPES)[number];

/** How many accounts the random list holds. */
export const RANDOM_SUGGESTIONS = 10;

/**
 * Accounts to suggest to a viewer, by id. Every list leaves out the viewer, the accounts the viewer
 * already follows, and deleted accounts; each reads an index, never the whole table.
 */
export interface UserSuggestions {
  /** The newest accounts, newest first. */
  newest(viewerId: number, page: PageRequest): Promise<number[]>;
  /** Accounts that name the same cause as `cause` (compared without case), newest first. */
  sameCause(viewerId: number, cause: string, page: PageRequest): Promise<number[]>;
  /** Up to `limit` accounts picked at random, none of `exclude`: a different pick at each call. */
  random(viewerId: number, limit: number, exclude: readonly number[]): Promise<number[]>;
}
export const UserSuggestions = token<UserSuggestions>('discovery.UserSuggestions');

export interface Discoveries {
  users: { new_users: UserRecord[]; same_cause: UserRecord[]; random: UserRecord[] };
  groups: GroupView[];
  pages: PageView[];
}

/**
 * discover.php (contract §16): accounts to follow (new, sharing the viewer's cause, and a random
 * pick, each account in one list at most), public groups the viewer has not joined, and pages the
 * viewer neither runs nor follows. Groups and pages are those contexts' own discover lists, with their
 * visibility rules.
 */
export class DiscoverService {
  constructor(
    private readonly suggestions: UserSuggestions,
    private readonly users: UserRepository,
    private readonly groups: GroupService,
    private readonly pages: PageService,
  ) {}

  async discover(actor: Actor, type: DiscoverType, page: PageRequest): Promise<Discoveries> {
    const [users, groups, pages] = await Promise.all([
      type === 'all' || type === 'users' ? this.people(actor, page) : { new_users: [], same_cause: [], random: [] },
      type === 'all' || type === 'groups'
        ? this.groups.discover(actor, { page: page.page, perPage: page.perPage }).then((l) => l.items)
        : [],
      type === 'all' || type === 'pages' ? this.pages.list(actor, 'discover', null, page).then((l) => l.items) : [],
    ]);
    return { users, groups, pages };
  }

  private async people(actor: Actor, page: PageRequest): Promise<Discoveries['users']> {
    const me = await this.users.findById(actor.userId);
    const cause = me?.cause?.trim() ?? '';
    const newest = await this.suggestions.newest(actor.userId, page);
    const sameCause = cause ? (await this.suggestions.sameCause(actor.userId, cause, page)).filter((id) => !newest.includes(id)) : [];
    const random = await this.suggestions.random(actor.userId, RANDOM_SUGGESTIONS, [...newest, ...sameCause]);
    const records = new Map(
      (await this.users.findByIds([...newest, ...sameCause, ...random])).map((u) => [u.id, asSeenBy(u, actor.userId)]),
    );
    const pick = (ids: number[]) => ids.flatMap((id) => records.get(id) ?? []);
    return { new_users: pick(newest), same_cause: pick(sameCause), random: pick(random) };
  }
}
