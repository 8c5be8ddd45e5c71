import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run on the TypeScript sources: the workspace packages resolve to src/, not dist/,
// so `npm test` needs no build step.
export default defineConfig({
  resolve: {
    alias: [
      // Each package's kernel is its root entry; contexts are subpaths (`@plaza/domain/content`,
      // `@plaza/domain/content/testing`, `@plaza/adapters-mysql/content`, `@plaza/adapters-http/scripts/posts`).
      { find: /^@plaza\/adapters-http\/scripts\/(.+)$/, replacement: src('./packages/adapters-http/src/scripts/') + '$1.ts' },
      {
        find: /^@plaza\/(domain|adapters-mysql|adapters-http|adapters-integrations|adapters-activitypub)\/(.+)$/,
        replacement: src('./packages/') + '$1/src/$2/index.ts',
      },
      {
        find: /^@plaza\/(domain|adapters-mysql|adapters-http|adapters-integrations|adapters-activitypub)$/,
        replacement: src('./packages/') + '$1/src/index.ts',
      },
      { find: /^@plaza\/server$/, replacement: src('./apps/server/src/index.ts') },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'test/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
    ],
    // The cluster suites start MariaDB servers of their own: `npm run cluster:test` (vitest.cluster.config.ts).
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./test/global-setup.ts'],
  },
});
