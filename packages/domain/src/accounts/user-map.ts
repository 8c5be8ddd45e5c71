import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';

/** The accounts of these ids (nulls and repeats ignored), read in one call: lists stay at a constant number of queries. */
export async function userMap(users: UserRepository, ids: (number | null)[]): Promise<Map<number, UserRecord>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map();
  return new Map((await users.findByIds(unique)).map((u) => [u.id, u]));
}
