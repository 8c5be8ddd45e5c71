import type { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import type { PageRequest } from '../../shared/pagination.js';
import { offsetOf } from '../../shared/pagination.js';
import type { InMemoryFollowRepository } from '../../social/testing/in-memory-social.js';
import type { UserSuggestions } from '../suggestions.js';

/** Suggestions over the in-memory users and follows, with the SQL adapter's rules. */
export class InMemoryUserSuggestions implements UserSuggestions {
  constructor(
    private readonly users: InMemoryUserRepository,
    private readonly follows: InMemoryFollowRepository,
  ) {}

  async newest(viewerId: number, page: PageRequest) {
    return this.slice(this.candidates(viewerId), page);
  }

  async sameCause(viewerId: number, cause: string, page: PageRequest) {
    const wanted = cause.toLowerCase();
    return this.slice(
      this.candidates(viewerId).filter((id) => this.users.rows.get(id)?.cause?.toLowerCase() === wanted),
      page,
    );
  }

  async random(viewerId: number, limit: number, exclude: readonly number[]) {
    const pool = this.candidates(viewerId).filter((id) => !exclude.includes(id));
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, limit);
  }

  /** Newest first: everyone but the viewer, the accounts they follow and deleted accounts. */
  private candidates(viewerId: number): number[] {
    const followed = new Set(this.follows.edges.filter((e) => e.follower_id === viewerId).map((e) => e.followee_id));
    return [...this.users.rows.values()]
      .filter((u) => u.id !== viewerId && u.deleted_at === null && !followed.has(u.id))
      .map((u) => u.id)
      .sort((a, b) => b - a);
  }

  private slice(ids: number[], page: PageRequest): number[] {
    return ids.slice(offsetOf(page), offsetOf(page) + page.perPage);
  }
}
