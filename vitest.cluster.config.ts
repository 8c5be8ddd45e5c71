import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The cluster suites (test/cluster: a Galera cluster, a replicated pair) start their own MariaDB
// servers on loopback ports: run alone, one file after the other, by `npm run cluster:test` and by
// .ci/run when galera-4 is installed; `npm test` leaves them out (vitest.config.ts).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/cluster/**/*.test.ts'],
    exclude: configDefaults.exclude,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
