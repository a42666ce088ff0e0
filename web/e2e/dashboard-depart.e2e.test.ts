/**
 * The dashboard (greeting, account card, visit statistics, last logins) and the department
 * choice after login and switch from the user menu (spec sections 2, 4 and 5).
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import { gone, opened, seen, selectOption, submitLogin, toast } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();

/** Logs admin in through the form and returns the page, with the department dialog still open. */
async function login(): Promise<Page> {
  const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
  await page.goto('/user/login');
  await submitLogin(page, 'admin', harness.server.adminPassword);
  await page.waitForURL('**/dashboard/analysis');
  return page;
}

/** The value next to a label in the dashboard's account card. */
function accountField(page: Page, label: string): Locator {
  return page
    .getByTestId('dashboard-account')
    .locator('.ant-descriptions-item')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('.ant-descriptions-item-content');
}

/** Picks a department in the open department dialog and confirms. */
async function pickDepart(page: Page, dialog: Locator, name: string): Promise<void> {
  await selectOption(page, dialog.getByTestId('depart-select'), name);
  await dialog.getByRole('button', { name: '确 定' }).click();
  await gone(dialog);
}

describe('dashboard', () => {
  it('greets the user and shows the account, the visit statistics and the last logins', async () => {
    const page = await login();
    const choose = page.getByRole('dialog', { name: '部门选择' });
    await seen(choose);
    await choose.getByRole('button', { name: '取 消' }).click();
    await gone(choose);

    await seen(page.getByTestId('dashboard-greeting'));
    expect(await page.getByTestId('dashboard-greeting').innerText()).toMatch(
      /^(早上好|上午好|中午好|下午好|晚上好)，管理员，欢迎使用 BLRMS$/,
    );
    await seen(page.getByText('远程配置、升级和监控 R40、BL10X、S27X 系列设备'));

    await seen(page.getByTestId('dashboard-account').getByText('我的账号'));
    expect(await accountField(page, '账号').innerText()).toBe('admin');
    expect(await accountField(page, '姓名').innerText()).toBe('管理员');
    expect(await accountField(page, '当前部门').innerText()).toBe('研发部');
    expect(await accountField(page, '当前公司').innerText()).toBe('BLRMS');
    expect((await accountField(page, '所属部门').innerText()).split(/\s+/)).toEqual([
      '研发部',
      '运维部',
    ]);

    // This login is counted: at least one visit and one IP today, shown as numbers.
    for (const title of ['今日访问', '今日 IP', '总访问量']) {
      const statistic = page.locator('.ant-statistic').filter({ hasText: title });
      await seen(statistic);
      await expect
        .poll(async () => statistic.locator('.ant-statistic-content').innerText())
        .toMatch(/^[1-9][\d,]*$/);
    }
    await seen(page.getByText('最近 7 天访问'));
    await seen(page.getByTestId('visit-chart').locator('svg'));

    const lastLogins = page.getByTestId('last-logins');
    await seen(lastLogins.getByRole('cell', { name: '127.0.0.1' }));
    await seen(lastLogins.getByRole('cell', { name: '用户 admin 登录成功' }));
  });
});

describe('department', () => {
  it('must be chosen after login; the choice shows on the dashboard and survives a reload', async () => {
    const page = await login();
    const choose = page.getByRole('dialog', { name: '部门选择' });
    await seen(choose);

    // Confirming without a choice puts the field in error.
    await choose.getByRole('button', { name: '确 定' }).click();
    await seen(choose.getByText('请选择部门', { exact: true }).last());
    expect(await choose.locator('.ant-form-item-has-error').count()).toBe(1);

    await pickDepart(page, choose, '运维部');
    await seen(toast(page, '部门切换成功'));
    await expect.poll(() => accountField(page, '当前部门').innerText()).toBe('运维部');
    // Choosing in the dialog leaves the dashboard where it was, at the top.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // The current department's tag is highlighted.
    await seen(
      page.getByTestId('dashboard-account').locator('.ant-tag-blue', { hasText: '运维部' }),
    );

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    await expect.poll(() => accountField(page, '当前部门').innerText()).toBe('运维部');
    // The choice was made: no second dialog after the reload.
    expect(await page.getByRole('dialog', { name: '部门选择' }).count()).toBe(0);
  });

  it('switches from the user menu, showing the current one, and keeps it after a reload', async () => {
    const page = await login();
    const choose = page.getByRole('dialog', { name: '部门选择' });
    await pickDepart(page, choose, '研发部');
    await expect.poll(() => accountField(page, '当前部门').innerText()).toBe('研发部');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '切换部门' }).click();
    const dialog = page.getByRole('dialog', { name: '部门切换' });
    await opened(dialog);
    await seen(dialog.getByText('当前部门：研发部'));
    await pickDepart(page, dialog, '运维部');
    await seen(toast(page, '部门切换成功'));
    await expect.poll(() => accountField(page, '当前部门').innerText()).toBe('运维部');

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    await expect.poll(() => accountField(page, '当前部门').innerText()).toBe('运维部');

    // Cancelling the switch changes nothing.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '切换部门' }).click();
    await seen(dialog.getByText('当前部门：运维部'));
    await dialog.getByRole('button', { name: '取 消' }).click();
    await gone(dialog);
    expect(await accountField(page, '当前部门').innerText()).toBe('运维部');
  });
});
