import type { PasswordHasher, UserRepository } from '../accounts/ports.js';
import type { Actor } from '../shared/actor.js';
import { type FieldProblem, Forbidden, Invalid } from '../shared/errors.js';
import { type Effective, type MediaServerValues, TURN_TTL_RANGE, type TurnRelay, type TurnValues } from './model.js';
import type { MediaServerSettingsStore, TurnSettingsStore } from './ports.js';

/** The media-server and TURN pages are for technicians (spec, Authentication 8). */
export function assertTechnician(actor: Actor): void {
  if (!actor.isTechnician) throw new Forbidden('This page is reserved to technicians', 'not_technician');
}

/** Saving settings proves the account password again, whoever holds the browser session. */
export class PasswordConfirmation {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async confirm(actor: Actor, password: string): Promise<void> {
    const user = await this.users.findWithSecrets(actor.userId);
    if (!user || !password || !(await this.hasher.verify(password, user.password_hash))) {
      throw new Forbidden('The password is wrong: nothing was saved', 'wrong_password');
    }
  }
}

/** The last characters of a secret, the rest masked: all a page ever shows of a saved secret. */
export function secretHint(secret: string | null | undefined): string | null {
  if (!secret) return null;
  return secret.length <= 8 ? '•'.repeat(secret.length) : `${'•'.repeat(8)}${secret.slice(-4)}`;
}

const MEDIA_URL = /^wss?:\/\/[^\s/?#]+(\/[^\s]*)?$/;
const KEY = /^[\x21-\x7e]{1,200}$/;

export interface MediaServerEnvironment {
  url: string | null;
  apiKey: string | null;
  apiSecret: string | null;
}

export interface MediaServerView {
  url: string;
  api_key: string;
  secret_hint: string | null;
  source: Effective<MediaServerValues>['source'];
  /** The MEDIA_SERVER_* variables that are set (all three win over the file; fewer are ignored). */
  environment: string[];
  location: string;
}

/** MEDIA_SERVER_* when all three are set (the environment wins), else the stored values. */
export function effectiveMediaServer(env: MediaServerEnvironment, stored: MediaServerValues | null): Effective<MediaServerValues> {
  const { url, apiKey, apiSecret } = env;
  if (url && apiKey && apiSecret) return { values: { url, api_key: apiKey, api_secret: apiSecret }, source: 'environment' };
  return stored ? { values: stored, source: 'file' } : { values: null, source: 'none' };
}

/**
 * The live media server's credentials: MEDIA_SERVER_* when all three are set, else the file the
 * admin panel writes, read again whenever it changes (docs/decisions/0021, 0060).
 */
export class MediaServerSettingsService {
  constructor(
    private readonly store: MediaServerSettingsStore,
    private readonly env: MediaServerEnvironment,
    private readonly password: PasswordConfirmation,
  ) {}

  async effective(): Promise<Effective<MediaServerValues>> {
    return effectiveMediaServer(this.env, await this.store.read());
  }

  async view(actor: Actor): Promise<MediaServerView> {
    assertTechnician(actor);
    const [stored, effective] = await Promise.all([this.store.read(), this.effective()]);
    return {
      url: stored?.url ?? '',
      api_key: stored?.api_key ?? '',
      secret_hint: secretHint(stored?.api_secret),
      source: effective.source,
      environment: this.environmentSet(),
      location: this.store.location,
    };
  }

  /** Writes the file after checking the password; a blank secret keeps the saved one. */
  async save(actor: Actor, input: { url: string; api_key: string; api_secret: string; password: string }): Promise<void> {
    assertTechnician(actor);
    const url = input.url.trim();
    const apiKey = input.api_key.trim();
    const newSecret = input.api_secret.trim();
    const problems: FieldProblem[] = [];
    if (!MEDIA_URL.test(url) || url.length > 500)
      problems.push({ field: 'url', problem: 'must be a wss:// URL such as wss://media.example.org' });
    if (!KEY.test(apiKey)) problems.push({ field: 'api_key', problem: 'must be 1 to 200 printable characters without spaces' });
    if (newSecret && !/^[\x21-\x7e]{8,500}$/.test(newSecret))
      problems.push({ field: 'api_secret', problem: 'must be 8 to 500 printable characters without spaces' });
    const stored = await this.store.read();
    if (!newSecret && !stored?.api_secret) problems.push({ field: 'api_secret', problem: 'is required: no secret is saved yet' });
    if (problems.length) throw new Invalid('Some settings are not valid: nothing was saved', 'invalid_settings', problems);
    await this.password.confirm(actor, input.password);
    await this.store.write({ url, api_key: apiKey, api_secret: newSecret || stored!.api_secret });
  }

  private environmentSet(): string[] {
    const names: [keyof MediaServerEnvironment, string][] = [
      ['url', 'MEDIA_SERVER_URL'],
      ['apiKey', 'MEDIA_SERVER_API_KEY'],
      ['apiSecret', 'MEDIA_SERVER_API_SECRET'],
    ];
    return names.filter(([k]) => this.env[k]).map(([, name]) => name);
  }
}

export interface TurnEnvironment {
  urls: string[];
  authSecret: string | null;
  ttl: number;
  realm: string | null;
  username: string | null;
  credential: string | null;
}

export interface TurnView {
  urls: string[];
  ttl: number;
  realm: string;
  secret_hint: string | null;
  source: Effective<TurnRelay>['source'];
  /** True when WEBRTC_TURN_URLS is set: the environment's TURN settings are in effect. */
  environment: boolean;
  location: string;
}

/** The environment's WEBRTC_TURN_* when WEBRTC_TURN_URLS is set (the environment wins), else the stored values. */
export function effectiveTurnRelay(env: TurnEnvironment, stored: TurnValues | null): Effective<TurnRelay> {
  if (env.urls.length) {
    return {
      values: {
        urls: env.urls,
        secret: env.authSecret,
        ttl: env.ttl,
        realm: env.realm,
        username: env.username,
        credential: env.credential,
      },
      source: 'environment',
    };
  }
  return stored ? { values: { ...stored, username: null, credential: null }, source: 'file' } : { values: null, source: 'none' };
}

const TURN_URL = /^turns?:[^\s,]+$/;
const REALM = /^[\w.-]{1,253}$/;

/**
 * The TURN relay that settings.php hands out: the environment's WEBRTC_TURN_* when WEBRTC_TURN_URLS
 * is set, else the file the admin panel writes (shared-secret mode), read again whenever it changes.
 */
export class TurnSettingsService {
  constructor(
    private readonly store: TurnSettingsStore,
    private readonly env: TurnEnvironment,
    private readonly password: PasswordConfirmation,
  ) {}

  async effective(): Promise<Effective<TurnRelay>> {
    return effectiveTurnRelay(this.env, await this.store.read());
  }

  async view(actor: Actor): Promise<TurnView> {
    assertTechnician(actor);
    const [stored, effective] = await Promise.all([this.store.read(), this.effective()]);
    return {
      urls: stored?.urls ?? [],
      ttl: stored?.ttl ?? 86_400,
      realm: stored?.realm ?? '',
      secret_hint: secretHint(stored?.secret),
      source: effective.source,
      environment: this.env.urls.length > 0,
      location: this.store.location,
    };
  }

  /** Writes the file after checking the password; a blank secret keeps the saved one. Returns what was saved. */
  async save(actor: Actor, input: { urls: string; secret: string; ttl: string; realm: string; password: string }): Promise<TurnValues> {
    assertTechnician(actor);
    const urls = input.urls
      .split(/[\s,]+/)
      .map((u) => u.trim())
      .filter(Boolean);
    const ttl = Number(input.ttl.trim());
    const realm = input.realm.trim();
    const newSecret = input.secret.trim();
    const problems: FieldProblem[] = [];
    if (!urls.length || urls.length > 10 || urls.some((u) => !TURN_URL.test(u) || u.length > 300)) {
      problems.push({ field: 'urls', problem: '1 to 10 URLs starting with turn: or turns:, e.g. turn:turn.example.org:3478' });
    }
    if (!Number.isInteger(ttl) || ttl < TURN_TTL_RANGE.min || ttl > TURN_TTL_RANGE.max) {
      problems.push({ field: 'ttl', problem: `must be a whole number of seconds from ${TURN_TTL_RANGE.min} to ${TURN_TTL_RANGE.max}` });
    }
    if (realm && !REALM.test(realm)) problems.push({ field: 'realm', problem: 'must be a host-like name (letters, digits, dots, dashes)' });
    if (newSecret && !/^[\x21-\x7e]{16,500}$/.test(newSecret))
      problems.push({ field: 'secret', problem: 'must be 16 to 500 printable characters without spaces' });
    const stored = await this.store.read();
    if (!newSecret && !stored?.secret) problems.push({ field: 'secret', problem: 'is required: no secret is saved yet' });
    if (problems.length) throw new Invalid('Some settings are not valid: nothing was saved', 'invalid_settings', problems);
    await this.password.confirm(actor, input.password);
    const values: TurnValues = { urls, secret: newSecret || stored!.secret, ttl, realm: realm || null };
    await this.store.write(values);
    return values;
  }
}

/** The relay server's configuration block (coturn) for these settings; `secret` as given (masked or not). */
export function coturnBlock(values: { secret: string; realm: string | null }): string {
  return ['use-auth-secret', `static-auth-secret=${values.secret}`, `realm=${values.realm ?? '<your realm, e.g. turn.example.org>'}`].join(
    '\n',
  );
}
