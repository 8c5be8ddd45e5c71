// `node scripts/start-once.mjs [directory]`: starts the server of a production bundle (./bundle by
// default) once, as CI and the Dockerfile do: on a free port, over a fresh SQLite database in a
// temporary directory, with nothing of this shell's environment but PATH. Waits for /health/ready,
// stops it with SIGTERM, and fails unless it answered, stopped with code 0, wrote only JSON lines, and
// no compiler is in the bundle.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? 'bundle');
const TIMEOUT_MS = 60_000;
const fail = (why) => {
  console.error(`start-once: ${why}`);
  process.exitCode = 1;
};

if (existsSync(join(dir, 'node_modules', 'typescript'))) fail('the bundle holds TypeScript: it must run without a compiler');
const dataDir = mkdtempSync(join(tmpdir(), 'plaza-start-once-'));
const started = Date.now();
const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: dir,
  env: {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    API_DATA_DIR: dataDir,
    API_CONFIG_DIR: join(dataDir, 'config'),
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines = [];
let partial = '';
let onLine = () => {};
child.stdout.on('data', (chunk) => {
  const parts = (partial + chunk).split('\n');
  partial = parts.pop();
  for (const line of parts.filter(Boolean)) {
    lines.push(line);
    process.stdout.write(`${line}\n`);
    onLine();
  }
});
const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));

try {
  const port = await new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error('no "Plaza listening" line')), TIMEOUT_MS);
    onLine = () => {
      const listening = lines.map((l) => l.startsWith('{') && JSON.parse(l)).find((l) => l && l.msg === 'Plaza listening, starting up');
      if (listening) {
        clearTimeout(timer);
        done(listening.port);
      }
    };
    exited.then(({ code, signal }) => reject(new Error(`exited (${signal ?? code}) before listening`)));
  });
  let ready = null;
  while (!ready && Date.now() - started < TIMEOUT_MS && child.exitCode === null) {
    const res = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null);
    if (res?.status === 200) ready = await res.json();
    else await new Promise((r) => setTimeout(r, 200));
  }
  if (!ready) throw new Error('/health/ready never answered 200');
  console.error(`start-once: /health/ready answered 200 after ${Date.now() - started} ms`);
  const stopping = Date.now();
  child.kill('SIGTERM');
  const { code, signal } = await exited;
  if (code !== 0) fail(`stopped with ${signal ?? code} on SIGTERM, not 0`);
  // Nothing was in flight: a stop that took the grace period (8 s) waited for something it should not.
  if (Date.now() - stopping > 5000) fail(`took ${Date.now() - stopping} ms to stop with nothing in flight`);
  const notJson = lines.filter((l) => {
    try {
      JSON.parse(l);
      return false;
    } catch {
      return true;
    }
  });
  if (notJson.length) fail(`lines that are not JSON:\n${notJson.join('\n')}`);
  if (!lines.some((l) => l.includes('"msg":"Plaza stopped"'))) fail('no "Plaza stopped" line');
} catch (error) {
  fail(error.message);
  child.kill('SIGKILL');
  await exited;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
