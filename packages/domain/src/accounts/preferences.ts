import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Invalid, NotFound } from '../shared/errors.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { UserRepository } from './ports.js';
import type { ProfileEventListener } from './profile-events.js';
import type { UserRecord } from './user.js';

/** The switches of contract §7: both clients' keys (the second client adds email, messages and friend requests). */
export const NOTIFICATION_PREFERENCES = [
  'notifications_push',
  'notifications_likes',
  'notifications_comments',
  'notifications_follows',
  'notifications_mentions',
  'notifications_messages',
  'notifications_friend_requests',
  'notifications_email',
] as const;
export type NotificationPreference = (typeof NOTIFICATION_PREFERENCES)[number];

export const PRIVACY_PREFERENCES = [
  'privacy_private_account',
  'privacy_allow_messages',
  'privacy_online_status',
  'privacy_read_receipts',
] as const;
export type PrivacyPreference = (typeof PRIVACY_PREFERENCES)[number];

export const PREFERENCE_KEYS = [...NOTIFICATION_PREFERENCES, ...PRIVACY_PREFERENCES] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];
export type Preferences = Record<PreferenceKey, boolean>;

/** Another spelling a client sends for a key. */
export const PREFERENCE_ALIASES: Record<string, PreferenceKey> = { email_notifications: 'notifications_email' };

/** Everything on, except what a user must ask for: a private account, and activity by e-mail. */
export const NOTIFICATION_DEFAULTS: Record<NotificationPreference, boolean> = {
  notifications_push: true,
  notifications_likes: true,
  notifications_comments: true,
  notifications_follows: true,
  notifications_mentions: true,
  notifications_messages: true,
  notifications_friend_requests: true,
  notifications_email: false,
};

/**
 * The notification switches of each user. The privacy ones are stored on the account itself
 * (`UserRecord`), because other contexts' reads apply them to every user they list.
 */
export interface NotificationPreferenceRepository {
  /** The switches the user changed; absent keys keep their default. */
  get(userId: number): Promise<Partial<Record<NotificationPreference, boolean>>>;
  set(userId: number, values: Partial<Record<NotificationPreference, boolean>>, at: Timestamp): Promise<void>;
  deleteOfUser(userId: number): Promise<void>;
}
export const NotificationPreferenceRepository = token<NotificationPreferenceRepository>('NotificationPreferenceRepository');

/** Which switch governs a notification or push of this type; null when none does (always delivered). */
export function notificationSwitch(type: string): NotificationPreference | null {
  switch (type) {
    case 'like':
    case 'reaction':
      return 'notifications_likes';
    case 'comment':
    case 'reply':
      return 'notifications_comments';
    case 'follow':
      return 'notifications_follows';
    case 'mention':
      return 'notifications_mentions';
    case 'friend_request':
    case 'friend_accept':
      return 'notifications_friend_requests';
    case 'message':
    case 'group_message':
      return 'notifications_messages';
    default:
      return null;
  }
}

export type NotificationSwitches = Record<NotificationPreference, boolean>;

export function withNotificationDefaults(stored: Partial<Record<NotificationPreference, boolean>>): NotificationSwitches {
  return { ...NOTIFICATION_DEFAULTS, ...stored };
}

/** Whether a notification of this type is stored for the user at all. */
export function wantsNotification(switches: NotificationSwitches, type: string): boolean {
  const key = notificationSwitch(type);
  return key === null || switches[key];
}

/** Whether it is also pushed to the user's devices: its own switch and the push switch. */
export function wantsPush(switches: NotificationSwitches, type: string): boolean {
  return switches.notifications_push && wantsNotification(switches, type);
}

/** The account as `viewerId` sees it: its owner may hide when they were last active (is_online, last_active). */
export function asSeenBy(user: UserRecord, viewerId: number | null): UserRecord {
  if (user.id === viewerId || user.show_online_status) return user;
  return { ...user, last_active_at: null };
}

/**
 * `privacy_allow_messages` turned off: only friends and the accounts the recipient follows may write
 * to them (their own side of a conversation is never refused).
 */
export function acceptsMessageFrom(
  recipient: Pick<UserRecord, 'allow_messages'>,
  relation: { friends: boolean; recipientFollowsSender: boolean },
): boolean {
  return recipient.allow_messages || relation.friends || relation.recipientFollowsSender;
}

function privacyOf(user: UserRecord): Record<PrivacyPreference, boolean> {
  return {
    privacy_private_account: user.is_private,
    privacy_allow_messages: user.allow_messages,
    privacy_online_status: user.show_online_status,
    privacy_read_receipts: user.read_receipts,
  };
}

/** user_preferences.php: read and change one's own preferences. */
export class PreferenceService {
  constructor(
    private readonly users: UserRepository,
    private readonly notifications: NotificationPreferenceRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Told when the account turns private or public (federation's Update(Person)); none by default. */
    private readonly listeners: readonly ProfileEventListener[] = [],
  ) {}

  async view(actor: Actor): Promise<Preferences> {
    const user = await this.users.findById(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    return { ...withNotificationDefaults(await this.notifications.get(user.id)), ...privacyOf(user) };
  }

  /** Changes the keys given (one at a time from the clients, several allowed); returns them all. */
  async update(actor: Actor, patch: Partial<Preferences>): Promise<Preferences> {
    const keys = Object.keys(patch) as PreferenceKey[];
    if (keys.length === 0)
      throw new Invalid('Send at least one preference', 'no_preference', [
        { field: '(body)', problem: `send one of ${PREFERENCE_KEYS.join(', ')}` },
      ]);
    const notifications: Partial<Record<NotificationPreference, boolean>> = {};
    for (const key of NOTIFICATION_PREFERENCES) if (patch[key] !== undefined) notifications[key] = patch[key];
    const privacy: Parameters<UserRepository['setPrivacy']>[1] = {};
    if (patch.privacy_private_account !== undefined) privacy.is_private = patch.privacy_private_account;
    if (patch.privacy_allow_messages !== undefined) privacy.allow_messages = patch.privacy_allow_messages;
    if (patch.privacy_online_status !== undefined) privacy.show_online_status = patch.privacy_online_status;
    if (patch.privacy_read_receipts !== undefined) privacy.read_receipts = patch.privacy_read_receipts;
    await this.uow.run(async () => {
      // Read in the write's unit of work: the listeners are told only of a switch that changes the account.
      const before = privacy.is_private === undefined ? null : await this.users.findById(actor.userId);
      if (Object.keys(privacy).length) await this.users.setPrivacy(actor.userId, privacy);
      if (Object.keys(notifications).length) await this.notifications.set(actor.userId, notifications, toTimestamp(this.clock.now()));
      if (before && before.is_private !== privacy.is_private) {
        const after = await this.users.findById(actor.userId);
        if (after) for (const listener of this.listeners) await listener.visibilityChanged(after);
      }
    });
    return this.view(actor);
  }
}
