import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A plain `node:http` file server for the simulator's upgrade tests: one firmware image at
 * `/firmware.bin` with Range support (206 and Content-Range), 403 at `/expired.bin` as the
 * platform answers an expired signed URL, 404 elsewhere. It records every request.
 */

export interface FirmwareRequest {
  path: string;
  range: string | undefined;
  status: number;
  /** The client's address. */
  from: string | undefined;
}

export interface TestFirmwareServer {
  url(path?: string, host?: string): string;
  image: Buffer;
  sha256: string;
  requests: FirmwareRequest[];
  close(): Promise<void>;
}

/** Bytes per write: the image reaches the client in many chunks, as a large file would. */
const WRITE_CHUNK = 16 * 1024;

/**
 * `chunkDelayMs` paces the body (a pause after each 16 KiB), so that a download lasts long enough
 * for something to happen meanwhile.
 */
export async function startFirmwareServer(
  size = 1024 * 1024,
  chunkDelayMs = 0,
): Promise<TestFirmwareServer> {
  const image = randomBytes(size);
  const requests: FirmwareRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const path = request.url ?? '';
    const range = request.headers.range;
    const answer = (status: number) => {
      requests.push({ path, range, status, from: request.socket.remoteAddress });
      response.statusCode = status;
    };
    if (path.startsWith('/expired.bin')) {
      answer(403);
      response.end('link expired');
      return;
    }
    if (!path.startsWith('/firmware.bin')) {
      answer(404);
      response.end('not found');
      return;
    }
    let start = 0;
    const match = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (match) {
      start = Number(match[1]);
      if (start >= size) {
        answer(416);
        response.setHeader('content-range', `bytes */${size}`);
        response.end();
        return;
      }
      answer(206);
      response.setHeader('content-range', `bytes ${start}-${size - 1}/${size}`);
    } else {
      answer(200);
    }
    response.setHeader('content-length', String(size - start));
    response.setHeader('content-type', 'application/octet-stream');
    let offset = start;
    const pump = () => {
      while (offset < size) {
        if (response.destroyed) return;
        const end = Math.min(size, offset + WRITE_CHUNK);
        const more = response.write(image.subarray(offset, end));
        offset = end;
        if (chunkDelayMs > 0) {
          setTimeout(pump, chunkDelayMs);
          return;
        }
        if (!more) {
          response.once('drain', pump);
          return;
        }
      }
      response.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/firmware.bin', host = '127.0.0.1') => `http://${host}:${port}${path}`,
    image,
    sha256: createHash('sha256').update(image).digest('hex'),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
