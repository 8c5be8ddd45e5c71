import { type Clock, ManualClock, RATE_LIMIT_GROUPS } from '@plaza/domain';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { RecordingPushSender } from '@plaza/domain/notifications/testing';
import { Accounts, Jobs, loadConfig, resolve, resolveAll, Scripts, startPlaza, type RunningPlaza } from '@plaza/server';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ApiClient } from './client.js';
import { loopbackTranslate, type LoopbackTranslate } from './loopback-translate.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import { testApiClient } from './openapi-recorder.js';

export interface TestServer {
  url: string;
  api: ApiClient;
  plaza: RunningPlaza;
  database: TestDatabase;
  mailer: RecordingMailer;
  push: RecordingPushSender;
  clock: Clock;
  /** This server's API_UPLOADS_PATH and API_UPLOAD_TMP_DIR, fresh directories of its own. */
  uploadsPath: string;
  uploadTmpDir: string;
  /** The LibreTranslate stand-in TRANSLATE_URL points at (unless `env` set another). */
  translate: LoopbackTranslate;
  /** Resolves when the mail the requests so far handed to the outbox has been attempted. */
  mailSettled(): Promise<void>;
  /** Runs one of the server's periodic jobs now (tests start the server with jobs off). */
  runJob(name: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Generous limits so suites never trip them by accident; rate-limit tests set their own. */
const RELAXED_LIMITS = RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(',');

/**
 * Boots the fully composed server on an ephemeral port over a fresh test database.
 * Pass `clock: new ManualClock()` to control time; `env` adds or overrides configuration.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; clock?: ManualClock; realMail?: boolean; realPush?: boolean } = {},
): Promise<TestServer> {
  const database = await openTestDatabase();
  const uploadsPath = mkdtempSync('/tmp/plaza-test-uploads-');
  const uploadTmpDir = mkdtempSync('/tmp/plaza-test-upload-tmp-');
  const translate = await loopbackTranslate();
  const mailer = new RecordingMailer();
  const push = new RecordingPushSender();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    // Errors only: a request that fails on our side prints its stack in the test output.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    BCRYPT_COST: '4',
    API_DATA_DIR: '/tmp/plaza-test-data',
    API_PUBLIC_URL: 'http://plaza.test',
    API_RATE_LIMITS: RELAXED_LIMITS,
    // Suites sign the same accounts in again and again; the per-account limit's tests set their own.
    API_LOGIN_ACCOUNT_LIMIT: '100000',
    // Test accounts are seconds old: let them vote in elections (the age rule is tested with its own value).
    MODERATION_VOTER_MIN_DAYS: '0',
    // A media server, so that lives.php tokens are signed (set the three to '' to have none).
    MEDIA_SERVER_URL: 'wss://media.plaza.test',
    MEDIA_SERVER_API_KEY: 'APItestkey',
    MEDIA_SERVER_API_SECRET: 'test-media-secret-of-at-least-32-bytes',
    API_UPLOADS_PATH: uploadsPath,
    API_UPLOAD_TMP_DIR: uploadTmpDir,
    // A loopback LibreTranslate, so that translate.php translates (set TRANSLATE_URL to '' to have none).
    TRANSLATE_URL: translate.url,
    ...options.env,
  });
  // Every response is checked against its operation's schema: a presenter that drifts fails here.
  // `realMail`: the configured transport (SMTP_URL, else files) instead of the recording mailer;
  // `realPush`: the configured push providers (or the log) instead of the recording transport.
  const plaza = await startPlaza(config, {
    database,
    mailer: options.realMail ? undefined : mailer,
    push: options.realPush ? undefined : push,
    clock: options.clock,
    jobs: false,
    validateResponses: true,
  });
  return {
    url: plaza.url,
    // Records the OpenAPI examples when PLAZA_RECORD_OPENAPI is set (test/support/openapi-recorder.ts).
    api: testApiClient(plaza.url, () => resolveAll(plaza.container, Scripts)),
    plaza,
    database,
    mailer,
    push,
    clock: options.clock ?? { now: () => new Date() },
    // What the server uses: `env` may have chosen other directories.
    uploadsPath: config.uploadsPath,
    uploadTmpDir: config.uploadTmpDir,
    translate,
    mailSettled: () => resolve(plaza.container, Accounts.MailDelivery).idle(),
    runJob(name) {
      const job = resolveAll(plaza.container, Jobs).find((j) => j.name === name);
      if (!job) throw new Error(`no job named ${name}`);
      return job.run();
    },
    async close() {
      await plaza.close();
      await database.drop();
      await translate.close();
      rmSync(uploadsPath, { recursive: true, force: true });
      rmSync(uploadTmpDir, { recursive: true, force: true });
    },
  };
}
