// `npm run package [-- <directory>]`: the production bundle (docs/decisions/0100), by default in
// ./bundle: the built JavaScript of every workspace, the files they read at run time, package.json
// and package-lock.json, and node_modules without the development dependencies. It needs no compiler:
// start it with `node apps/server/dist/main.js` from inside the directory (or `npm start` there).
// node_modules is copied from this checkout (installed with `npm ci` from the same lock) and pruned
// with `npm prune --omit=dev`, so no native module is compiled a second time.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale, staleProjects } from './build-if-stale.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(root, process.argv[2] ?? 'bundle');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

/** Files a workspace reads at run time beside its JavaScript: everything under src/ that is not TypeScript (the admin panel's templates and stylesheet). */
function assetsOf(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return assetsOf(path);
    return name.endsWith('.ts') ? [] : [path];
  });
}

if (buildIfStale() !== 0 || staleProjects()?.length) {
  console.error('package: the build failed or is out of date');
  process.exit(1);
}
if (out === root || !relative(root, out) || relative(out, root) === '')
  throw new Error('package: refusing to write into the checkout itself');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const file of ['package.json', 'package-lock.json', '.npmrc', 'README.md', '.env.example', 'scripts/build-if-stale.mjs']) {
  if (!existsSync(join(root, file))) continue;
  mkdirSync(dirname(join(out, file)), { recursive: true });
  cpSync(join(root, file), join(out, file));
}
for (const workspace of pkg.workspaces) {
  const from = join(root, workspace);
  const to = join(out, workspace);
  mkdirSync(to, { recursive: true });
  cpSync(join(from, 'package.json'), join(to, 'package.json'));
  cpSync(join(from, 'dist'), join(to, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.tsbuildinfo') });
  for (const asset of assetsOf(join(from, 'src'))) cpSync(asset, join(to, relative(from, asset)));
}
// `cp -a` keeps the workspaces' relative symlinks (node_modules/@plaza/* -> ../../packages/*) and is
// much quicker than a copy file by file from here.
run('cp', ['-a', join(root, 'node_modules'), join(out, 'node_modules')], root);
run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], out);
for (const dev of ['typescript', 'vitest']) {
  if (existsSync(join(out, 'node_modules', dev)))
    throw new Error(`package: ${dev} is still in the bundle: a development dependency leaked into production`);
}
console.error(`package: ${relative(process.cwd(), out) || '.'} is ready: cd into it and run node apps/server/dist/main.js`);
