import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run on the TypeScript sources: the workspace packages resolve to src/, not dist/,
// so `npm test` needs no build step.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@plaza\/domain\/testing$/, replacement: src('./packages/domain/src/testing/index.ts') },
      { find: /^@plaza\/domain$/, replacement: src('./packages/domain/src/index.ts') },
      { find: /^@plaza\/adapters-mysql$/, replacement: src('./packages/adapters-mysql/src/index.ts') },
      { find: /^@plaza\/adapters-http$/, replacement: src('./packages/adapters-http/src/index.ts') },
      { find: /^@plaza\/adapters-integrations$/, replacement: src('./packages/adapters-integrations/src/index.ts') },
      { find: /^@plaza\/adapters-activitypub$/, replacement: src('./packages/adapters-activitypub/src/index.ts') },
      { find: /^@plaza\/server$/, replacement: src('./apps/server/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./test/global-setup.ts'],
  },
});
