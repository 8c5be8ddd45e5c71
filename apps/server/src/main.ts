import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { createLogger, serveClusterMetrics } from '@plaza/adapters-http';
import pino from 'pino';
import { isSecondaryWorker, runPrimary, workerReady } from './cluster.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { DatabaseUnreachable } from './database-wait.js';
import { startPlaza } from './server.js';

/**
 * Start, stop and failure lines, JSON like every other line. They are written at once (a synchronous
 * destination: the line that explains an exit is out before the exit), and whatever LOG_LEVEL says
 * short of `silent`: an operator quietening requests still sees where the server listens and why it
 * stopped.
 */
const lifecycle = createLogger({
  level: process.env.LOG_LEVEL === 'silent' ? 'silent' : 'info',
  destination: pino.destination({ dest: 1, sync: true }),
});

/** Where the data lives, without the password. */
function databaseOf(config: Config) {
  const db = config.database;
  if (db.kind === 'sqlite') return { dialect: 'sqlite', file: db.file };
  const where = db.socketPath
    ? { socket: db.socketPath }
    : db.nodes.length > 1
      ? { nodes: db.nodes.map((n) => `${n.host}:${n.port}`) }
      : { host: db.host, port: db.port };
  return {
    dialect: 'mysql',
    ...where,
    ...(db.readNodes.length ? { replicas: db.readNodes.map((n) => `${n.host}:${n.port}`) } : {}),
    name: db.database,
  };
}

async function main() {
  let plaza;
  try {
    const config = loadConfig();
    if (config.workers > 1 && cluster.isPrimary) {
      // One scrape of any worker sees the whole instance: the primary gathers every worker's figures.
      if (config.metrics.enabled) serveClusterMetrics();
      runPrimary(config.workers, lifecycle);
      return;
    }
    plaza = await startPlaza(config, {
      jobs: !isSecondaryWorker(),
      queueMetrics: !isSecondaryWorker(),
      onListening: ({ address, port }) => lifecycle.info({ address, port }, 'Plaza listening, starting up'),
    });
  } catch (error) {
    // A bad variable, or an uploads folder that cannot be created (start-up checks what parsing cannot).
    if (error instanceof ConfigError) {
      lifecycle.fatal(error.message);
      process.exit(2);
    }
    throw error;
  }
  // The configuration in effect: PORT=0 and the public URL derived from it name the port actually taken.
  const { config } = plaza;
  const { address, port } = plaza.server.address() as AddressInfo;
  lifecycle.info({ address, port, url: plaza.url, public_url: config.publicUrl, database: databaseOf(config) }, 'Plaza ready');
  workerReady();

  const shutdown = (signal: string) => {
    lifecycle.info({ signal }, 'Plaza stopping: finishing requests in flight');
    const force = setTimeout(() => {
      lifecycle.error({ signal }, 'Plaza stopped before its requests finished (grace period over)');
      process.exit(1);
    }, 10_000);
    force.unref();
    plaza.close().then(
      () => {
        lifecycle.info({ signal }, 'Plaza stopped');
        process.exit(0);
      },
      (err: unknown) => {
        lifecycle.error({ err, signal }, 'Plaza stopped with an error');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  // An unreachable database says all in its message; anything else is a bug whose stack is wanted.
  lifecycle.fatal(
    error instanceof DatabaseUnreachable ? {} : { err: error },
    `Plaza failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
