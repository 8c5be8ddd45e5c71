import type { PushMessage, PushSender } from '@plaza/domain/notifications';

interface PushLog {
  info(obj: object, msg: string): void;
}

/**
 * Used when no push provider is configured: records one log line per push so operators see them,
 * whatever the recipient's switches (notifications.module.ts does not read them for a push nobody receives).
 */
export class LoggingPushSender implements PushSender {
  constructor(private readonly log: PushLog) {}
  async send(userId: number, message: PushMessage): Promise<void> {
    this.log.info({ push_to: userId, push_type: message.data.type ?? null }, 'push (no provider configured)');
  }
}
