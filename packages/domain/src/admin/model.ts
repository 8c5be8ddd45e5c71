import type { Timestamp } from '../shared/time.js';

/** The live media server's credentials, as `config/media_server.local.php` holds them. */
export interface MediaServerValues {
  /** wss:// URL the clients connect to. */
  url: string;
  api_key: string;
  api_secret: string;
}

/** The TURN relay in shared-secret mode, as `config/turn.local.php` holds it. */
export interface TurnValues {
  urls: string[];
  secret: string;
  /** Lifetime of the temporary credentials, in seconds. */
  ttl: number;
  realm: string | null;
}

/** The TURN relay in effect: the file's shared-secret values, or the environment's (which may use long-term credentials). */
export interface TurnRelay {
  urls: string[];
  secret: string | null;
  ttl: number;
  realm: string | null;
  username: string | null;
  credential: string | null;
}

/** Where the settings in effect come from: the environment wins when it sets them. */
export type SettingsSource = 'environment' | 'file' | 'none';

export interface Effective<T> {
  values: T | null;
  source: SettingsSource;
}

/** A user as the technicians tab lists them. */
export interface RosterUser {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
  is_technician: boolean;
  is_moderator: boolean;
  created_at: Timestamp;
}

/** Outcome of withdrawing `is_admin`, decided under lock (see AdminRoster.withdraw). */
export type WithdrawOutcome = 'withdrawn' | 'not_admin' | 'last_admin' | 'not_allowed';

export const TURN_TTL_RANGE = { min: 60, max: 7 * 86_400 } as const;
