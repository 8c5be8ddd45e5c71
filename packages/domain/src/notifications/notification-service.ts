import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import type { NewNotification, NotificationRecord } from './notification.js';
import type { NotificationRepository, PushSender } from './ports.js';

/**
 * The one way every feature raises a notification: it is stored for notifications.php and pushed to
 * the recipient's devices. Nobody is notified of their own actions.
 */
export class NotificationService {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly push: PushSender,
    private readonly clock: Clock,
  ) {}

  async raise(input: NewNotification, push?: { title: string; body: string }): Promise<NotificationRecord | null> {
    if (input.from_user_id !== null && input.from_user_id === input.user_id) return null;
    const record = await this.notifications.create({ ...input, created_at: toTimestamp(this.clock.now()) });
    if (push) {
      await this.push.send(input.user_id, {
        title: push.title,
        body: push.body,
        data: pushData(record),
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
