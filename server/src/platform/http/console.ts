import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from './route-support.js';
import { AppError } from './app-error.js';

/** Vite's output folder of content-hashed files: a changed file gets a new name. */
const HASHED_ASSETS = `${path.sep}assets${path.sep}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Stored, but checked with the server (ETag) before each use: the entry names the new hashes. */
const REVALIDATE = 'no-cache';

/**
 * Serves the built console when it exists, with the SPA fallback: any GET outside /api that is not
 * a file gets index.html, so client-side routes survive a reload. /api paths always get JSON.
 * The build writes brotli and gzip copies of every text asset (`web/vite.config.ts`), sent as they
 * are to a browser that accepts them; hashed assets are cached for a year, so a second visit
 * downloads no script, and everything else (index.html first) is revalidated.
 */
export async function registerConsole(app: FastifyInstance, webDist: string): Promise<void> {
  const hasConsole = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', filePath.includes(HASHED_ASSETS) ? IMMUTABLE : REVALIDATE);
        // The same URL answers brotli, gzip or plain: a shared cache must keep them apart.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url === API_PREFIX ||
      request.url.startsWith(`${API_PREFIX}/`) ||
      request.url.startsWith(`${API_PREFIX}?`);
    if (hasConsole && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.sendFile('index.html');
    }
    throw new AppError('notFound', 404);
  });
}
