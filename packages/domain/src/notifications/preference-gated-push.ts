import { type NotificationPreferenceRepository, wantsPush, withNotificationDefaults } from '../accounts/preferences.js';
import type { PushMessage, PushSender } from './ports.js';

/** Pushes that are signalling rather than notifications: an incoming call rings whatever the switches say. */
const ALWAYS_PUSHED = new Set(['call']);

/**
 * The one gate every push passes (notifications, private and group messages, whatever comes next):
 * the recipient's `notifications_push` switch, and the switch of the push's kind (`data.type`), as
 * user_preferences.php sets them. Bound as the `PushSender` every service uses, in front of the
 * delivering transport.
 */
export class PreferenceGatedPushSender implements PushSender {
  constructor(
    private readonly transport: PushSender,
    private readonly preferences: NotificationPreferenceRepository,
  ) {}

  async send(userId: number, message: PushMessage): Promise<void> {
    const type = message.data.type ?? '';
    if (!ALWAYS_PUSHED.has(type) && !wantsPush(withNotificationDefaults(await this.preferences.get(userId)), type)) return;
    await this.transport.send(userId, message);
  }
}
