import cluster from 'node:cluster';
import { isSecondaryWorker, runPrimary, workerReady } from './cluster.js';
import { ConfigError, loadConfig } from './config.js';
import { startPlaza } from './server.js';

async function main() {
  let plaza;
  try {
    const config = loadConfig();
    if (config.workers > 1 && cluster.isPrimary) {
      runPrimary(config.workers, (line) => console.log(line));
      return;
    }
    plaza = await startPlaza(config, { jobs: !isSecondaryWorker() });
  } catch (error) {
    // A bad variable, or an uploads folder that cannot be created (start-up checks what parsing cannot).
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // The configuration in effect: PORT=0 and the public URL derived from it name the port actually taken.
  const { config } = plaza;
  const where = config.database.kind === 'sqlite' ? `SQLite at ${config.database.file}` : `MySQL ${config.database.socketPath ?? config.database.host}/${config.database.database}`;
  console.log(`Plaza listening on ${plaza.url} (public URL ${config.publicUrl}; ${where})`);
  workerReady();

  const shutdown = (signal: string) => {
    console.log(`${signal} received, finishing requests in flight`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    plaza.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(`Plaza failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
