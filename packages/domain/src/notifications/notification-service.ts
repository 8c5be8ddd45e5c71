import { type NotificationPreferenceRepository, wantsNotification, withNotificationDefaults } from '../accounts/preferences.js';
import type { NotificationEmails } from '../accounts/notification-emails.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import type { NewNotification, NotificationRecord } from './notification.js';
import type { NotificationRepository, PushMessage, PushSender } from './ports.js';

/**
 * The one way every feature raises a notification: it is stored for notifications.php and pushed to
 * the recipient's devices. Nobody is notified of their own actions, and the recipient's switches
 * (user_preferences.php `notifications_*`) decide whether a kind is stored at all; whether it is also
 * pushed is the gate in front of every push (`PreferenceGatedPushSender`).
 */
export class NotificationService {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly push: PushSender,
    private readonly clock: Clock,
    /** The recipients' switches; without it every notification is stored and pushed (unit tests of other contexts). */
    private readonly preferences?: NotificationPreferenceRepository,
    /** E-mail copies for the recipients who turned `notifications_email` on. */
    private readonly emails?: Pick<NotificationEmails, 'queue'>,
  ) {}

  async raise(
    input: NewNotification,
    push?: { title: string; body: string; providers?: PushMessage['providers'] },
  ): Promise<NotificationRecord | null> {
    if (input.from_user_id !== null && input.from_user_id === input.user_id) return null;
    const switches = withNotificationDefaults(this.preferences ? await this.preferences.get(input.user_id) : {});
    if (!wantsNotification(switches, input.type)) return null;
    const record = await this.notifications.create({ ...input, created_at: toTimestamp(this.clock.now()) });
    const text = input.content ?? push?.body;
    if (switches.notifications_email && this.emails && text) await this.emails.queue(input.user_id, text);
    if (push) {
      await this.push.send(input.user_id, {
        title: push.title,
        body: push.body,
        data: pushData(record),
        ...(push.providers ? { providers: push.providers } : {}),
      });
    }
    return record;
  }
}

function pushData(n: NotificationRecord): Record<string, string> {
  const data: Record<string, string> = { type: n.type, notification_id: String(n.id) };
  if (n.from_user_id !== null) data.from_user_id = String(n.from_user_id);
  if (n.post_id !== null) data.post_id = String(n.post_id);
  if (n.group_id !== null) data.group_id = String(n.group_id);
  return data;
}
