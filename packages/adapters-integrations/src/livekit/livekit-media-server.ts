import { createHash } from 'node:crypto';
import { Invalid, Unauthenticated } from '@plaza/domain';
import type { MediaEvent, MediaServer, MediaServerSettings, MediaTokenGrant } from '@plaza/domain/lives';
import { jwtVerify, SignJWT } from 'jose';
import { WatchedPhpConfig } from './php-config-file.js';

export interface LiveKitCredentials {
  /** wss:// URL the clients connect to. */
  url: string;
  apiKey: string;
  apiSecret: string;
}

/** Where the credentials come from: the environment, else the file the admin panel writes. */
export type CredentialSource = () => Promise<LiveKitCredentials | null>;

/**
 * The environment's MEDIA_SERVER_* when all three are set; otherwise `config/media_server.local.php`
 * (keys `url`, `api_key`, `api_secret`, or the main application's `livekit_url`, `livekit_api_key`,
 * `livekit_api_secret`), read again whenever the file changes.
 */
export function mediaServerCredentials(env: Partial<LiveKitCredentials>, file: string | null): CredentialSource {
  if (env.url && env.apiKey && env.apiSecret) {
    const fixed = { url: env.url, apiKey: env.apiKey, apiSecret: env.apiSecret };
    return async () => fixed;
  }
  const watched = file ? new WatchedPhpConfig(file) : null;
  return async () => {
    const v = await watched?.read();
    if (!v) return null;
    const url = v.url ?? v.livekit_url ?? v.server_url ?? '';
    const apiKey = v.api_key ?? v.livekit_api_key ?? '';
    const apiSecret = v.api_secret ?? v.livekit_api_secret ?? '';
    return url && apiKey && apiSecret ? { url, apiKey, apiSecret } : null;
  };
}

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * A LiveKit-compatible media server: access tokens are HS256 JWTs signed with the API secret, with the
 * API key as issuer, the identity as subject and a `video` grant; webhooks carry a JWT of the same
 * kind in `Authorization` whose `sha256` claim is the base64 SHA-256 of the exact body.
 */
export class LiveKitMediaServer implements MediaServer {
  constructor(
    private readonly credentials: CredentialSource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async settings(): Promise<MediaServerSettings | null> {
    const c = await this.credentials();
    return c ? { url: c.url } : null;
  }

  async issueToken(grant: MediaTokenGrant): Promise<string> {
    const c = await this.credentials();
    if (!c) throw new Error('the media server is not configured');
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({
      name: grant.name,
      video: {
        room: grant.room,
        roomJoin: true,
        canPublish: grant.canPublish,
        canPublishData: grant.canPublishData,
        canSubscribe: grant.canSubscribe,
      },
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(c.apiKey)
      .setSubject(grant.identity)
      .setJti(grant.identity)
      .setIssuedAt(nowSeconds)
      .setNotBefore(nowSeconds)
      .setExpirationTime(nowSeconds + grant.ttlSeconds)
      .sign(key(c.apiSecret));
  }

  async verifyEvent(rawBody: string, authorization: string | undefined): Promise<MediaEvent> {
    const c = await this.credentials();
    if (!c) throw new Unauthenticated('No media server is configured to sign events', 'invalid_signature');
    const token = authorization?.replace(/^Bearer\s+/i, '').trim();
    if (!token) throw new Unauthenticated('Media-server events must be signed (Authorization)', 'invalid_signature');
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(token, key(c.apiSecret), {
        algorithms: ['HS256'],
        issuer: c.apiKey,
        currentDate: this.now(),
        clockTolerance: 60,
      }));
    } catch {
      throw new Unauthenticated('The event signature is not valid', 'invalid_signature');
    }
    const digest = createHash('sha256').update(rawBody, 'utf8').digest('base64');
    if (typeof claims.sha256 !== 'string' || claims.sha256 !== digest)
      throw new Unauthenticated('The event body does not match its signature', 'invalid_signature');
    let body: { event?: unknown; room?: { name?: unknown } | null; participant?: { identity?: unknown } | null };
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new Invalid('The event body must be JSON', 'invalid_body');
    }
    return {
      event: typeof body.event === 'string' ? body.event : '',
      room: typeof body.room?.name === 'string' ? body.room.name : null,
      identity: typeof body.participant?.identity === 'string' ? body.participant.identity : null,
    };
  }
}
