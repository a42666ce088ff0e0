import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from './route-support.js';
import { AppError } from './app-error.js';

/**
 * Serves the built console when it exists, with the SPA fallback: any GET outside /api that is not
 * a file gets index.html, so client-side routes survive a reload. /api paths always get JSON.
 */
export async function registerConsole(app: FastifyInstance, webDist: string): Promise<void> {
  const hasConsole = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, { root: webDist, wildcard: true, index: 'index.html' });
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
