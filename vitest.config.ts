import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    // Vitest's default is one worker on a 2-core machine (cores - 1); the tests wait on the
    // database and timers often enough that two keep both cores busy. (Set for all projects:
    // projects run together must agree on it.)
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
          // One migrated database that every test app copies (server/src/test/global-setup.ts).
          globalSetup: ['server/src/test/global-setup.ts'],
          // The files share a worker's loaded modules instead of importing the whole server again
          // each (about 2.5 s a file, half the project's time); every file still builds its own
          // app on its own database, and no test mocks modules or changes globals.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'] } },
      { extends: true, test: { name: 'lint-rules', include: ['eslint-rules/**/*.test.js'] } },
      {
        extends: true,
        test: {
          name: 'device-sim',
          include: ['device-sim/src/**/*.test.ts'],
          testTimeout: 20000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.e2e.test.ts'],
          testTimeout: 60000,
          hookTimeout: 120000,
          fileParallelism: false,
          // One file at a time: the root's two workers would run two servers and browsers at once.
          maxWorkers: 1,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          include: ['server/faults/**/*.fault.test.ts'],
          testTimeout: 180000,
          hookTimeout: 120000,
          fileParallelism: false,
          // One file at a time: the root's two workers would run two servers and browsers at once.
          maxWorkers: 1,
        },
      },
    ],
  },
});
