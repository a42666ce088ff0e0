/**
 * Issue 16, the last items: a system message reads in the console's language in the bell, the
 * department-role form puts the server's refusal under its field, and a 401 says why (the
 * server's words), while a session the user ends leaves no reason on the login page.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import { gone, loginAsAdmin, loginForm, opened, seen, storedToken } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();

type Lang = 'zh-CN' | 'en-US';

/** A signed-in admin console (its own session) in `lang`. */
async function adminConsole(lang: Lang): Promise<Page> {
  const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
  await loginAsAdmin(page, harness.server);
  if (lang !== 'zh-CN') {
    await page.evaluate((language) => localStorage.setItem('language', language), lang);
    await page.reload();
    await page.getByTestId('dashboard-greeting').waitFor();
  }
  return page;
}

/**
 * A system message to admin as the server writes one (device offline alert): a code with its
 * parameters, and the Chinese text for the title filter. Written into the database because the
 * real alert waits a minute of a device being offline.
 */
function offlineAlertToAdmin(devices: string): string {
  const db = new Database(join(harness.server.dataDir, 'blrms.db'));
  try {
    const admin = db
      .prepare("select id, company_id from sys_user where username = 'admin'")
      .get() as { id: string; company_id: string };
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    db.prepare(
      `insert into sys_announcement (id, company_id, titile, msg_content, priority, msg_category,
         msg_type, audience_ids, send_status, send_time, del_flag, create_time, msg_code,
         msg_params)
       values (?, ?, ?, ?, 'M', '2', 'user', ?, '1', ?, 0, ?, 'device.offline', ?)`,
    ).run(
      id,
      admin.company_id,
      '1 台设备离线',
      `<p>以下设备已离线超过 60 秒：${devices}</p>`,
      admin.id,
      now,
      now,
      JSON.stringify({ count: 1, seconds: 60, devices, more: 0 }),
    );
    db.prepare(
      `insert into sys_announcement_send (id, company_id, annt_id, user_id, read_flag, create_time)
       values (?, ?, ?, ?, 0, ?)`,
    ).run(randomBytes(16).toString('hex'), admin.company_id, id, admin.id, now);
    return id;
  } finally {
    db.close();
  }
}

describe('a system message in the bell', () => {
  it('reads in the console’s language, one language at a time', async () => {
    offlineAlertToAdmin('R40A0042');
    const page = await adminConsole('zh-CN');
    const openSystemTab = async () => {
      await page.getByTestId('notice-bell').click();
      await page.getByTestId('notice-tab-sys').click();
      return page.getByTestId('notice-list-sys').getByTestId('notice-item');
    };
    const zh = await openSystemTab();
    await seen(zh.getByText('1 台设备离线', { exact: true }));
    expect(await zh.first().innerText()).not.toContain('offline');
    await page.keyboard.press('Escape');

    await page.getByTestId('header').getByTestId('lang-switch').hover();
    await page.getByRole('menuitem', { name: 'English', exact: true }).click();
    const en = await openSystemTab();
    await seen(en.getByText('1 device(s) offline', { exact: true }));
    expect(await en.first().innerText()).not.toContain('离线');

    // The detail reads in the same language.
    await en.first().click();
    const detail = page.getByRole('dialog').filter({ hasText: '1 device(s) offline' });
    await seen(detail.getByText('These devices have been offline for more than 60 s: R40A0042'));
  });
});

/** The error antd shows under the form item whose label is `label`. */
function errorUnder(dialog: Locator, label: string): Locator {
  return dialog
    .locator('.ant-form-item')
    .filter({ has: dialog.page().locator('label', { hasText: label }) })
    .locator('.ant-form-item-explain-error');
}

describe.each([
  ['zh-CN', '部门角色', '添加部门角色', '角色名称', '角色编码', '该部门下已存在此角色编码'],
  [
    'en-US',
    'Department roles',
    'Add department role',
    'Role name',
    'Role code',
    'this department already has a role with this code',
  ],
] as const)('the department-role form (%s)', (lang, tab, title, nameLabel, codeLabel, taken) => {
  it('shows a taken role code under the role code field, not as a pop-up', async () => {
    const page = await adminConsole(lang);
    await page.goto('/account/depart');
    const departPage = page.getByTestId('depart-page');
    await departPage.getByTestId('depart-node-A01A01').click();
    await departPage.getByTestId('depart-tab-roles').click();
    await seen(departPage.getByTestId('depart-tab-roles').getByText(tab));
    const code = `taken_${lang.slice(0, 2)}`;
    const add = async () => {
      await departPage.getByTestId('depart-role-add').click();
      const form = page.getByRole('dialog', { name: title });
      await opened(form);
      await form.getByLabel(nameLabel).fill('Reviewers');
      await form.getByLabel(codeLabel).fill(code);
      await form.getByRole('button', { name: /^(确 定|OK)$/ }).click();
      return form;
    };
    await gone(await add());
    await seen(departPage.getByTestId('depart-roles').getByRole('cell', { name: code }));

    const again = await add();
    await seen(errorUnder(again, codeLabel).filter({ hasText: taken }));
    expect(await errorUnder(again, codeLabel).innerText()).not.toContain('roleCode');
    await page.waitForTimeout(500);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);
  });
});

/** Ends a session from outside the console, as a logout in another tab does. */
async function endSessionElsewhere(token: string): Promise<void> {
  const res = await fetch(new URL('/api/sys/logout', harness.server.url), {
    method: 'POST',
    headers: { 'X-Access-Token': token, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
}

describe('a 401', () => {
  it.each([
    ['zh-CN', 'Token失效，请重新登录'],
    ['en-US', 'Token expired, please log in again'],
  ] as const)(
    'says what the server said and shows it on the login page (%s)',
    async (lang, reason) => {
      const page = await adminConsole(lang);
      const token = await storedToken(page);
      if (!token) throw new Error('not signed in');
      await endSessionElsewhere(token);
      // The console's next call meets the 401.
      await page.reload();
      const notice = page.locator('.ant-notification-notice').filter({ hasText: reason });
      await seen(notice, 15_000);
      expect(await page.locator('.ant-notification-notice').innerText()).not.toMatch(
        /未授权|Unauthorized/,
      );
      await page.waitForURL('**/user/login**', { timeout: 15_000 });
      await seen(page.getByTestId('login-error').getByText(reason));
    },
  );

  it('leaves no reason on the login page after a logout, even when calls fail meanwhile', async () => {
    const page = await adminConsole('zh-CN');
    // A slow logout: the server ends the session at once, the answer comes after the console's
    // next call has already met the 401 (the bell polls once the socket is refused).
    await page.route('**/api/sys/logout', async (route) => {
      const response = await route.fetch();
      await page.waitForResponse((r) => r.status() === 401, { timeout: 20_000 });
      await route.fulfill({ response });
    });
    await page.getByTestId('logout-button').click();
    await page.getByRole('dialog').getByRole('button', { name: '确 定', exact: true }).click();
    await page.waitForURL('**/user/login**', { timeout: 30_000 });
    await seen(loginForm(page).username);
    await page.waitForTimeout(500);
    expect(await page.getByTestId('login-error').count()).toBe(0);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);
  });
});

/**
 * Records whether anything in the page moves with antd's motion from now on (a dialog zooming in,
 * a drawer or menu sliding in), in `window.motionSeen`. A popup's `…-prepare` step is not motion:
 * it is drawn once, in place, to be aligned, with or without motion.
 */
async function watchMotion(page: Page): Promise<void> {
  await page.evaluate(() => {
    const moving = /-(appear|enter|leave)-(start|active)\b/;
    const state = window as unknown as { motionSeen: boolean };
    state.motionSeen = false;
    const moves = (element: Element) => moving.test(element.getAttribute('class') ?? '');
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.target instanceof Element && moves(record.target)) state.motionSeen = true;
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof Element)) continue;
          if (moves(node) || Array.from(node.querySelectorAll('[class]')).some(moves)) {
            state.motionSeen = true;
          }
        }
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['class'],
    });
  });
}

describe('motion', () => {
  it.each([
    ['no-preference', true],
    ['reduce', false],
  ] as const)(
    'follows the system setting (%s): the user menu and the settings drawer move in: %s',
    async (reducedMotion, moves) => {
      const page = harness.track(
        await newConsolePage(harness.browser, harness.server.url, { reducedMotion }),
      );
      await loginAsAdmin(page, harness.server);
      await watchMotion(page);
      await page.getByTestId('user-menu').click();
      const item = page.getByTestId('user-menu-settings');
      await opened(item);
      await item.click();
      await opened(page.getByTestId('settings-drawer'));
      expect(
        await page.evaluate(() => (window as unknown as { motionSeen: boolean }).motionSeen),
      ).toBe(moves);
    },
  );
});
