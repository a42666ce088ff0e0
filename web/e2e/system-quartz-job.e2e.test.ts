/**
 * 定时任务 (issue 18): a platform administrator schedules a group reboot, sees the cron preview
 * (and a bad schedule refused), runs it now and reads the run in its history, pauses it, sees the
 * platform's own jobs; then the page in English at phone width.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiSession } from './support/api.js';
import {
  adminStorage,
  gone,
  opened,
  seen,
  selectOption,
  sideMenu,
  toast,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();

const quartzPage = (page: Page) => page.getByTestId('quartz-page');

describe('scheduled jobs in the console', () => {
  it('schedules a group reboot, previews it, runs it now, reads its history and pauses it', async () => {
    const storage = await adminStorage(harness.browser, harness.server);
    const session = apiSession(storage, harness.server);
    await api(harness.server, session, 'POST', '/device/group/add', { name: 'E2E night group' });
    const page = harness.track(
      await pageIn(harness.browser, harness.server, 'zh-CN', { storageState: storage }, '/'),
    );
    await sideMenu(page).getByText('系统管理', { exact: true }).click();
    await sideMenu(page).getByText('定时任务', { exact: true }).click();
    await seen(quartzPage(page).getByText('业务任务'));

    await page.getByTestId('quartz-add').click();
    const form = page.getByRole('dialog', { name: '新建任务' });
    await opened(form);
    await form.getByTestId('quartz-name').fill('E2E 夜间重启');
    await form.getByTestId('quartz-cron').fill('61 3 * * *');
    await seen(form.getByText(/无法解析的 cron 表达式/));
    await form.getByTestId('quartz-cron').fill('0 3 * * *');
    await expect
      .poll(() => form.getByTestId('quartz-preview-run').count(), { timeout: 10_000 })
      .toBe(5);
    await expect(form.getByTestId('quartz-preview-run').first().textContent()).resolves.toMatch(
      / 03:00$/,
    );
    // Neither a group nor a series: refused under the field before anything is sent.
    await form.getByTestId('quartz-save').click();
    await seen(form.getByText('请选择分组或系列'));
    await selectOption(page, form.getByTestId('quartz-group'), 'E2E night group');
    await form.getByTestId('quartz-save').click();
    await gone(form);
    await seen(toast(page, '保存成功'));
    const row = quartzPage(page).getByRole('row', { name: /E2E 夜间重启/ });
    await seen(row.getByText('正常'));
    await seen(row.getByText('定时重启设备'));

    // Run now: the group has no device, so the run fails and says why.
    await row.getByTestId('quartz-execute-E2E 夜间重启').click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await seen(toast(page, '失败: 没有符合条件的设备'));
    await row.getByTestId('quartz-history-E2E 夜间重启').click();
    const drawer = page.getByTestId('quartz-history');
    await seen(drawer.getByText('执行记录：E2E 夜间重启'));
    await seen(drawer.getByTestId('quartz-run-message').getByText('没有符合条件的设备'));
    await seen(drawer.getByText('手动（admin）'));
    await page.keyboard.press('Escape');
    await gone(drawer);

    await row.getByTestId('quartz-pause-E2E 夜间重启').click();
    await seen(toast(page, '已暂停'));
    await seen(row.getByText('已暂停'));

    await quartzPage(page).getByRole('tab', { name: '平台任务' }).click();
    const platform = page.getByTestId('quartz-platform-table');
    await seen(platform.getByText('scheduled-job.due'));
    await seen(platform.getByRole('row', { name: /console-socket\.ping/ }).getByText('每个节点'));
  });

  it('reads in English at phone width', async () => {
    const storage = await adminStorage(harness.browser, harness.server);
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'en-US',
        { width: 390, height: 844, storageState: storage },
        '/system/quartz-job',
      ),
    );
    await seen(quartzPage(page).getByText('Operator jobs'));
    const row = quartzPage(page).getByRole('row', { name: /E2E 夜间重启/ });
    await seen(row.getByText('Reboot devices'));
    await seen(row.getByText('Paused'));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});
