/**
 * Personal API keys (issue 14) in the console, in both languages: the user menu leads to the keys
 * page; a key made there with one permission is shown once and copied; the test calls the API
 * with it (as a script would, outside the browser), the list shows its last use after a reload,
 * and once revoked from the list the same call is refused.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StorageState } from './support/browser.js';
import { adminStorage, opened, seen } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();
let storage: StorageState;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
});

/** Retries an expectation for up to 10 s (vitest's default of 1 s is shorter than a page load). */
function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 10_000, interval: 100 });
}

/** A call a script makes with the key: the operation log, which the key is given. */
async function callWith(key: string): Promise<{ status: number; message: string }> {
  const res = await fetch(new URL('/api/sys/log/list?logType=1', harness.server.url), {
    headers: { 'X-Api-Key': key, 'Accept-Language': 'en-US' },
  });
  const body = (await res.json()) as { message: string };
  return { status: res.status, message: body.message };
}

function keyRow(page: Page, name: string): Locator {
  return page
    .getByTestId('api-key-table-own')
    .locator('tr.ant-table-row')
    .filter({ hasText: name });
}

const TEXT = {
  'zh-CN': { title: 'API密钥', never: '从未使用', revoked: '已撤销', created: 'API密钥已创建' },
  'en-US': {
    title: 'API keys',
    never: 'Never used',
    revoked: 'Revoked',
    created: 'API key created',
  },
} as const;

describe.each(['zh-CN', 'en-US'] as const)('API keys in %s', (lang) => {
  it('creates a key, uses it from a script, sees its last use and revokes it', async () => {
    const text = TEXT[lang];
    const { context, page } = await pageIn(
      harness.browser,
      harness.server,
      lang,
      { storageState: storage },
      '/dashboard/analysis',
    );
    harness.track({ context, page });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: harness.server.url,
    });

    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-api-keys').click();
    await page.waitForURL('**/isps/apiKey');
    await seen(page.getByText(text.title, { exact: true }).first());

    const name = `e2e-${lang}`;
    await page.getByTestId('api-key-create').click();
    const form = page.getByRole('dialog');
    await opened(form);
    await page.getByTestId('api-key-name').fill(name);
    await page.getByTestId('api-key-permissions').click();
    await page.keyboard.type('system:log:list');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByTestId('api-key-submit').click();

    const secret = page.getByTestId('api-key-secret');
    await seen(secret);
    await seen(page.getByRole('dialog', { name: text.created }));
    const key = (await secret.innerText()).trim();
    expect(key).toMatch(/^blrms_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('api-key-copy').click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.getByRole('dialog', { name: text.created }).locator('.ant-btn-primary').click();

    const row = keyRow(page, name);
    await seen(row);
    await expect(row.getByTestId('api-key-last-used').innerText()).resolves.toBe(text.never);

    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(await callWith(copied)).toMatchObject({ status: 200 });

    await page.reload();
    await seen(keyRow(page, name));
    await poll(() => keyRow(page, name).getByTestId('api-key-last-used').innerText()).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+$/,
    );

    await keyRow(page, name).getByTestId('api-key-revoke').click();
    await page.locator('.ant-popover:visible .ant-btn-primary').click();
    await poll(() => keyRow(page, name).getByTestId('api-key-status').innerText()).toBe(
      text.revoked,
    );
    expect(await callWith(copied)).toEqual({
      status: 401,
      message: 'This API key has been revoked',
    });
  });
});
