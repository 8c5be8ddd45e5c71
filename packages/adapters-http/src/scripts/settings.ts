import { z } from 'zod';
import { op, type Script } from '../http/operation.js';
import { zCount } from '../presenters/wire.js';

/** An ICE server as RTCPeerConnection takes it; the client also accepts plain URL strings, which we never send. */
export const IceServerWire = z.object({
  urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
});

/** settings.php: the flat object of contract §2 (no `data` wrapper), plus the spec's push-provider settings. */
export const PublicSettings = z.object({
  /** Empty when OneSignal is not configured, which the client reads as "push through OneSignal off". */
  onesignal_app_id: z.string(),
  push_provider: z.enum(['onesignal', 'ntfy', 'none']),
  /** Null when not configured: the client then uses its built-in default server. */
  ntfy_server: z.url().nullable(),
  ntfy_topic_prefix: z.string(),
  stun_servers: z.array(IceServerWire),
  turn_servers: z.array(IceServerWire),
  webrtc_ice_servers: z.array(IceServerWire),
  ice_servers: z.array(IceServerWire),
  turn_credentials_mode: z.enum(['hmac', 'static', 'none']),
  /** Lifetime of HMAC credentials in seconds; null in the other modes. */
  turn_credentials_ttl: zCount.nullable(),
  turn_realm: z.string().nullable(),
  /** Who may register (API_REGISTRATION, docs/decisions/0104): `invite` asks for `invite_code`. */
  registration: z.enum(['open', 'approval', 'invite', 'closed']),
  /** Whether a new account confirms its e-mail address before it signs in. */
  registration_email_confirm: z.boolean(),
});

export type PublicSettings = z.input<typeof PublicSettings>;

export interface PublicSettingsSource {
  /**
   * The flat settings object of contract §2; TURN credentials are derived for this user (or anonymous)
   * from the relay in effect now (the admin panel may have changed it).
   */
  forUser(userId: number | null): Promise<PublicSettings>;
}

export function settingsScript(settings: PublicSettingsSource): Script {
  return {
    name: 'settings',
    operations: [
      op({
        method: 'GET',
        auth: 'optional',
        summary: 'Public settings: push provider, STUN/TURN/ICE servers',
        response: PublicSettings,
        handle: async (ctx) => settings.forUser(ctx.actor?.userId ?? null),
      }),
    ],
  };
}
