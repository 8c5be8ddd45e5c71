import type { PushMessage, PushProvider } from '@plaza/domain/notifications';
import { postJson, snippet } from './http-json.js';

export interface NtfyOptions {
  /** The ntfy server's base URL (settings.php publishes it as `ntfy_server`). */
  server: string;
  /** Topic = prefix + user id (settings.php `ntfy_topic_prefix`). */
  topicPrefix: string;
  timeoutMs?: number;
}

/**
 * ntfy: one JSON publish per push on the user's topic. The clients read the data map from
 * `actions[0].extras` first (contract §33), so it travels there, in a broadcast action; an incoming
 * call has priority 5, which the clients also treat as a call.
 */
export class NtfyPushProvider implements PushProvider {
  readonly name = 'ntfy' as const;
  constructor(private readonly options: NtfyOptions) {}

  topicOf(userId: number): string {
    return `${this.options.topicPrefix}${userId}`;
  }

  async deliver(userId: number, message: PushMessage): Promise<void> {
    const type = message.data.type ?? 'notification';
    const body = {
      topic: this.topicOf(userId),
      title: message.title,
      message: message.body,
      priority: type === 'call' ? 5 : 3,
      tags: [type],
      actions: [{ action: 'broadcast', label: 'Open', extras: message.data }],
    };
    const res = await postJson(this.options.server.replace(/\/+$/, '') + '/', body, {}, this.options.timeoutMs ?? 10_000);
    if (!res.ok) throw new Error(`ntfy answered HTTP ${res.status}: ${snippet(res.text)}`);
  }
}
