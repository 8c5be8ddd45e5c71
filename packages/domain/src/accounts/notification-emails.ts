import type { MailDeliveryService } from './mail-outbox.js';
import { notificationMail } from './mail-templates.js';
import type { UserRepository } from './ports.js';

/**
 * E-mail copies of notifications (`notifications_email`). Queued in the outbox inside the unit of
 * work that raised the notification, so a copy exists only for a notification that was stored; the
 * delivery job sends it (not the request: the unit may still roll back).
 */
export class NotificationEmails {
  constructor(
    private readonly users: UserRepository,
    private readonly mail: MailDeliveryService,
    private readonly settings: { instanceName: string },
  ) {}

  async queue(recipientId: number, text: string): Promise<void> {
    const user = await this.users.findById(recipientId);
    if (!user || user.deleted_at !== null) return;
    await this.mail.queue(user.id, notificationMail(user, text, this.settings.instanceName));
  }
}
