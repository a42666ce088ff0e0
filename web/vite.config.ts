import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const API_TARGET = 'http://127.0.0.1:8080';

/** Text files worth compressing; images and fonts here are compressed formats already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|map)$/;
const MIN_BYTES = 1024;
const toBrotli = promisify(brotliCompress);
const toGzip = promisify(gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, at the highest levels:
 * compressed once here, the server sends them as they are (`@fastify/static` `preCompressed`)
 * instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'blrms-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            toBrotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            toGzip(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
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
