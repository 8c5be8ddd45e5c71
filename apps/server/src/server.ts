import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpApp, createLogger, type HealthCheck } from '@plaza/adapters-http';
import { collectMigrations, type DatabaseConfig, type DatabaseHandle, migrateToLatest, openDatabase } from '@plaza/adapters-mysql';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { type Config, ConfigError, withListeningPort } from './config.js';
import { buildContainer, type ContainerOverrides } from './container.js';
import { waitForDatabase } from './database-wait.js';
import { answerProbe, isProbe, type Phase } from './health-probes.js';
import { startJobs } from './jobs.js';
import { RedisConnections } from '@plaza/adapters-integrations/redis';
import { watchMetrics } from './metrics.js';
import { Accounts } from './modules/accounts.module.js';
import { Moderation } from './modules/moderation.module.js';
import { Platform } from './modules/platform.module.js';
import { resolve, resolveAll } from './wiring/feature-module.js';
import { Migrations, Mounts, PagesToken, Scripts } from './wiring/tokens.js';

const SHUTDOWN_GRACE_MS = 8_000;

export interface RunningPlaza {
  url: string;
  /** The configuration in effect: with the port actually taken when PORT=0 asked for any. */
  config: Config;
  server: Server;
  container: Container;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export interface StartOptions extends ContainerOverrides {
  logger?: Logger;
  /** Called once the port is bound, before the database is awaited and migrated (main.ts logs it). */
  onListening?: (address: AddressInfo) => void;
  /** Use this already-open database instead of opening one from the configuration. */
  database?: DatabaseHandle;
  /** Periodic jobs are on by default; tests run them by hand. */
  jobs?: boolean;
  /** Whether /metrics reports the instance's work queues here: not in a cluster worker without the jobs. */
  queueMetrics?: boolean;
  /** Check each success payload against its operation's response schema (the test servers do). */
  validateResponses?: boolean;
}

/** Creates the uploads folder if need be, or refuses to start with one line when it cannot be written. */
async function prepareUploads(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
    await access(path, constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`Invalid configuration: API_UPLOADS_PATH ${path} cannot be created or written (${reason})`);
  }
}

/** What a request gets while the server listens but is not ready yet (migrations running). */
function starting(_req: IncomingMessage, res: ServerResponse): void {
  const message = 'Plaza is starting, try again shortly';
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1', 'X-Content-Type-Options': 'nosniff' });
  res.end(JSON.stringify({ success: false, error: message, message, code: 'starting' }));
}

export async function startPlaza(configured: Config, options: StartOptions = {}): Promise<RunningPlaza> {
  await prepareUploads(configured.uploadsPath);
  const logger = options.logger ?? createLogger({ level: configured.logLevel });

  // Listen first: a port in use fails before any migration, and the port PORT=0 gets is known before
  // the modules build URLs from it. Requests wait for nothing meanwhile: they get a 503 until ready.
  let handle: (req: IncomingMessage, res: ServerResponse) => unknown = starting;
  // Handlers still running: the database closes only once the last of them has returned, even when
  // its connection was cut or its answer already sent (docs/decisions/0074).
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const running = work.catch(() => {});
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  };
  let draining = false;
  let serving = false;
  let health: HealthCheck | null = null;
  const phase = (): Phase => (draining ? 'draining' : serving ? 'serving' : 'starting');
  const server = createServer((req, res) => {
    // While shutting down, answers close their connection: keep-alive clients reconnect elsewhere.
    if (draining) res.shouldKeepAlive = false;
    track(Promise.resolve(isProbe(req) ? answerProbe(req, res, phase, health) : handle(req, res)));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(configured.port, configured.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const { port } = bound;
  const config = withListeningPort(configured, port);
  options.onListening?.(bound);

  const database = options.database ?? openDatabase(config.database as DatabaseConfig);
  // Redis (docs/decisions/0160): one JSON line when a connection fails and one when it is back, never one
  // per retry. A Redis away at start-up does not stop the start: requests need only the database, and
  // the jobs wait for Redis.
  const redis = config.redis
    ? new RedisConnections(config.redis.url, config.redis.prefix, {
        down: (details) => logger.error({ redis: details }, 'Redis unreachable: jobs wait, limits count per instance'),
        up: (details) => logger.info({ redis: details }, 'Redis reachable again'),
      })
    : null;
  let container: Container;
  let ready: typeof handle;
  try {
    // A database handed in is the caller's; one opened here may still be starting (compose, a reboot).
    if (!options.database) await waitForDatabase(database, config.database, logger);
    container = buildContainer(config, database, logger, { ...options, redis });
    await redis?.waitReady(2_000);
    const applied = await migrateToLatest(database.db, database.dialect, collectMigrations(resolveAll(container, Migrations)));
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    const auth = resolve(container, Accounts.AuthService);
    const sanctions = resolve(container, Moderation.SanctionService);
    const { app } = createHttpApp({
      scripts: resolveAll(container, Scripts),
      pages: resolveAll(container, PagesToken),
      mounts: resolveAll(container, Mounts),
      authenticate: (token) => auth.session(token),
      // A banned or suspended account is refused everywhere but login and sanctions.php?type=mine (docs/decisions/0012, 0105).
      admit: (actor) => sanctions.admit(actor),
      health: resolve(container, Platform.Health),
      rateLimiter: resolve(container, Platform.RateLimiter),
      metrics: watchMetrics(config, container, database, options.queueMetrics ?? true),
      // With DB_READ_HOSTS, the reads of GET operations go to a replica (docs/decisions/0141).
      runOperation: (operation, work) => database.reads.run(operation, work),
      logger,
      options: {
        corsOrigins: config.corsOrigins,
        requireHttps: config.requireHttps,
        trustedProxies: config.trustedProxies,
        bodyLimit: config.bodyLimit,
        publicUrl: config.publicUrl,
        uploadTmpDir: config.uploadTmpDir,
        validateResponses: options.validateResponses ?? false,
      },
    });
    ready = app.callback();
  } catch (error) {
    server.close();
    await redis?.close();
    if (!options.database) await database.close();
    // The lines so far (each database attempt) are out before the caller logs why the start failed.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      logger.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    throw error;
  }
  const stopJobs = options.jobs === false ? async () => {} : startJobs(resolve(container, Platform.JobRunner), logger);
  handle = ready;
  health = resolve(container, Platform.Health);
  serving = true;

  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    config,
    server,
    container,
    database,
    close() {
      closing ??= (async () => {
        draining = true;
        // No job starts from now on; one in progress is waited for like a request in flight.
        track(stopJobs());
        // Stop accepting, let requests in flight finish, and drop keep-alive connections as soon as
        // they fall idle; whatever still hangs after the grace period is cut.
        await new Promise<void>((resolve) => {
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
          server.close(() => {
            clearInterval(sweep);
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        });
        // Connections are gone, but a handler may still be at work (its client left, or it answered
        // before finishing): the database stays open until every one has returned, grace permitting.
        const deadline = Date.now() + SHUTDOWN_GRACE_MS;
        while (inFlight.size > 0 && Date.now() < deadline) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([Promise.all([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
          clearTimeout(timer);
        }
        await redis?.close();
        if (!options.database) await database.close();
        // Lines still in the asynchronous log buffer are written before the process may exit.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000);
          logger.flush(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      })();
      return closing;
    },
  };
}
