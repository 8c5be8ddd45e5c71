import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';

/**
 * The accounts of these ids (nulls and repeats ignored), read in one call: lists stay at a constant
 * number of queries. `known`: accounts the caller has already read, not read again (none read at all
 * when they are all known).
 */
export async function userMap(
  users: UserRepository,
  ids: (number | null)[],
  known: readonly (UserRecord | null)[] = [],
): Promise<Map<number, UserRecord>> {
  const map = new Map(known.flatMap((u) => (u ? [[u.id, u] as const] : [])));
  const missing = [...new Set(ids.filter((id): id is number => id !== null && !map.has(id)))];
  if (missing.length) for (const u of await users.findByIds(missing)) map.set(u.id, u);
  return map;
}
