import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { trustedProxyProblem } from '@plaza/adapters-http';
import { redisUrlProblem } from '@plaza/adapters-integrations/redis';
import { DEFAULT_LOGIN_ACCOUNT_LIMIT, DEFAULT_RATE_LIMITS, type RateLimitGroup, parseRateLimitOverrides } from '@plaza/domain';
import { REGISTRATION_MODES, type RegistrationPolicy } from '@plaza/domain/accounts';
import { DEFAULT_MODERATION_RULES, type ModerationRules } from '@plaza/domain/moderation';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));
function parseUrl(v: string): URL | null {
  try {
    return new URL(v);
  } catch {
    return null;
  }
}

/** An http(s) URL; `bare` also refuses a query or fragment (a base URL that others are appended to). */
const httpUrl = (bare = false) =>
  z.string().refine(
    (v) => {
      const u = parseUrl(v);
      return !!u && (u.protocol === 'http:' || u.protocol === 'https:') && (!bare || (u.search === '' && u.hash === ''));
    },
    bare ? 'must be an http:// or https:// URL without query or fragment' : 'must be an http:// or https:// URL',
  );
const hostname = z
  .string()
  .refine(
    (v) => isIP(v) !== 0 || /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(v),
    'must be an IP address or a host name',
  );

/**
 * A comma- or space-separated list, each entry checked by `problemOf` (null when fine) and the first bad
 * one named. Set but empty, a list is empty (see `loadConfig`).
 */
const list = (problemOf: (entry: string) => string | null = () => null) =>
  z
    .string()
    .transform((v) => v.split(/[,\s]+/).filter(Boolean))
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const problem = problemOf(entry);
        if (problem) {
          ctx.addIssue({ code: 'custom', message: `has ${JSON.stringify(entry)}: ${problem}` });
          return;
        }
      }
    });
/**
 * One database server of `DB_HOST` or `DB_READ_HOSTS`: `host`, `host:port`, or `[ipv6]:port`. A list
 * of several names the nodes of a cluster (docs/decisions/0141).
 */
function nodeProblem(entry: string): string | null {
  const node = parseNode(entry, 3306);
  if (!node) return 'must be host or host:port, e.g. db1:3306';
  if (!hostname.safeParse(node.host).success) return 'must be an IP address or a host name, with an optional :port';
  return null;
}

/** DB_HOST, DB_READ_HOSTS: comma-separated (a blank inside an entry is a mistake, not a separator). */
const nodeList = z
  .string()
  .transform((v) => v.split(',').map((entry) => entry.trim()))
  .superRefine((entries, ctx) => {
    for (const entry of entries) {
      const problem = nodeProblem(entry);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `has ${JSON.stringify(entry)}: ${problem}` });
        return;
      }
    }
  });

function parseNode(entry: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(entry) ?? (isIP(entry) === 6 ? [entry, entry] : null);
  if (!match) return null;
  const host = match[1] ?? match[2];
  const port = match[3] === undefined ? defaultPort : Number(match[3]);
  return host && port >= 1 && port <= 65535 ? { host, port } : null;
}

/** The list variables: set to an empty value, each is an empty list rather than its default. */
const LISTS = new Set(['API_CORS_ORIGINS', 'API_TRUSTED_PROXIES', 'WEBRTC_STUN_URLS', 'WEBRTC_TURN_URLS', 'MEDIA_TECHNICIAN_USER_IDS']);

/** Browsers send `Origin: https://app.example.org`: scheme, host and port only, so only that can match. */
function originProblem(entry: string): string | null {
  if (entry === '*') return null;
  const u = parseUrl(entry);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
    return 'an origin starts with https:// or http://, e.g. https://app.example.org';
  if (u.origin !== entry) return `an origin is only scheme, host and port, written ${u.origin}`;
  return null;
}
const scheme =
  (...schemes: string[]) =>
  (entry: string) =>
    schemes.some((s) => entry.startsWith(`${s}:`)) ? null : `must start with ${schemes.map((s) => `${s}:`).join(' or ')}`;

/** Every environment variable Plaza reads: the spec's, then ours. Empty strings count as unset, except for lists. */
const envSchema = z
  .object({
    PORT: int(0, 65535).default(8080),
    HOST: hostname.default('0.0.0.0'),
    API_PUBLIC_URL: httpUrl(true).optional(),
    API_DATA_DIR: z.string().default('./data'),
    API_TIMEZONE: z
      .string()
      .default('UTC')
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as UTC or Europe/Paris'),
    API_TOKEN_TTL_DAYS: int(1, 3650).default(30),
    API_RESET_TTL_MINUTES: int(5, 1440).default(60),
    // Compared with a header value, which can hold neither control characters nor surrounding blanks.
    API_MOBILE_APP_MARKER: z
      .string()
      .regex(/^[!-~]([ -~]*[!-~])?$/, 'must be printable ASCII without surrounding blanks')
      .default('militant-flutter-v1'),
    API_RATE_LIMITS: z.string().optional(),
    API_RATE_LIMIT_STORE: z.enum(['memory', 'database', 'redis']).optional(),
    // Redis (docs/decisions/0160): the jobs on BullMQ, rate limits and Fedify's key-value store; unset, the database.
    REDIS_URL: z
      .string()
      .superRefine((v, ctx) => {
        const problem = redisUrlProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . : or -')
      .default('plaza:'),
    JOB_CONCURRENCY: int(1, 256).default(4),
    JOB_ATTEMPTS: int(1, 100).default(5),
    JOB_BACKOFF_MS: int(100, 3_600_000).default(5_000),
    // Login attempts per hour against one account, from any address (docs/decisions/0102).
    API_LOGIN_ACCOUNT_LIMIT: int(1, 1_000_000).default(DEFAULT_LOGIN_ACCOUNT_LIMIT),
    // GET /metrics (docs/decisions/0103): on with API_METRICS=true, or with a bearer token it then requires.
    API_METRICS: bool.default(false),
    API_METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[!-~]+$/, 'must be printable ASCII without blanks')
      .optional(),
    API_CORS_ORIGINS: list(originProblem)
      .refine((origins) => !origins.includes('*') || origins.length === 1, 'mixes * with origins: * alone allows every origin')
      .default(['*']),
    API_REQUIRE_HTTPS: bool.default(false),
    API_TRUSTED_PROXIES: list(trustedProxyProblem).default(['127.0.0.1', '::1']),
    API_DEBUG: bool.default(false),
    API_UPLOADS_PATH: z.string().optional(),
    // Where multipart uploads wait while their request runs; the system's temporary directory by default.
    API_UPLOAD_TMP_DIR: z.string().optional(),
    // GET /uploads/... from API_UPLOADS_PATH (docs/decisions/0107); auto: when no MAIN_APP_HOST serves them.
    API_SERVE_UPLOADS: z.enum(['auto', 'true', 'false', '1', '0', 'yes', 'no']).default('auto'),
    // Videos and audio remuxed without metadata by ffmpeg (docs/decisions/0110); the packaged binary unless set.
    API_FFMPEG_PATH: z.string().regex(/^\//, 'must be the absolute path of an ffmpeg binary').optional(),
    API_MEDIA_REMUX_TIMEOUT_S: int(1, 3600).default(60),
    API_MEDIA_REMUX_CONCURRENCY: int(1, 64).default(2),
    // Uploads no record references are removed after this many hours (docs/decisions/0114); 0: kept.
    API_UPLOAD_ORPHAN_HOURS: int(0, 24 * 365).default(24),
    // LibreTranslate-compatible translation backend (translate.php); without it, translate.php answers 503.
    TRANSLATE_URL: httpUrl().optional(),
    TRANSLATE_API_KEY: z.string().optional(),
    API_BODY_LIMIT: z
      .string()
      .regex(/^0*[1-9]\d*(kb|mb)$/i, 'must look like 512kb or 2mb')
      .default('1mb'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    BCRYPT_COST: int(4, 15).default(10),
    // One host, or the nodes of a cluster in order of preference (host:port, comma-separated; docs/decisions/0141).
    DB_HOST: nodeList.optional(),
    DB_PORT: int(1, 65535).optional(),
    DB_NAME: z.string().optional(),
    DB_USER: z.string().optional(),
    DB_PASSWORD: z.string().optional(),
    API_DB_HOST: nodeList.optional(),
    // Read replicas: the plain reads of GET operations go to them, except a user's for 5 s after a write (docs/decisions/0141).
    DB_READ_HOSTS: nodeList.optional(),
    API_DB_PORT: int(1, 65535).optional(),
    API_DB_NAME: z.string().optional(),
    API_DB_USER: z.string().optional(),
    API_DB_PASS: z.string().optional(),
    DB_POOL_SIZE: int(1, 500).default(10),
    DB_SOCKET: z.string().regex(/^\//, "an absolute path to the server's Unix socket").optional(),
    // How long start-up waits for MySQL to answer, retrying with backoff (docs/decisions/0101).
    DB_CONNECT_TIMEOUT_S: int(0, 86_400).default(60),
    MAIN_APP_HOST: httpUrl().optional(),
    SMTP_URL: z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v) && !!parseUrl(v)?.hostname, 'must be a URL starting with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z
      .string()
      .regex(/^([^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, 'must be an address, alone or as Name <address>')
      .default('Plaza <no-reply@localhost>'),
    PUSH_APP_ID: z.string().optional(),
    PUSH_REST_API_KEY: z.string().optional(),
    // OneSignal's REST endpoint; tests point it at a loopback stand-in.
    ONESIGNAL_API_URL: httpUrl(true).default('https://api.onesignal.com'),
    NTFY_SERVER: httpUrl().optional(),
    // ntfy topics are letters, digits, - and _ (64 at most, the user id included).
    NTFY_TOPIC_PREFIX: z
      .string()
      .regex(/^[\w-]{1,40}$/, 'must be 1 to 40 letters, digits, - or _')
      .default('militant_u_'),
    WEBRTC_STUN_URLS: list(scheme('stun', 'stuns')).default(['stun:stun.l.google.com:19302']),
    WEBRTC_TURN_URLS: list(scheme('turn', 'turns')).default([]),
    WEBRTC_TURN_AUTH_SECRET: z.string().optional(),
    WEBRTC_TURN_TTL: int(60, 7 * 86400).default(86400),
    WEBRTC_TURN_REALM: z.string().optional(),
    WEBRTC_TURN_USERNAME: z.string().optional(),
    WEBRTC_TURN_CREDENTIAL: z.string().optional(),
    MEDIA_TECHNICIAN_USER_IDS: list((id) => (/^[1-9]\d{0,14}$/.test(id) ? null : 'must list numeric user ids')).default([]),
    // Live media server (LiveKit-compatible); without all three, config/media_server.local.php is read.
    MEDIA_SERVER_URL: z
      .string()
      .regex(/^wss?:\/\/[^\s/?#]+/, 'must be a wss:// (or ws://) URL')
      .optional(),
    MEDIA_SERVER_API_KEY: z.string().optional(),
    MEDIA_SERVER_API_SECRET: z.string().optional(),
    API_CONFIG_DIR: z.string().default('./config'),
    // External conference server (Nextcloud Talk) whose room links calls.php?action=initiate_talk posts.
    TALK_SERVER_URL: httpUrl(true).optional(),
    LIVE_REPORT_SUSPEND_THRESHOLD: int(1, 100_000).default(5),
    // Federation's guarded client reaches loopback and private addresses only when this is set (tests, closed networks).
    API_FEDERATION_ALLOW_PRIVATE: bool.default(false),
    // Authorized fetch, as Mastodon's secure mode (docs/decisions/0201).
    API_FEDERATION_SECURE_MODE: bool.default(false),
    // Community moderation (docs/decisions/0012): vote thresholds and the warnings-to-ban ladder.
    MODERATION_REPORT_VOTES: int(1, 1000).default(DEFAULT_MODERATION_RULES.reportVotes),
    MODERATION_ELECTION_VOTES: int(1, 100_000).default(DEFAULT_MODERATION_RULES.electionVotes),
    MODERATION_RECALL_VOTES: int(1, 100_000).default(DEFAULT_MODERATION_RULES.recallVotes),
    MODERATION_VOTER_MIN_DAYS: int(0, 3650).default(DEFAULT_MODERATION_RULES.voterMinAccountDays),
    MODERATION_WARNINGS_BEFORE_BAN: int(1, 1000).default(DEFAULT_MODERATION_RULES.warningsBeforeBan),
    MODERATION_WARNING_WINDOW_DAYS: int(1, 3650).default(DEFAULT_MODERATION_RULES.warningWindowDays),
    MODERATION_BAN_DAYS: int(1, 3650).default(DEFAULT_MODERATION_RULES.banDays),
    MODERATION_PERMANENT_AFTER_BANS: int(0, 1000).default(DEFAULT_MODERATION_RULES.permanentAfterBans),
    // The precomputed home timeline (docs/decisions/0071): entries kept per reader, and the timelines a
    // new post is written to in its request (the job writes the rest).
    HOME_TIMELINE_LENGTH: int(20, 100_000).default(800),
    HOME_TIMELINE_FANOUT_IN_REQUEST: int(0, 10_000_000).default(2000),
    // Processes serving requests (node:cluster); 1 serves in this process (docs/decisions/0073).
    API_WORKERS: int(1, 64).default(1),
    // Who may register (docs/decisions/0104): anyone, after an administrator's approval, with an invitation, nobody.
    API_REGISTRATION: z.enum(REGISTRATION_MODES).default('open'),
    API_REGISTRATION_EMAIL_CONFIRM: bool.default(false),
  })
  .superRefine((e, ctx) => {
    if (!e.WEBRTC_TURN_USERNAME !== !e.WEBRTC_TURN_CREDENTIAL) {
      const missing = e.WEBRTC_TURN_USERNAME ? 'WEBRTC_TURN_CREDENTIAL' : 'WEBRTC_TURN_USERNAME';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'must be set too: long-term TURN credentials are a username and a credential',
      });
    }
    if (e.API_RATE_LIMIT_STORE === 'redis' && !e.REDIS_URL) {
      ctx.addIssue({ code: 'custom', path: ['API_RATE_LIMIT_STORE'], message: 'is redis but REDIS_URL is not set' });
    }
  });

export type DatabaseSettings =
  | { kind: 'sqlite'; file: string }
  | {
      kind: 'mysql';
      host: string;
      port: number;
      socketPath?: string;
      /** Every node of DB_HOST, in order; `host` and `port` are the first. */
      nodes: { host: string; port: number }[];
      /** DB_READ_HOSTS: replicas for the reads of GET operations; empty: none. */
      readNodes: { host: string; port: number }[];
      database: string;
      user: string;
      password: string;
      connectionLimit: number;
      connectTimeoutS: number;
    };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  domain: string;
  dataDir: string;
  uploadsPath: string;
  /** Where each multipart upload gets a temporary directory, removed when its request ends. */
  uploadTmpDir: string;
  /** Hours after which an upload no reference was accepted for is removed (docs/decisions/0114); 0: never. */
  uploadOrphanHours: number;
  /** Whether GET /uploads/... streams files from `uploadsPath` (docs/decisions/0107). */
  serveUploads: boolean;
  /** ffmpeg remuxing of uploaded videos and audio (docs/decisions/0110); `ffmpegPath` null: the packaged binary. */
  remux: { ffmpegPath: string | null; timeoutMs: number; concurrency: number };
  /** The LibreTranslate-compatible backend of translate.php; null: translation is not offered (503). */
  translate: { url: string; apiKey: string | null } | null;
  timeZone: string;
  tokenTtlDays: number;
  resetTtlMinutes: number;
  mobileAppMarker: string;
  rateLimits: Record<RateLimitGroup, number>;
  rateLimitStore: 'memory' | 'database' | 'redis';
  /**
   * Redis (docs/decisions/0160); null: the database does it all. `jobs` tunes the one BullMQ worker pool
   * of the instance: runs at once, attempts of a failing run and the first pause between them (doubling).
   */
  redis: { url: string; prefix: string; jobs: { concurrency: number; attempts: number; backoffMs: number } } | null;
  /** Login attempts per hour against one account, whatever the address; `rateLimits.auth` limits each address. */
  loginAccountLimit: number;
  /** GET /metrics: off unless enabled; with a token, only requests bearing it are answered. */
  metrics: { enabled: boolean; token: string | null };
  corsOrigins: string[];
  requireHttps: boolean;
  trustedProxies: string[];
  bodyLimit: string;
  logLevel: string;
  bcryptCost: number;
  database: DatabaseSettings;
  smtpUrl: string | null;
  mailFrom: string;
  push: {
    oneSignalAppId: string | null;
    oneSignalApiKey: string | null;
    oneSignalApiUrl: string;
    ntfyServer: string | null;
    ntfyTopicPrefix: string;
  };
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
  /** The live media server: its environment settings, and the PHP file the admin panel writes. */
  media: { url: string | null; apiKey: string | null; apiSecret: string | null; configFile: string };
  /** Distinct reporters after which a live is suspended. */
  liveSuspendThreshold: number;
  /** Base URL of the external conference server of `initiate_talk` (`<url>/call/<room_token>`). */
  talkServerUrl: string | null;
  moderation: ModerationRules;
  /** ActivityPub federation (docs/decisions/0051). */
  federation: {
    allowPrivateAddresses: boolean;
    /** Unsigned fetches of objects and collections refused (401); Plaza signs its own fetches (docs/decisions/0201). */
    secureMode: boolean;
    /** MAIN_APP_HOST without a trailing slash: where a browser at a Note or actor id is sent; null: a minimal page. */
    mainAppHost: string | null;
  };
  homeTimeline: { length: number; inRequestTimelines: number };
  /** Processes serving requests; more than 1 runs a node:cluster primary with that many workers. */
  workers: number;
  /** API_REGISTRATION and API_REGISTRATION_EMAIL_CONFIRM (docs/decisions/0104). */
  registration: RegistrationPolicy;
}

export class ConfigError extends Error {}

/** Parses the environment once. A bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty scalar is unset (`PORT=` listens on 8080); an empty list is empty, the least it can allow:
  // `API_CORS_ORIGINS=` allows no cross-origin access, rather than every origin.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && (v !== '' || LISTS.has(k))));
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
  const hosts = e.API_DB_HOST ?? e.DB_HOST;
  const defaultPort = e.API_DB_PORT ?? e.DB_PORT ?? 3306;
  const nodes = (hosts ?? []).map((entry) => parseNode(entry, defaultPort)!);
  // A socket path selects MySQL as a host does, and is used instead of the host and port.
  const database: DatabaseSettings =
    nodes.length || e.DB_SOCKET
      ? {
          kind: 'mysql',
          host: nodes[0]?.host ?? 'localhost',
          port: nodes[0]?.port ?? defaultPort,
          nodes: nodes.length ? nodes : [{ host: 'localhost', port: defaultPort }],
          readNodes: (e.DB_READ_HOSTS ?? []).map((entry) => parseNode(entry, defaultPort)!),
          ...(e.DB_SOCKET ? { socketPath: e.DB_SOCKET } : {}),
          database: e.API_DB_NAME ?? e.DB_NAME ?? 'plaza',
          user: e.API_DB_USER ?? e.DB_USER ?? 'root',
          password: e.API_DB_PASS ?? e.DB_PASSWORD ?? '',
          connectionLimit: e.DB_POOL_SIZE,
          connectTimeoutS: e.DB_CONNECT_TIMEOUT_S,
        }
      : { kind: 'sqlite', file: join(dataDir, 'plaza.sqlite') };
  const publicUrl = (e.API_PUBLIC_URL ?? localUrl(e.PORT)).replace(/\/+$/, '');
  const uploads = e.API_UPLOADS_PATH ?? join(dataDir, 'uploads');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    domain: new URL(publicUrl).host,
    dataDir,
    uploadsPath: isAbsolute(uploads) ? uploads : resolve(uploads),
    uploadTmpDir: resolve(e.API_UPLOAD_TMP_DIR ?? join(tmpdir(), 'plaza-uploads')),
    serveUploads: e.API_SERVE_UPLOADS === 'auto' ? !e.MAIN_APP_HOST : ['true', '1', 'yes'].includes(e.API_SERVE_UPLOADS),
    remux: {
      ffmpegPath: e.API_FFMPEG_PATH ?? null,
      timeoutMs: e.API_MEDIA_REMUX_TIMEOUT_S * 1000,
      concurrency: e.API_MEDIA_REMUX_CONCURRENCY,
    },
    uploadOrphanHours: e.API_UPLOAD_ORPHAN_HOURS,
    translate: e.TRANSLATE_URL ? { url: e.TRANSLATE_URL, apiKey: e.TRANSLATE_API_KEY ?? null } : null,
    timeZone: e.API_TIMEZONE,
    tokenTtlDays: e.API_TOKEN_TTL_DAYS,
    resetTtlMinutes: e.API_RESET_TTL_MINUTES,
    mobileAppMarker: e.API_MOBILE_APP_MARKER,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...overrides },
    // Several instances share Redis or one database, so that is where their counters must live.
    rateLimitStore: e.API_RATE_LIMIT_STORE ?? (e.REDIS_URL ? 'redis' : database.kind === 'mysql' ? 'database' : 'memory'),
    redis: e.REDIS_URL
      ? {
          url: e.REDIS_URL,
          prefix: e.REDIS_PREFIX,
          jobs: { concurrency: e.JOB_CONCURRENCY, attempts: e.JOB_ATTEMPTS, backoffMs: e.JOB_BACKOFF_MS },
        }
      : null,
    loginAccountLimit: e.API_LOGIN_ACCOUNT_LIMIT,
    metrics: { enabled: e.API_METRICS || e.API_METRICS_TOKEN !== undefined, token: e.API_METRICS_TOKEN ?? null },
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
      oneSignalApiUrl: e.ONESIGNAL_API_URL,
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
    media: {
      url: e.MEDIA_SERVER_URL ?? null,
      apiKey: e.MEDIA_SERVER_API_KEY ?? null,
      apiSecret: e.MEDIA_SERVER_API_SECRET ?? null,
      configFile: join(resolve(e.API_CONFIG_DIR), 'media_server.local.php'),
    },
    liveSuspendThreshold: e.LIVE_REPORT_SUSPEND_THRESHOLD,
    talkServerUrl: e.TALK_SERVER_URL ?? null,
    federation: {
      allowPrivateAddresses: e.API_FEDERATION_ALLOW_PRIVATE,
      secureMode: e.API_FEDERATION_SECURE_MODE,
      mainAppHost: e.MAIN_APP_HOST ? e.MAIN_APP_HOST.replace(/\/+$/, '') : null,
    },
    moderation: {
      reportVotes: e.MODERATION_REPORT_VOTES,
      electionVotes: e.MODERATION_ELECTION_VOTES,
      recallVotes: e.MODERATION_RECALL_VOTES,
      voterMinAccountDays: e.MODERATION_VOTER_MIN_DAYS,
      warningsBeforeBan: e.MODERATION_WARNINGS_BEFORE_BAN,
      warningWindowDays: e.MODERATION_WARNING_WINDOW_DAYS,
      banDays: e.MODERATION_BAN_DAYS,
      permanentAfterBans: e.MODERATION_PERMANENT_AFTER_BANS,
    },
    homeTimeline: { length: e.HOME_TIMELINE_LENGTH, inRequestTimelines: e.HOME_TIMELINE_FANOUT_IN_REQUEST },
    workers: e.API_WORKERS,
    registration: { mode: e.API_REGISTRATION, emailConfirm: e.API_REGISTRATION_EMAIL_CONFIRM },
  };
}

const localUrl = (port: number) => `http://localhost:${port}`;

/**
 * The configuration once the server listens: `PORT=0` lets the system pick a free port, and a public
 * URL derived from PORT (no API_PUBLIC_URL) follows the port actually taken.
 */
export function withListeningPort(config: Config, port: number): Config {
  if (config.port === port) return config;
  const publicUrl = config.publicUrl === localUrl(config.port) ? localUrl(port) : config.publicUrl;
  return { ...config, port, publicUrl, domain: new URL(publicUrl).host };
}
