import type { NewNotification, NotificationRecord } from '../notification.js';
import type { NotificationRepository, PushMessage, PushSender } from '../ports.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';

export class InMemoryNotificationRepository implements NotificationRepository, Snapshottable {
  readonly rows: NotificationRecord[] = [];
  snapshot() {
    return captureState(this.rows);
  }
  async create(n: NewNotification & { created_at: Timestamp }) {
    const record: NotificationRecord = {
      id: this.rows.length + 1,
      user_id: n.user_id,
      from_user_id: n.from_user_id,
      type: n.type,
      content: n.content ?? null,
      post_id: n.post_id ?? null,
      comment_id: n.comment_id ?? null,
      group_id: n.group_id ?? null,
      reaction_type: n.reaction_type ?? null,
      link: n.link ?? null,
      is_read: false,
      created_at: n.created_at,
    };
    this.rows.push(record);
    return { ...record };
  }
}

export class RecordingPushSender implements PushSender {
  readonly sent: { userId: number; message: PushMessage }[] = [];
  async send(userId: number, message: PushMessage) {
    this.sent.push({ userId, message });
  }
}
