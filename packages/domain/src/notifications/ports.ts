import { token } from '../shared/token.js';
import type { NewNotification, NotificationRecord } from './notification.js';
import type { Timestamp } from '../shared/time.js';

export interface NotificationRepository {
  create(notification: NewNotification & { created_at: Timestamp }): Promise<NotificationRecord>;
}
export const NotificationRepository = token<NotificationRepository>('NotificationRepository');

export interface PushMessage {
  title: string;
  body: string;
  /** Flat string map, as both OneSignal additional data and ntfy extras carry it. */
  data: Record<string, string>;
  /** Only through these providers (notifications.php's test push); every configured one when absent. */
  providers?: readonly ('onesignal' | 'ntfy')[];
}

/** Delivers a push to every device of a user. Failures are the adapter's to log, never the caller's. */
export interface PushSender {
  send(userId: number, message: PushMessage): Promise<void>;
}
export const PushSender = token<PushSender>('PushSender');
