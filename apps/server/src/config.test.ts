import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, withListeningPort } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded SQLite database under ./data', () => {
    const c = loadConfig({});
    expect(c.database.kind).toBe('sqlite');
    expect(c.port).toBe(8080);
    expect(c.rateLimits.auth).toBe(50);
    expect(c.rateLimitStore).toBe('memory');
    expect(c.mobileAppMarker).toBe('militant-flutter-v1');
    expect(c.logLevel).toBe('info');
  });

  it('logs at debug level with API_DEBUG unless LOG_LEVEL says otherwise', () => {
    expect(loadConfig({ API_DEBUG: 'true' }).logLevel).toBe('debug');
    expect(loadConfig({ API_DEBUG: 'true', LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it('switches to MySQL on DB_HOST or API_DB_HOST, API_ names first', () => {
    const c = loadConfig({ DB_HOST: 'db', DB_NAME: 'social', DB_USER: 'u', DB_PASSWORD: 'p', API_DB_NAME: 'api_social' });
    expect(c.database).toMatchObject({ kind: 'mysql', host: 'db', database: 'api_social', user: 'u', password: 'p', port: 3306 });
    expect(c.rateLimitStore).toBe('database');
  });

  it('connects to MySQL through a Unix socket with DB_SOCKET, which selects MySQL as DB_HOST does', () => {
    expect(loadConfig({ DB_SOCKET: '/run/mysqld/mysqld.sock', DB_NAME: 'social' }).database).toMatchObject({
      kind: 'mysql',
      socketPath: '/run/mysqld/mysqld.sock',
      database: 'social',
    });
    expect(loadConfig({ DB_HOST: 'db' }).database).not.toHaveProperty('socketPath');
    expect(() => loadConfig({ DB_SOCKET: 'mysqld.sock' })).toThrow(/DB_SOCKET/);
  });

  it('reads the moderation thresholds, with the defaults of docs/decisions/0012', () => {
    expect(loadConfig({}).moderation).toEqual({
      reportVotes: 3,
      electionVotes: 5,
      recallVotes: 5,
      voterMinAccountDays: 7,
      warningsBeforeBan: 3,
      warningWindowDays: 90,
      banDays: 7,
      permanentAfterBans: 2,
    });
    expect(
      loadConfig({ MODERATION_REPORT_VOTES: '5', MODERATION_VOTER_MIN_DAYS: '0', MODERATION_PERMANENT_AFTER_BANS: '0' }).moderation,
    ).toMatchObject({ reportVotes: 5, voterMinAccountDays: 0, permanentAfterBans: 0 });
  });

  it('keeps registration open without e-mail confirmation unless API_REGISTRATION says otherwise (docs/decisions/0104)', () => {
    expect(loadConfig({}).registration).toEqual({ mode: 'open', emailConfirm: false });
    expect(loadConfig({ API_REGISTRATION: 'invite', API_REGISTRATION_EMAIL_CONFIRM: 'true' }).registration).toEqual({
      mode: 'invite',
      emailConfirm: true,
    });
    for (const mode of ['approval', 'closed'] as const) expect(loadConfig({ API_REGISTRATION: mode }).registration.mode).toBe(mode);
    expect(() => loadConfig({ API_REGISTRATION: 'invites' })).toThrow(/^Invalid configuration: API_REGISTRATION /);
    expect(() => loadConfig({ API_REGISTRATION_EMAIL_CONFIRM: 'maybe' })).toThrow(/API_REGISTRATION_EMAIL_CONFIRM/);
  });

  it('applies rate-limit overrides', () => {
    expect(loadConfig({ API_RATE_LIMITS: 'posts=500, auth=10' }).rateLimits).toMatchObject({ posts: 500, auth: 10, comments: 150 });
  });

  it.each([
    ['PORT', 'eighty', 'PORT'],
    ['API_TIMEZONE', 'Mars/Olympus', 'API_TIMEZONE'],
    ['API_REQUIRE_HTTPS', 'maybe', 'API_REQUIRE_HTTPS'],
    ['API_RATE_LIMITS', 'posts=-1', 'API_RATE_LIMITS'],
    ['API_RATE_LIMITS', 'nonsense=3', 'API_RATE_LIMITS'],
    ['API_PUBLIC_URL', 'not a url', 'API_PUBLIC_URL'],
    ['MODERATION_REPORT_VOTES', '0', 'MODERATION_REPORT_VOTES'],
    ['MODERATION_BAN_DAYS', 'a week', 'MODERATION_BAN_DAYS'],
  ])('names the variable when %s=%s is invalid', (name, value, expected) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${expected}`));
  });

  it.each([
    ['API_CORS_ORIGINS', 'app.example.org', '"app.example.org"'],
    ['API_CORS_ORIGINS', 'https://ok.example.org,localhost:3000', '"localhost:3000"'],
    ['API_CORS_ORIGINS', 'https://app.example.org/', 'written https://app.example.org'],
    ['API_CORS_ORIGINS', 'https://app.example.org:443', 'written https://app.example.org'],
    ['API_CORS_ORIGINS', '*,https://app.example.org', 'mixes *'],
    ['API_TRUSTED_PROXIES', 'foo', '"foo"'],
    ['API_TRUSTED_PROXIES', '10.0.0.1,10.0.0.0/33', '"10.0.0.0/33"'],
    ['API_TRUSTED_PROXIES', 'localhost', '"localhost"'],
    ['WEBRTC_STUN_URLS', 'stun:ok.example.org,turn:x.example.org', '"turn:x.example.org"'],
    ['WEBRTC_TURN_URLS', 'turn.example.org:3478', '"turn.example.org:3478"'],
    ['MEDIA_TECHNICIAN_USER_IDS', '1,2,x', '"x"'],
    ['PORT', '65536', ''],
    ['HOST', 'not a host', ''],
    ['DB_HOST', 'db host', ''],
    ['API_PUBLIC_URL', 'ftp://plaza.example.org', ''],
    ['API_PUBLIC_URL', 'https://plaza.example.org/?x=1', ''],
    ['MAIN_APP_HOST', 'example.org', ''],
    ['NTFY_SERVER', 'javascript:alert(1)', ''],
    ['SMTP_URL', 'smtp://', ''],
    ['MAIL_FROM', 'Plaza', ''],
    ['NTFY_TOPIC_PREFIX', 'a b', ''],
    ['API_MOBILE_APP_MARKER', ' marker', ''],
    ['API_BODY_LIMIT', '0mb', ''],
    ['LOG_LEVEL', 'verbose', ''],
    ['API_RATE_LIMIT_STORE', 'redis', ''],
    ['WEBRTC_TURN_USERNAME', 'user', ''],
  ])('refuses %s=%s with one line naming it and the bad entry', (name, value, entry) => {
    let message = '';
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const named = name === 'WEBRTC_TURN_USERNAME' ? 'WEBRTC_TURN_CREDENTIAL' : name;
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${named} `));
    expect(message).toContain(entry);
    expect(message).not.toContain('\n');
  });

  it('reads origins, proxy ranges and named ranges', () => {
    const c = loadConfig({
      API_CORS_ORIGINS: 'https://app.example.org, http://localhost:3000',
      API_TRUSTED_PROXIES: 'loopback,10.0.0.0/8 fd00::/8',
    });
    expect(c.corsOrigins).toEqual(['https://app.example.org', 'http://localhost:3000']);
    expect(c.trustedProxies).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8']);
    expect(loadConfig({ WEBRTC_TURN_USERNAME: 'u', WEBRTC_TURN_CREDENTIAL: 'p' }).webrtc).toMatchObject({
      turnUsername: 'u',
      turnCredential: 'p',
    });
  });

  it('reads a list set to an empty value as the empty list, the least it can allow, and an empty scalar as unset', () => {
    expect(loadConfig({}).corsOrigins).toEqual(['*']);
    expect(loadConfig({ API_CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    expect(loadConfig({ API_CORS_ORIGINS: ' , ' }).corsOrigins).toEqual([]);
    expect(loadConfig({ API_TRUSTED_PROXIES: '' }).trustedProxies).toEqual([]);
    expect(loadConfig({ WEBRTC_STUN_URLS: '' }).webrtc.stunUrls).toEqual([]);
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
  });

  it('serves uploads when no main application does (API_SERVE_UPLOADS=auto), or as told', () => {
    expect(loadConfig({}).serveUploads).toBe(true);
    expect(loadConfig({ MAIN_APP_HOST: 'https://social.example.org' }).serveUploads).toBe(false);
    expect(loadConfig({ MAIN_APP_HOST: 'https://social.example.org', API_SERVE_UPLOADS: 'true' }).serveUploads).toBe(true);
    expect(loadConfig({ API_SERVE_UPLOADS: 'false' }).serveUploads).toBe(false);
    expect(() => loadConfig({ API_SERVE_UPLOADS: 'sometimes' })).toThrow(/^Invalid configuration: API_SERVE_UPLOADS /);
  });

  it('reads the remuxing of videos and audio: the packaged ffmpeg, 60 s, two at a time by default', () => {
    expect(loadConfig({}).remux).toEqual({ ffmpegPath: null, timeoutMs: 60_000, concurrency: 2 });
    expect(
      loadConfig({ API_FFMPEG_PATH: '/usr/bin/ffmpeg', API_MEDIA_REMUX_TIMEOUT_S: '5', API_MEDIA_REMUX_CONCURRENCY: '1' }).remux,
    ).toEqual({ ffmpegPath: '/usr/bin/ffmpeg', timeoutMs: 5000, concurrency: 1 });
    expect(() => loadConfig({ API_FFMPEG_PATH: 'ffmpeg' })).toThrow(/^Invalid configuration: API_FFMPEG_PATH /);
    expect(() => loadConfig({ API_MEDIA_REMUX_TIMEOUT_S: '0' })).toThrow(/^Invalid configuration: API_MEDIA_REMUX_TIMEOUT_S /);
  });

  it('derives the public URL from the port actually taken when PORT=0', () => {
    const ephemeral = loadConfig({ PORT: '0' });
    expect(withListeningPort(ephemeral, 41234)).toMatchObject({
      port: 41234,
      publicUrl: 'http://localhost:41234',
      domain: 'localhost:41234',
    });
    const explicit = loadConfig({ PORT: '0', API_PUBLIC_URL: 'https://plaza.example.org' });
    expect(withListeningPort(explicit, 41234)).toMatchObject({
      port: 41234,
      publicUrl: 'https://plaza.example.org',
      domain: 'plaza.example.org',
    });
    const fixed = loadConfig({ PORT: '8081' });
    expect(withListeningPort(fixed, 8081)).toBe(fixed);
  });
});

describe('monitoring and login limits', () => {
  it('serves /metrics only when asked to, and with a token only to its bearer (docs/decisions/0103)', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: false, token: null });
    expect(loadConfig({ API_METRICS: 'true' }).metrics).toEqual({ enabled: true, token: null });
    expect(loadConfig({ API_METRICS_TOKEN: 'sixteen-chars-ok' }).metrics).toEqual({ enabled: true, token: 'sixteen-chars-ok' });
    expect(() => loadConfig({ API_METRICS_TOKEN: 'short' })).toThrow(/API_METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ API_METRICS_TOKEN: 'sixteen chars no' })).toThrow(/API_METRICS_TOKEN/);
  });

  it("limits logins per account apart from the auth group's per-address limit (docs/decisions/0102)", () => {
    expect(loadConfig({}).loginAccountLimit).toBe(10);
    const c = loadConfig({ API_LOGIN_ACCOUNT_LIMIT: '25', API_RATE_LIMITS: 'auth=500' });
    expect([c.loginAccountLimit, c.rateLimits.auth]).toEqual([25, 500]);
    expect(() => loadConfig({ API_LOGIN_ACCOUNT_LIMIT: '0' })).toThrow(/API_LOGIN_ACCOUNT_LIMIT/);
  });
});

describe('federation settings', () => {
  it('secure mode is off unless API_FEDERATION_SECURE_MODE is true; MAIN_APP_HOST loses its trailing slash', () => {
    expect(loadConfig({}).federation).toMatchObject({ secureMode: false, mainAppHost: null });
    expect(loadConfig({ API_FEDERATION_SECURE_MODE: 'true' }).federation.secureMode).toBe(true);
    expect(() => loadConfig({ API_FEDERATION_SECURE_MODE: 'maybe' })).toThrow(/API_FEDERATION_SECURE_MODE/);
    expect(loadConfig({ MAIN_APP_HOST: 'https://main.example/' }).federation.mainAppHost).toBe('https://main.example');
  });

  it('keeps private addresses out of reach unless API_FEDERATION_ALLOW_PRIVATE is true', () => {
    expect(loadConfig({}).federation.allowPrivateAddresses).toBe(false);
    expect(loadConfig({ API_FEDERATION_ALLOW_PRIVATE: 'true' }).federation.allowPrivateAddresses).toBe(true);
    expect(() => loadConfig({ API_FEDERATION_ALLOW_PRIVATE: 'sometimes' })).toThrow(ConfigError);
    expect(() => loadConfig({ API_FEDERATION_ALLOW_PRIVATE: 'sometimes' })).toThrow(/API_FEDERATION_ALLOW_PRIVATE/);
  });
});
