import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test/app.js';

describe('console and docs', () => {
  let t: TestContext;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>BLRMS</title>');
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
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
