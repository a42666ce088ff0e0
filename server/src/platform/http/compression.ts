import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Bodies below this are sent as they are: compressing them costs more than the bytes saved. */
const THRESHOLD_BYTES = 1024;

/**
 * Compresses API responses (JSON, CSV, text) on the fly when the client accepts it: brotli at the
 * plugin's fast quality, else gzip. The console's assets are compressed once at build time and
 * sent as they are (`console.ts`); a response that already has a content-encoding, a range
 * answer, a binary type (firmware images, XLSX) or a small body is left alone.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
}
