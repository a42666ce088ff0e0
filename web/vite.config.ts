import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const API_TARGET = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  // `source` lets Vite read @blrms/contracts from its TypeScript sources, so no build step is needed.
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    // zod as the console needs it (no eval under the CSP): see src/shared/zod-jitless.ts.
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('src/shared/zod-jitless.ts', import.meta.url)),
      },
    ],
  },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    // scripts/check-login-size.mjs reads it to measure the login route.
    manifest: true,
    // The console chunk (antd + pro-components) is loaded after login; the login route stays small.
    chunkSizeWarningLimit: 1500,
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
