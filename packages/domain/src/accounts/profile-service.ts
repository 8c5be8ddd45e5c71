import type { MediaReferences } from '../media/references.js';
import { token } from '../shared/token.js';
import type { Actor } from '../shared/actor.js';
import { Invalid, NotFound } from '../shared/errors.js';
import type { UserRepository } from './ports.js';
import { asSeenBy } from './preferences.js';
import type { ProfileEventListener } from './profile-events.js';
import type { Reauthentication, ReauthenticationProof } from './reauthentication.js';
import {
  EDITABLE_PROFILE_FIELDS,
  EMAIL_PATTERN,
  emailTaken,
  type EditableProfileField,
  type ProfilePatch,
  type UserRecord,
} from './user.js';

/** What one user sees of their relation to another, and the counters of a profile. */
export interface ProfileStats {
  posts_count: number;
  followers_count: number;
  following_count: number;
  /** Followers on other servers, and accounts there this user follows (federation; pending included). */
  remote_followers_count: number;
  remote_following_count: number;
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
  /** The account (deleted or not) with its counters and the viewer's relation to it, in one read; null for no account. */
  profileOf(userId: number, viewerId: number | null): Promise<{ user: UserRecord; stats: ProfileStats } | null>;
}
export const ProfileStatsReader = token<ProfileStatsReader>('ProfileStatsReader');

export interface ProfileView {
  user: UserRecord;
  stats: ProfileStats;
  is_self: boolean;
}

/**
 * The longest value of each editable field, within its column (a longer value would fail the write on
 * MySQL): the badge and the status emoji hold preset keys (contract §5.2), in `varchar(64)`.
 * PUT users.php declares the same limits; test/e2e/input-widths.test.ts holds every field to its column.
 */
export const PROFILE_FIELD_MAX_LENGTH: Record<EditableProfileField, number> = {
  display_name: 255,
  bio: 1000,
  cause: 255,
  website: 255,
  avatar: 255,
  banner: 255,
  militant_badge: 64,
  status_emoji: 64,
  status_text: 140,
  twitter: 255,
  instagram: 255,
  facebook: 255,
  tiktok: 255,
  mastodon: 255,
  bluesky: 255,
  location: 255,
  github: 255,
};

/** Profile images are uploads of type `avatar` (contract §5.2), or the "none" placeholder. */
const IMAGE_FIELDS: readonly EditableProfileField[] = ['avatar', 'banner'];

export class ProfileService {
  constructor(
    private readonly users: UserRepository,
    private readonly stats: ProfileStatsReader,
    /** Checks that avatar and banner name uploaded images. */
    private readonly media: MediaReferences,
    /** A new e-mail address needs the password or sudo mode (docs/decisions/0112). */
    private readonly reauthentication: Reauthentication,
    /** Told of each stored edit (federation's Update(Person)); none by default. */
    private readonly listeners: readonly ProfileEventListener[] = [],
  ) {}

  async view(viewer: Actor, userId: number = viewer.userId): Promise<ProfileView> {
    const found = await this.stats.profileOf(userId, viewer.userId);
    // A deleted account's tombstone is no profile (docs/decisions/0090).
    if (!found || (found.user.deleted_at !== null && userId !== viewer.userId)) throw new NotFound('User not found', 'user_not_found');
    return { user: asSeenBy(found.user, viewer.userId), stats: found.stats, is_self: userId === viewer.userId };
  }

  /**
   * Applies the patch; a new `email` also needs `proof` (the password, or sudo mode), checked after
   * every field is valid and before anything is written, so that a refusal changes nothing.
   */
  async update(actor: Actor, patch: ProfilePatch & { email?: string }, proof: ReauthenticationProof = {}): Promise<ProfileView> {
    const clean: ProfilePatch = {};
    for (const field of EDITABLE_PROFILE_FIELDS) {
      if (!(field in patch)) continue;
      const value = patch[field];
      if (value === null || value === undefined) {
        clean[field] = null;
        continue;
      }
      const max = PROFILE_FIELD_MAX_LENGTH[field];
      if (value.length > max) throw Invalid.field(field, `must be at most ${max} characters`);
      if (IMAGE_FIELDS.includes(field)) clean[field] = await this.media.optional(actor, field, value, ['avatar'], { placeholder: true });
      // An empty string is how the client clears a field; it is stored as absent.
      else clean[field] = value.trim() === '' ? null : value.trim();
    }
    const email = patch.email === undefined ? null : await this.newEmail(actor, patch.email, proof);
    if (email !== null) await this.users.updateEmail(actor.userId, email);
    const fields = Object.keys(clean) as EditableProfileField[];
    if (fields.length > 0) await this.users.updateProfile(actor.userId, clean);
    const view = await this.view(actor);
    if (fields.length > 0) for (const listener of this.listeners) await listener.profileEdited(view.user, fields);
    return view;
  }

  /** The address to store after the proof holds; null when it is the current one (nothing to prove). */
  private async newEmail(actor: Actor, input: string, proof: ReauthenticationProof): Promise<string | null> {
    const email = input.trim().toLowerCase();
    if (!EMAIL_PATTERN.test(email) || /\.invalid$/i.test(email) || email.length > 191)
      throw Invalid.field('email', 'not a valid e-mail address', 'invalid_email');
    const user = await this.users.findWithSecrets(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    if (user.email.toLowerCase() === email) return null;
    await this.reauthentication.confirm(user, proof, { secondFactor: false });
    // Checked here for a clear answer; the unique key refuses an address taken meanwhile the same way.
    const owner = await this.users.findByEmail(email);
    if (owner && owner.id !== user.id) throw emailTaken();
    return email;
  }
}
