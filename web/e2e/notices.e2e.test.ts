/**
 * Announcements and real-time notifications (spec sections 2, 4, 9): an administrator publishes an
 * urgent announcement to one department; the member's bell updates through the websocket without
 * a reload, the non-member's does not; opening it marks it read; revoking removes it.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newConsolePage } from './support/browser.js';
import { adminSession, seen, storedToken, submitLogin } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';
import { addUser } from './support/users.js';

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let member: Page;
let outsider: Page;

const TITLE = '今晚 22:00 停机维护';

async function userPage(
  username: string,
  password: string,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Page> {
  const { context, page } = await newConsolePage(browser, server.url);
  contexts.push(context);
  await prepare?.(context);
  await page.goto('/user/login');
  await submitLogin(page, username, password);
  await page.waitForURL('**/dashboard/analysis');
  await page.getByTestId('dashboard-greeting').waitFor();
  return page;
}

/** The bell's badge number; 0 when antd shows no count. */
async function badge(page: Page): Promise<number> {
  const count = page.getByTestId('notice-badge').locator('.ant-scroll-number');
  if ((await count.count()) === 0) return 0;
  const title = await count.first().getAttribute('title');
  return Number(title ?? 0);
}

function okButton(scope: Locator | Page): Locator {
  return scope.getByRole('button', { name: '确 定', exact: true });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  await addUser(server, {
    username: 'opsmember',
    password: 'Ops-Member-2026',
    role: 'operator',
    orgCodes: ['A01A02'],
  });
  await addUser(server, {
    username: 'rndmember',
    password: 'Rnd-Member-2026',
    role: 'operator',
    orgCodes: ['A01A01'],
  });
  const session = await adminSession(browser, server);
  contexts.push(session.context);
  admin = session.page;
  member = await userPage('opsmember', 'Ops-Member-2026');
  outsider = await userPage('rndmember', 'Rnd-Member-2026');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

describe('announcements in real time', () => {
  it('delivers an urgent announcement to the department within 1 s, and only there', async () => {
    expect(await badge(member)).toBe(0);
    expect(await badge(outsider)).toBe(0);

    await admin.goto('/system/announcement');
    const pageEl = admin.getByTestId('announcement-page');
    await pageEl.getByTestId('announcement-add').click();
    const form = admin.getByTestId('announcement-form');
    await form.getByTestId('announcement-title').fill(TITLE);
    await form.getByTestId('announcement-editor').click();
    await admin.keyboard.type('服务器将重启，请提前保存工作。');
    await form.getByTestId('announcement-priority').getByText('紧急消息').click();
    await form.getByTestId('announcement-audience').getByText('指定部门').click();
    await form.getByTestId('announcement-departs').click();
    await admin.locator('.ant-select-tree-title', { hasText: '运维部' }).click();
    await okButton(form).click();
    await seen(pageEl.getByTestId('announcement-row-title').getByText(TITLE));

    await pageEl.getByTestId('announcement-release').first().click();
    const published = Date.now();
    await okButton(admin.locator('.ant-popover')).click();
    await expect.poll(() => badge(member), { timeout: 1000, interval: 50 }).toBe(1);
    const delivered = Date.now() - published;
    expect(delivered).toBeLessThanOrEqual(1000);
    await seen(pageEl.getByTestId('announcement-status').getByText('已发布'));

    // The outsider's bell stays quiet, without any reload on either side.
    await outsider.waitForTimeout(1500);
    expect(await badge(outsider)).toBe(0);
  });

  it('shows the entry with its priority tag, and opening it marks it read', async () => {
    await member.getByTestId('notice-bell').click();
    await seen(member.getByTestId('notice-tab-annt').getByText('通知(1)'));
    await seen(member.getByTestId('notice-tab-sys').getByText('系统消息(0)'));
    const item = member.getByTestId('notice-list-annt').getByTestId('notice-item');
    await seen(item.getByText(TITLE));
    await seen(item.getByTestId('priority-H').getByText('紧急消息'));
    const popover = member.locator('.ant-popover-inner').filter({ hasText: '查看更多' });
    // Measured once the opening zoom animation has finished.
    await expect.poll(async () => (await popover.boundingBox())?.width).toBe(300);

    await item.getByText(TITLE).click();
    const detail = member.getByTestId('announcement-detail');
    await seen(detail.getByText(TITLE));
    await seen(detail.getByText('admin'));
    await seen(detail.getByTestId('announcement-content').getByText('服务器将重启'));
    await expect.poll(() => badge(member), { timeout: 3000 }).toBe(0);
    await detail.getByRole('button', { name: '关 闭' }).click();

    await member.getByTestId('notice-bell').click();
    await member.getByTestId('notice-more').click();
    await member.waitForURL('**/isps/userAnnouncement');
    const row = member.getByTestId('my-announcement-page').locator('tr.ant-table-row');
    await seen(row.filter({ hasText: TITLE }).getByText('已读'));
  });

  it('removes a revoked announcement from the recipients without a reload', async () => {
    const rows = member.getByTestId('my-announcement-page').locator('tr.ant-table-row');
    expect(await rows.filter({ hasText: TITLE }).count()).toBe(1);
    await admin.getByTestId('announcement-revoke').first().click();
    await okButton(admin.locator('.ant-popover')).click();
    await seen(admin.getByTestId('announcement-status').getByText('已撤销'));
    await expect.poll(() => rows.filter({ hasText: TITLE }).count(), { timeout: 3000 }).toBe(0);
  });

  it('polls every 6 s only while the socket cannot connect, and stops after a failed load', async () => {
    const listCalls: number[] = [];
    const polled = await userPage('opsmember', 'Ops-Member-2026', async (context) => {
      // The socket is refused at every attempt, as behind a proxy that drops upgrades.
      await context.routeWebSocket(/\/api\/websocket\//, (ws) => ws.close());
      context.on('request', (request) => {
        if (request.url().includes('/sys/annountCement/listByUser')) listCalls.push(Date.now());
      });
    });
    expect(await badge(polled)).toBe(0);

    const token = await storedToken(admin);
    const title = '轮询送达';
    const draft = await admin.evaluate(
      async ({ token, title }) => {
        const headers = { 'X-Access-Token': token ?? '', 'Content-Type': 'application/json' };
        const options = await (
          await fetch('/api/sys/annountCement/audienceOptions', { headers })
        ).json();
        const ops = options.result.departs[0].children.find(
          (d: { orgCode: string }) => d.orgCode === 'A01A02',
        );
        const add = await fetch('/api/sys/annountCement/add', {
          method: 'POST',
          headers,
          body: JSON.stringify({
            titile: title,
            msgContent: '<p>x</p>',
            priority: 'M',
            msgType: 'depart',
            departIds: [ops.id],
          }),
        });
        const id = (await add.json()).result.id as string;
        await fetch(`/api/sys/annountCement/doReleaseData?id=${id}`, { headers });
        return id;
      },
      { token, title },
    );
    expect(draft).toMatch(/^[0-9a-f]{32}$/);
    await expect.poll(() => badge(polled), { timeout: 8000, interval: 200 }).toBe(1);

    await polled.context().route('**/api/sys/annountCement/listByUser**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'down', code: 500, result: null }),
      }),
    );
    const failedAt = listCalls.length;
    await expect.poll(() => listCalls.length, { timeout: 8000, interval: 200 }).toBe(failedAt + 1);
    await polled.waitForTimeout(13_000);
    expect(listCalls.length).toBe(failedAt + 1);
  });
});
