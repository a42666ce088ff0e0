/**
 * Per-company storage quota (issue 14 item 9): the firmware page header shows what the company
 * stores of its quota, in the console's language, and follows an upload.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSession, type ApiSession } from './support/api.js';
import { launchBrowser } from './support/browser.js';
import { adminStorage, seen, signedInPage } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ COMPANY_STORAGE_QUOTA: '1GiB' }),
    launchBrowser(),
  ]);
  const storage = await adminStorage(browser, server);
  session = apiSession(storage, server);
  ({ context, page } = await signedInPage(browser, server, storage));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

it('shows storage used of the quota on the firmware page, updated after an upload', async () => {
  await page.goto('/device/firmware');
  const storage = page.getByTestId('firmware-storage');
  await seen(storage);
  expect(await storage.textContent()).toMatch(/^(Storage: 0 B of 1 GB|存储：已用 0 B，共 1 GB)$/);

  const form = new FormData();
  form.append('series', 'R40');
  form.append('version', '1.0.0');
  form.append('file', new Blob([randomBytes(1536 * 1024)]), 'fw.bin');
  const headers: Record<string, string> = { 'X-Access-Token': session.token };
  if (session.companyId) headers['X-Company-Id'] = session.companyId;
  const res = await fetch(new URL('/api/firmware/upload', server.url), {
    method: 'POST',
    headers,
    body: form,
  });
  expect(res.status).toBe(200);

  await page.reload();
  await seen(storage);
  await expect
    .poll(() => storage.textContent())
    .toMatch(/^(Storage: 1\.5 MB of 1 GB|存储：已用 1\.5 MB，共 1 GB)$/);
});
