// Builds the TypeScript projects (`tsc -b`) only when a source is newer than its build, so that
// `npm start` runs the built server without the compiler (docs/decisions/0100). `npm install` runs it
// as `prepare`. Quiet when the build is current. In a production bundle (no sources) it does nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest modification time under `dir`: its production sources (tests are not built) and the directories themselves, which change when a file is added, removed or renamed. */
function newestSource(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The projects `tsc -b` builds (the root tsconfig's references) whose build is missing or older than a source; null when there are no sources at all (a bundle). */
export function staleProjects() {
  const rootConfig = join(root, 'tsconfig.json');
  if (!existsSync(rootConfig)) return null;
  const projects = JSON.parse(readFileSync(rootConfig, 'utf8')).references.map((r) => join(root, r.path));
  const withSources = projects.filter((p) => existsSync(join(p, 'src')));
  if (withSources.length === 0) return null;
  const shared = statSync(join(root, 'tsconfig.base.json')).mtimeMs;
  return withSources.filter((project) => {
    const stamp = join(project, 'dist', '.tsbuildinfo');
    if (!existsSync(stamp)) return true;
    const built = statSync(stamp).mtimeMs;
    return Math.max(shared, statSync(join(project, 'tsconfig.json')).mtimeMs, newestSource(join(project, 'src'))) > built;
  });
}

/** Runs `tsc -b` when something is stale. Returns the exit code to use. */
export function buildIfStale() {
  const stale = staleProjects();
  if (!stale || stale.length === 0) return 0;
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    const missing = stale.filter((p) => !existsSync(join(p, 'dist')));
    if (missing.length === 0) {
      console.error(
        'build-if-stale: sources are newer than the build, but TypeScript is not installed (npm install without --omit=dev rebuilds); running the existing build',
      );
      return 0;
    }
    console.error(
      `build-if-stale: ${missing.map((p) => p.slice(root.length)).join(', ')} not built and TypeScript is not installed: run npm install (dev dependencies included), or use a production bundle (npm run package)`,
    );
    return 1;
  }
  console.error(`build-if-stale: building ${stale.map((p) => p.slice(root.length)).join(', ')} (tsc -b)`);
  const built = spawnSync(process.execPath, [tsc, '-b', root], { cwd: root, stdio: 'inherit' });
  return built.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const code = buildIfStale();
  // As `prepare`, a type error does not fail `npm install` (a package still gets added while someone's
  // work in progress does not compile); `npm start` builds again and stops on it.
  if (code !== 0 && process.argv.includes('--prepare')) console.error('build-if-stale: the build failed; npm start will try again');
  else process.exitCode = code;
}
