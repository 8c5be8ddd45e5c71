// `npm run dev`: rebuilds on every change (`tsc -b --watch`) and restarts the server when its built
// JavaScript changes (`node --watch`). Both stop on Ctrl-C. Configuration comes from the environment,
// as for `npm start`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The first build in the foreground, so that the server starts from a complete one.
if (buildIfStale() !== 0) process.exit(1);

const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const children = [
  spawn(process.execPath, [tsc, '-b', '--watch', '--preserveWatchOutput'], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, ['--watch', 'apps/server/dist/main.js'], { cwd: root, stdio: 'inherit' }),
];
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
for (const child of children)
  child.once('exit', (code) => {
    stop('SIGTERM');
    process.exitCode ||= code ?? 0;
  });
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
