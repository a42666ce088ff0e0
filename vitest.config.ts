import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
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
        },
      },
    ],
  },
});
