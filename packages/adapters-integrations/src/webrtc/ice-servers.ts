import { createHmac } from 'node:crypto';

export interface TurnSettings {
  urls: string[];
  /** Shared secret of the TURN server's REST-API mode (coturn `static-auth-secret`). */
  authSecret: string | null;
  ttlSeconds: number;
  realm: string | null;
  /** Long-term credentials, used when there is no shared secret. */
  username: string | null;
  credential: string | null;
}

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface IceConfiguration {
  stun_servers: IceServer[];
  turn_servers: IceServer[];
  ice_servers: IceServer[];
  turn_credentials_mode: 'hmac' | 'static' | 'none';
  turn_credentials_ttl: number | null;
}

/**
 * Ephemeral TURN credentials as coturn and other TURN servers expect in shared-secret mode:
 * username `<expiry unix time>:<user>`, credential base64(HMAC-SHA1(secret, username)).
 */
export function turnCredentials(secret: string, user: string, ttlSeconds: number, now: Date) {
  const username = `${Math.floor(now.getTime() / 1000) + ttlSeconds}:${user}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

export function iceConfiguration(stunUrls: string[], turn: TurnSettings, userId: number | null, now: Date): IceConfiguration {
  const stun_servers = stunUrls.map((urls) => ({ urls }));
  let turn_servers: IceServer[] = [];
  let mode: IceConfiguration['turn_credentials_mode'] = 'none';
  if (turn.urls.length > 0) {
    if (turn.authSecret) {
      mode = 'hmac';
      turn_servers = [
        { urls: turn.urls, ...turnCredentials(turn.authSecret, userId === null ? 'anon' : String(userId), turn.ttlSeconds, now) },
      ];
    } else if (turn.username && turn.credential) {
      mode = 'static';
      turn_servers = [{ urls: turn.urls, username: turn.username, credential: turn.credential }];
    } else {
      turn_servers = [{ urls: turn.urls }];
    }
  }
  return {
    stun_servers,
    turn_servers,
    ice_servers: [...stun_servers, ...turn_servers],
    turn_credentials_mode: mode,
    turn_credentials_ttl: mode === 'hmac' ? turn.ttlSeconds : null,
  };
}
