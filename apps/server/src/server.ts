import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpApp, createLogger } from '@plaza/adapters-http';
import { collectMigrations, type DatabaseConfig, type DatabaseHandle, migrateToLatest, openDatabase } from '@plaza/adapters-mysql';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { buildContainer, type ContainerOverrides } from './container.js';
import { startJobs } from './jobs.js';
import { Accounts } from './modules/accounts.module.js';
import { Platform } from './modules/platform.module.js';
import { resolve, resolveAll } from './wiring/feature-module.js';
import { Migrations, Scripts } from './wiring/tokens.js';

const SHUTDOWN_GRACE_MS = 8_000;

export interface RunningPlaza {
  url: string;
  server: Server;
  container: Container;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export interface StartOptions extends ContainerOverrides {
  logger?: Logger;
  /** Use this already-open database instead of opening one from the configuration. */
  database?: DatabaseHandle;
  /** Periodic jobs are on by default; tests run them by hand. */
  jobs?: boolean;
  /** Check each success payload against its operation's response schema (the test servers do). */
  validateResponses?: boolean;
}

export async function startPlaza(config: Config, options: StartOptions = {}): Promise<RunningPlaza> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const database = options.database ?? openDatabase(config.database as DatabaseConfig);
  const container = buildContainer(config, database, logger, options);
  const applied = await migrateToLatest(database.db, database.dialect, collectMigrations(resolveAll(container, Migrations)));
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');

  const auth = resolve(container, Accounts.AuthService);
  const { app } = createHttpApp({
    scripts: resolveAll(container, Scripts),
    authenticate: (token) => auth.authenticate(token),
    health: resolve(container, Platform.Health),
    rateLimiter: resolve(container, Platform.RateLimiter),
    logger,
    options: {
      corsOrigins: config.corsOrigins,
      requireHttps: config.requireHttps,
      trustedProxies: config.trustedProxies,
      bodyLimit: config.bodyLimit,
      publicUrl: config.publicUrl,
      validateResponses: options.validateResponses ?? false,
    },
  });
  const stopJobs = options.jobs === false ? () => {} : startJobs(container, logger);

  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    server,
    container,
    database,
    close() {
      closing ??= (async () => {
        stopJobs();
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
        if (!options.database) await database.close();
      })();
      return closing;
    },
  };
}
