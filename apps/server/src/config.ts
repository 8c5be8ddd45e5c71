import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_RATE_LIMITS, type RateLimitGroup, parseRateLimitOverrides } from '@plaza/domain';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const list = z.string().transform((v) => v.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean));
const int = (min: number, max: number) => z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));
const url = z.string().url();

/** Every environment variable Plaza reads: the spec's, then ours. Empty strings count as unset. */
const envSchema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  API_PUBLIC_URL: url.optional(),
  API_DATA_DIR: z.string().default('./data'),
  API_TIMEZONE: z.string().default('UTC').refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as UTC or Europe/Paris'),
  API_TOKEN_TTL_DAYS: int(1, 3650).default(30),
  API_RESET_TTL_MINUTES: int(5, 1440).default(60),
  API_MOBILE_APP_MARKER: z.string().min(1).default('militant-flutter-v1'),
  API_RATE_LIMITS: z.string().optional(),
  API_RATE_LIMIT_STORE: z.enum(['memory', 'database']).optional(),
  API_CORS_ORIGINS: list.default(['*']),
  API_REQUIRE_HTTPS: bool.default(false),
  API_TRUSTED_PROXIES: list.default(['127.0.0.1', '::1']),
  API_DEBUG: bool.default(false),
  API_UPLOADS_PATH: z.string().optional(),
  API_BODY_LIMIT: z.string().regex(/^\d+(kb|mb)$/i, 'must look like 512kb or 2mb').default('1mb'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  BCRYPT_COST: int(4, 15).default(10),
  DB_HOST: z.string().optional(),
  DB_PORT: int(1, 65535).optional(),
  DB_NAME: z.string().optional(),
  DB_USER: z.string().optional(),
  DB_PASSWORD: z.string().optional(),
  API_DB_HOST: z.string().optional(),
  API_DB_PORT: int(1, 65535).optional(),
  API_DB_NAME: z.string().optional(),
  API_DB_USER: z.string().optional(),
  API_DB_PASS: z.string().optional(),
  DB_POOL_SIZE: int(1, 500).default(10),
  MAIN_APP_HOST: url.optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Plaza <no-reply@localhost>'),
  PUSH_APP_ID: z.string().optional(),
  PUSH_REST_API_KEY: z.string().optional(),
  NTFY_SERVER: url.optional(),
  NTFY_TOPIC_PREFIX: z.string().default('militant_u_'),
  WEBRTC_STUN_URLS: list.default(['stun:stun.l.google.com:19302']),
  WEBRTC_TURN_URLS: list.default([]),
  WEBRTC_TURN_AUTH_SECRET: z.string().optional(),
  WEBRTC_TURN_TTL: int(60, 7 * 86400).default(86400),
  WEBRTC_TURN_REALM: z.string().optional(),
  WEBRTC_TURN_USERNAME: z.string().optional(),
  WEBRTC_TURN_CREDENTIAL: z.string().optional(),
  MEDIA_TECHNICIAN_USER_IDS: list.pipe(z.array(z.string().regex(/^\d+$/, 'must list numeric user ids'))).default([]),
});

export type DatabaseSettings =
  | { kind: 'sqlite'; file: string }
  | { kind: 'mysql'; host: string; port: number; database: string; user: string; password: string; connectionLimit: number };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  domain: string;
  dataDir: string;
  uploadsPath: string;
  timeZone: string;
  tokenTtlDays: number;
  resetTtlMinutes: number;
  mobileAppMarker: string;
  rateLimits: Record<RateLimitGroup, number>;
  rateLimitStore: 'memory' | 'database';
  corsOrigins: string[];
  requireHttps: boolean;
  trustedProxies: string[];
  bodyLimit: string;
  logLevel: string;
  bcryptCost: number;
  database: DatabaseSettings;
  smtpUrl: string | null;
  mailFrom: string;
  push: { oneSignalAppId: string | null; oneSignalApiKey: string | null; ntfyServer: string | null; ntfyTopicPrefix: string };
  webrtc: {
    stunUrls: string[];
    turnUrls: string[];
    turnAuthSecret: string | null;
    turnTtl: number;
    turnRealm: string | null;
    turnUsername: string | null;
    turnCredential: string | null;
  };
  technicianUserIds: number[];
}

export class ConfigError extends Error {}

/** Parses the environment once. A bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  let overrides;
  try {
    overrides = parseRateLimitOverrides(e.API_RATE_LIMITS);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: API_RATE_LIMITS ${(error as Error).message}`);
  }
  const dataDir = resolve(e.API_DATA_DIR);
  const host = e.API_DB_HOST ?? e.DB_HOST;
  const database: DatabaseSettings = host
    ? {
        kind: 'mysql',
        host,
        port: e.API_DB_PORT ?? e.DB_PORT ?? 3306,
        database: e.API_DB_NAME ?? e.DB_NAME ?? 'plaza',
        user: e.API_DB_USER ?? e.DB_USER ?? 'root',
        password: e.API_DB_PASS ?? e.DB_PASSWORD ?? '',
        connectionLimit: e.DB_POOL_SIZE,
      }
    : { kind: 'sqlite', file: join(dataDir, 'plaza.sqlite') };
  const publicUrl = (e.API_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const uploads = e.API_UPLOADS_PATH ?? join(dataDir, 'uploads');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    domain: new URL(publicUrl).host,
    dataDir,
    uploadsPath: isAbsolute(uploads) ? uploads : resolve(uploads),
    timeZone: e.API_TIMEZONE,
    tokenTtlDays: e.API_TOKEN_TTL_DAYS,
    resetTtlMinutes: e.API_RESET_TTL_MINUTES,
    mobileAppMarker: e.API_MOBILE_APP_MARKER,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...overrides },
    // Several instances share one database, so that is where their counters must live.
    rateLimitStore: e.API_RATE_LIMIT_STORE ?? (database.kind === 'mysql' ? 'database' : 'memory'),
    corsOrigins: e.API_CORS_ORIGINS,
    requireHttps: e.API_REQUIRE_HTTPS,
    trustedProxies: e.API_TRUSTED_PROXIES,
    bodyLimit: e.API_BODY_LIMIT,
    logLevel: e.LOG_LEVEL ?? (e.API_DEBUG ? 'debug' : 'info'),
    bcryptCost: e.BCRYPT_COST,
    database,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    push: {
      oneSignalAppId: e.PUSH_APP_ID ?? null,
      oneSignalApiKey: e.PUSH_REST_API_KEY ?? null,
      ntfyServer: e.NTFY_SERVER ?? null,
      ntfyTopicPrefix: e.NTFY_TOPIC_PREFIX,
    },
    webrtc: {
      stunUrls: e.WEBRTC_STUN_URLS,
      turnUrls: e.WEBRTC_TURN_URLS,
      turnAuthSecret: e.WEBRTC_TURN_AUTH_SECRET ?? null,
      turnTtl: e.WEBRTC_TURN_TTL,
      turnRealm: e.WEBRTC_TURN_REALM ?? null,
      turnUsername: e.WEBRTC_TURN_USERNAME ?? null,
      turnCredential: e.WEBRTC_TURN_CREDENTIAL ?? null,
    },
    technicianUserIds: e.MEDIA_TECHNICIAN_USER_IDS.map(Number),
  };
}
