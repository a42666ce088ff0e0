import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  // `source` lets Vite read @blrms/contracts from its TypeScript sources, so no build step is needed.
  resolve: { conditions: ['source', ...defaultClientConditions] },
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
