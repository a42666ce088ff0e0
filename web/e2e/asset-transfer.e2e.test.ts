/**
 * What a browser downloads for the console (issue 21): a cold visit of the sign-in page stays
 * within the transfer budget, counted as bytes on the wire (compressed bodies and headers) by
 * Chromium itself, and a second visit downloads no script at all: hashed assets are cached as
 * immutable and only index.html is revalidated.
 */
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginForm, seen } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

/** The sign-in route's budget on the wire; `npm run size -w web` checks the build's share of it. */
const LOGIN_TRANSFER_BUDGET_KB = 200;

const h = useConsoleHarness();

interface Transfer {
  url: string;
  type: string;
  bytes: number;
  encoding: string | undefined;
  fromCache: boolean;
}

/** Records every response of the page with the bytes Chromium received for it. */
async function recordTransfers(page: Page): Promise<{ transfers: Transfer[]; cdp: CDPSession }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const pending = new Map<string, Omit<Transfer, 'bytes'>>();
  const transfers: Transfer[] = [];
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    pending.set(requestId, {
      url: response.url,
      type,
      encoding: headers['content-encoding'],
      fromCache: Boolean(response.fromDiskCache || response.fromPrefetchCache),
    });
  });
  cdp.on('Network.requestServedFromCache', ({ requestId }) => {
    const seenResponse = pending.get(requestId);
    if (seenResponse) seenResponse.fromCache = true;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const response = pending.get(requestId);
    if (response) transfers.push({ ...response, bytes: encodedDataLength });
  });
  return { transfers, cdp };
}

async function visitLogin(page: Page): Promise<void> {
  await page.goto(`${h.server.url}/user/login`, { waitUntil: 'networkidle' });
  await seen(loginForm(page).username);
}

describe('console assets on the wire', () => {
  it('a cold visit of the sign-in page stays in budget, compressed; a second visit downloads no script', async () => {
    const context = await h.browser.newContext();
    const page = h.track({ context, page: await context.newPage() });

    const cold = await recordTransfers(page);
    await visitLogin(page);
    const scripts = cold.transfers.filter((t) => t.type === 'Script');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      // Tiny chunks are not worth compressing; everything else arrives encoded.
      if (script.bytes > 1500) expect(script.encoding, script.url).toMatch(/^(br|gzip)$/);
    }
    const coldKb = cold.transfers.reduce((sum, t) => sum + t.bytes, 0) / 1024;
    console.log(
      `sign-in page, cold visit: ${coldKb.toFixed(1)} KB on the wire in ${cold.transfers.length} responses`,
    );
    expect(coldKb).toBeLessThanOrEqual(LOGIN_TRANSFER_BUDGET_KB);
    await cold.cdp.detach();

    const warm = await recordTransfers(page);
    await page.goto('about:blank');
    await visitLogin(page);
    const warmScripts = warm.transfers.filter((t) => t.type === 'Script');
    expect(warmScripts.length).toBeGreaterThan(0);
    const downloaded = warmScripts.filter((t) => !t.fromCache && t.bytes > 0);
    expect(downloaded.map((t) => t.url)).toEqual([]);
    const documents = warm.transfers.filter((t) => t.type === 'Document');
    expect(documents).toHaveLength(1);
  });
});
