import type { AuthChanges, AuthInvalidation } from '../auth-invalidation.js';

/**
 * The signal in memory: one log of publications, numbered. Several "processes" of one test share an
 * instance (each keeps its own cursor), as processes share a database.
 */
export class InMemoryAuthInvalidation implements AuthInvalidation {
  private readonly log: number[] = [];

  async publish(userId: number): Promise<void> {
    this.log.push(userId);
  }

  async changedSince(cursor: string | null): Promise<AuthChanges> {
    const from = cursor === null ? this.log.length : Number(cursor);
    return { cursor: String(this.log.length), userIds: [...new Set(this.log.slice(from))], everyone: false };
  }
}
