import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { WS_TOKEN_PROTOCOL } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestContext } from './test/app.js';

const ENTRY_SCRIPT = `export const entry = ${JSON.stringify('x'.repeat(5000))};\n`;

describe('console and docs', () => {
  let t: TestContext;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>BLRMS</title>');
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
    // A hashed entry with the build's precompressed copies (web/vite.config.ts writes them).
    const entry = path.join(webDist, 'assets', 'index-abc123.js');
    fs.writeFileSync(entry, ENTRY_SCRIPT);
    fs.writeFileSync(`${entry}.br`, zlib.brotliCompressSync(ENTRY_SCRIPT));
    fs.writeFileSync(`${entry}.gz`, zlib.gzipSync(ENTRY_SCRIPT));
    t = await createTestApp({ webDist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the built console and its files', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>BLRMS</title>');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
  });

  it('sends the precompressed copy the browser accepts, and caches hashed files for a year', async () => {
    const url = '/assets/index-abc123.js';
    const brotli = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.rawPayload.length).toBeLessThan(200);
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(ENTRY_SCRIPT);

    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(ENTRY_SCRIPT);

    const identity = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(ENTRY_SCRIPT);
  });

  it('has the browser revalidate index.html, on a client-side route too', async () => {
    for (const url of ['/', '/index.html', '/device/list']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers.etag, url).toBeDefined();
    }
    const etag = (await t.app.inject({ method: 'GET', url: '/' })).headers.etag as string;
    const again = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('compresses API answers above 1 KB when the client accepts it, and only then', async () => {
    const url = '/api/docs/json';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const spec = plain.body;
    expect(spec.length).toBeGreaterThan(1024);

    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(spec);
    expect(gzip.rawPayload.length).toBeLessThan(spec.length / 4);

    const brotli = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(spec);

    // A small answer is not worth it.
    const small = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('falls back to index.html for client-side routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/analysis' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });

  it('never falls back for /api paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/unknown/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 404 });
  });

  it('does not serve files outside the console folder', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/../../etc/passwd' });
    expect(res.body).not.toContain('root:');
    const encoded = await t.app.inject({ method: 'GET', url: '/%2e%2e/%2e%2e/etc/passwd' });
    expect(encoded.body).not.toContain('root:');
  });

  it('serves the OpenAPI description publicly', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const spec = res.json();
    expect(spec.paths['/api/sys/login'].post).toBeDefined();
    expect(
      spec.paths['/api/sys/log/list'].get.parameters.map((p: { name: string }) => p.name),
    ).toContain('column');
  });
});

describe('shutdown', () => {
  it('answers the request in flight with Connection: close, closes idle and console sockets', async () => {
    const t = await createTestApp();
    try {
      const userId = await t.createUser({ username: 'closer', password: 'Closer-Pass-1' });
      const token = await t.login('closer', 'Closer-Pass-1');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

      const consoleSocket = new WebSocket(`ws://${base}/api/websocket/${userId}`, [
        WS_TOKEN_PROTOCOL,
        token,
      ]);
      const consoleClosed = new Promise<number>((resolve) => consoleSocket.once('close', resolve));
      await new Promise((resolve, reject) =>
        consoleSocket.once('open', resolve).once('error', reject),
      );

      const agent = new http.Agent({ keepAlive: true });
      const idle = await new Promise<{ closed: Promise<void> }>((resolve, reject) => {
        http
          .get(`http://${base}/api/health`, { agent }, (res) => {
            const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
            res.resume().on('end', () => resolve({ closed }));
          })
          .on('error', reject);
      });

      // A request whose body is still arriving when the close begins.
      const body = '{"username":"closer","password":"Closer-Pass-1"}';
      const inFlight = http.request(`http://${base}/api/sys/login`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      });
      const answered = new Promise<http.IncomingMessage>((resolve, reject) =>
        inFlight.once('response', resolve).once('error', reject),
      );
      inFlight.write(body.slice(0, 5));
      await new Promise((resolve) => setTimeout(resolve, 100));

      const started = Date.now();
      const closed = t.app.close();
      await idle.closed;
      expect(await consoleClosed).toBe(1012);
      inFlight.end(body.slice(5));
      const answer = await answered;
      answer.resume();
      expect(answer.headers.connection).toBe('close');
      await closed;
      expect(Date.now() - started).toBeLessThan(3000);
      agent.destroy();
    } finally {
      await t.close();
    }
  });
});
