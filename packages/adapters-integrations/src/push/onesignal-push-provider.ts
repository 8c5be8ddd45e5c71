import type { PushMessage, PushProvider } from '@plaza/domain/notifications';
import { postJson, snippet } from './http-json.js';

export interface OneSignalOptions {
  appId: string;
  /** The app's REST API key. */
  apiKey: string;
  /** https://api.onesignal.com, or a loopback stand-in in tests. */
  apiUrl: string;
  timeoutMs?: number;
}

/**
 * OneSignal's REST API: one notification per push, addressed to the user's external id `u_<userId>`
 * (contract §1.3), with the message's data as additional data. OneSignal answers 200 with an `errors`
 * member when it delivered to nobody (no subscribed device, unknown alias): that is a failure too.
 */
export class OneSignalPushProvider implements PushProvider {
  readonly name = 'onesignal' as const;
  constructor(private readonly options: OneSignalOptions) {}

  async deliver(userId: number, message: PushMessage): Promise<void> {
    const isCall = message.data.type === 'call';
    const body = {
      app_id: this.options.appId,
      target_channel: 'push',
      include_aliases: { external_id: [`u_${userId}`] },
      headings: { en: message.title },
      contents: { en: message.body },
      data: message.data,
      // An incoming call is urgent and worthless after the ring timeout.
      ...(isCall ? { priority: 10, ttl: 45 } : {}),
    };
    const res = await postJson(
      `${this.options.apiUrl.replace(/\/+$/, '')}/notifications`,
      body,
      { Authorization: `Key ${this.options.apiKey}` },
      this.options.timeoutMs ?? 10_000,
    );
    if (!res.ok) throw new Error(`OneSignal answered HTTP ${res.status}: ${snippet(res.text)}`);
    const errors = (res.json as { errors?: unknown } | null)?.errors;
    if (errors && (!Array.isArray(errors) || errors.length > 0) && (typeof errors !== 'object' || Object.keys(errors).length > 0)) {
      throw new Error(`OneSignal delivered nothing: ${snippet(JSON.stringify(errors))}`);
    }
  }
}
