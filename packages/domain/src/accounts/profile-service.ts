import { token } from '../shared/token.js';
import type { Actor } from '../shared/actor.js';
import { Invalid, NotFound } from '../shared/errors.js';
import type { UserRepository } from './ports.js';
import { EDITABLE_PROFILE_FIELDS, type ProfilePatch, type UserRecord } from './user.js';

/** What one user sees of their relation to another, and the counters of a profile. */
export interface ProfileStats {
  posts_count: number;
  followers_count: number;
  following_count: number;
  is_following: boolean;
  is_followed_by: boolean;
  is_friend: boolean;
  sent_request_id: number | null;
  received_request_id: number | null;
}

/**
 * Read view over every table that relates users. Each feature that adds a relation (posts, follows,
 * friends) extends the SQL implementation; one call answers a whole profile.
 */
export interface ProfileStatsReader {
  statsFor(userId: number, viewerId: number | null): Promise<ProfileStats>;
}
export const ProfileStatsReader = token<ProfileStatsReader>('ProfileStatsReader');

export interface ProfileView {
  user: UserRecord;
  stats: ProfileStats;
  is_self: boolean;
}

const MAX_FIELD_LENGTH: Partial<Record<keyof ProfilePatch, number>> = { bio: 1000, status_text: 140 };

export class ProfileService {
  constructor(
    private readonly users: UserRepository,
    private readonly stats: ProfileStatsReader,
  ) {}

  async view(viewer: Actor, userId: number = viewer.userId): Promise<ProfileView> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    return { user, stats: await this.stats.statsFor(userId, viewer.userId), is_self: userId === viewer.userId };
  }

  async update(actor: Actor, patch: ProfilePatch): Promise<ProfileView> {
    const clean: ProfilePatch = {};
    for (const field of EDITABLE_PROFILE_FIELDS) {
      if (!(field in patch)) continue;
      const value = patch[field];
      if (value === null || value === undefined) {
        clean[field] = null;
        continue;
      }
      const max = MAX_FIELD_LENGTH[field] ?? 255;
      if (value.length > max) throw Invalid.field(field, `must be at most ${max} characters`);
      // An empty string is how the client clears a field; it is stored as absent.
      clean[field] = value.trim() === '' ? null : value.trim();
    }
    if (Object.keys(clean).length > 0) await this.users.updateProfile(actor.userId, clean);
    return this.view(actor);
  }
}
