/**
 * Backend logs (spec section 2): the login rows this test made, the keyword filter and reset, and
 * the operation log of the requests the console sent.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { adminSession, seen, sideMenu } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Logins made through the login form by this file. */
const LOGINS = 2;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const first = await adminSession(browser, server);
  await first.context.close();
  ({ context, page } = await adminSession(browser, server));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

function logPage(): Locator {
  return page.getByTestId('log-page');
}

/** The table's body rows, each as its cells' texts. */
async function rows(): Promise<string[][]> {
  const body = logPage().locator('.ant-table-tbody tr.ant-table-row');
  const count = await body.count();
  const out: string[][] = [];
  for (let i = 0; i < count; i++) {
    out.push((await body.nth(i).getByRole('cell').allInnerTexts()).map((t) => t.trim()));
  }
  return out;
}

async function search(keyword: string): Promise<void> {
  await logPage().getByPlaceholder('日志内容、操作人或请求路径').fill(keyword);
  await logPage().getByRole('button', { name: '查 询' }).click();
}

describe('backend logs', () => {
  it('lists the logins made by this test, newest first', async () => {
    await sideMenu(page).getByText('系统管理', { exact: true }).click();
    await sideMenu(page).getByText('后台日志', { exact: true }).click();
    await seen(logPage().getByRole('tab', { name: '登录日志', selected: true }));
    for (const header of ['创建时间', '操作人', 'IP 地址', '日志内容']) {
      await seen(logPage().getByRole('columnheader', { name: header }));
    }
    await expect.poll(async () => (await rows()).length).toBe(LOGINS);
    for (const row of await rows()) {
      expect(row).toEqual([
        expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        'admin',
        '127.0.0.1',
        '用户 admin 登录成功',
      ]);
    }
    const times = (await rows()).map((r) => r[0] ?? '');
    expect(times).toEqual([...times].sort().reverse());
    await seen(logPage().getByText(`1-${LOGINS} / ${LOGINS}`));
  });

  it('filters by keyword and resets the filter', async () => {
    await page.goto('/system/log');
    // A full reload boots the whole console; on a busy machine that takes more than poll's 1 s.
    await expect.poll(async () => (await rows()).length, { timeout: 10_000 }).toBe(LOGINS);

    await search('no such entry 7f3a');
    await seen(logPage().locator('.ant-empty-description').getByText('暂无数据'));
    expect(await rows()).toEqual([]);

    await search('admin');
    await expect.poll(async () => (await rows()).length).toBe(LOGINS);

    await search('no such entry 7f3a');
    await seen(logPage().locator('.ant-empty-description').getByText('暂无数据'));
    await logPage().getByRole('button', { name: '重 置' }).click();
    await expect.poll(async () => (await rows()).length).toBe(LOGINS);
    expect(await logPage().getByPlaceholder('日志内容、操作人或请求路径').inputValue()).toBe('');
  });

  it('shows the operation log of the requests the console made', async () => {
    await page.goto('/system/log');
    await logPage().getByRole('tab', { name: '操作日志' }).click();
    await seen(logPage().getByRole('columnheader', { name: '操作类型' }));

    // Choosing a department after each login is a request the server logs, in words (issue 16:
    // the type read `selectDepart` and the content `POST /api/sys/selectDepart`).
    await search('selectDepart');
    await expect.poll(async () => (await rows()).length).toBe(LOGINS);
    const [row] = await rows();
    expect(row).toEqual(expect.arrayContaining(['admin', '修改', '切换部门 admin', '200']));
    expect(row?.join(' ')).not.toContain('POST');

    // The request itself is in the details drawer.
    await logPage().getByTestId('log-details-open').first().click();
    const drawer = page.getByTestId('log-details');
    await seen(drawer.getByText('/api/sys/selectDepart'));
    await seen(drawer.getByText('POST', { exact: true }));
    await seen(drawer.getByText(/"orgCode"/));
  });
});
