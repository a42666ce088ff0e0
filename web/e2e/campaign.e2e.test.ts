/**
 * Firmware upgrade from the console (issue 5): a user uploads a firmware file through the upload
 * dialog, starts a campaign over a handful of simulated devices (the device side of device-sim:
 * download with Range, sha256 check, reboot, reconnect with the new version) and watches its
 * page reach completed with every device updated, live, without a reload. Then a second upgrade
 * whose waves wait for approval: the operator approves the next wave on the campaign's page, one
 * device's download arrives corrupt, and the campaign ends completed with failures (orange).
 */
import { createHash, randomBytes } from 'node:crypto';
import { startFleet, type Fleet } from '@blrms/device-sim';
import type { TDevice, TDeviceTokenWithKey } from '@blrms/contracts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import { launchBrowser } from './support/browser.js';
import {
  adminStorage,
  opened,
  seen,
  selectOption,
  signedInPage,
  toast,
} from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

const SNS = ['OTA-E2E-001', 'OTA-E2E-002', 'OTA-E2E-003', 'OTA-E2E-004', 'OTA-E2E-005'];
const FROM_VERSION = '1.0.0';
const TO_VERSION = '2.0.0';
const FIRMWARE = randomBytes(300 * 1024);
const SHA256 = createHash('sha256').update(FIRMWARE).digest('hex');
const GATED_VERSION = '2.1.0';
/** Its download of the second upgrade arrives corrupt. */
const CORRUPT_SN = SNS[4]!;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
let fleet: Fleet | undefined;
/** `campaign-progress` messages the console received over its socket. */
let progressFrames = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({}, { broker: true }), launchBrowser()]);
  const storage = await adminStorage(browser, server);
  session = apiSession(storage, server);
  const token = await api<TDeviceTokenWithKey>(server, session, 'POST', '/device/token/add', {
    name: 'Upgrade line',
  });
  for (const sn of SNS) {
    await api<TDevice>(server, session, 'POST', '/device/device/add', {
      tokenId: token.id,
      sn,
      name: `Router ${sn.slice(-3)}`,
      series: 'R40',
      version: FROM_VERSION,
    });
  }
  fleet = await startFleet({
    url: server.mqttUrl ?? '',
    token: token.tokenKey,
    tokenCode: token.code,
    devices: SNS.map((sn) => ({ sn, series: 'R40' as const, fw: FROM_VERSION })),
    // Long enough for the console to see the campaign running before it completes.
    rebootDelayMs: 3000,
  });
  ({ context, page } = await signedInPage(browser, server, storage));
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      if (String(payload).includes('"campaign-progress"')) progressFrames++;
    });
  });
});

afterAll(async () => {
  await fleet?.stop();
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const dialog = (testId: string): Locator => page.getByTestId(testId).getByRole('dialog');

function poll<T>(read: () => Promise<T> | T, timeout = 10_000) {
  return expect.poll(read, { timeout, interval: 100 });
}

/** Uploads an R40 firmware through the upload dialog of the firmware page. */
async function uploadThroughDialog(version: string, notes: string): Promise<void> {
  await page.goto('/device/firmware');
  await seen(page.getByTestId('firmware-table'));
  await page.getByTestId('firmware-upload').click();
  const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('firmware-series') });
  await opened(modal);
  await selectOption(page, modal.getByTestId('firmware-series'), 'R40');
  await modal.getByTestId('firmware-version').fill(version);
  await modal.getByTestId('firmware-notes').fill(notes);
  await modal.locator('input[type=file]').setInputFiles({
    name: `r40-${version}.bin`,
    mimeType: 'application/octet-stream',
    buffer: FIRMWARE,
  });
  await modal.getByTestId('firmware-upload-submit').click();
  await seen(toast(page, `固件 R40 ${version} 已上传`));
}

describe('firmware upgrade campaign in the console', () => {
  it('uploads a firmware file through the upload dialog and lists it with its sha256', async () => {
    await uploadThroughDialog(TO_VERSION, 'Faster modem start');

    const row = page
      .getByTestId('firmware-table')
      .locator('tr.ant-table-row')
      .filter({ hasText: 'r40-2.0.0.bin' });
    await seen(row);
    expect(await row.getByTestId('firmware-sha256').innerText()).toBe(
      `${SHA256.slice(0, 8)}…${SHA256.slice(-8)}`,
    );
    await seen(row.getByText('300 KB', { exact: true }));
    await seen(row.getByText('Faster modem start'));
  });

  it('refuses the same version again on the version field', async () => {
    await page.getByTestId('firmware-upload').click();
    const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('firmware-series') });
    await opened(modal);
    await selectOption(page, modal.getByTestId('firmware-series'), 'R40');
    await modal.getByTestId('firmware-version').fill(TO_VERSION);
    await modal.locator('input[type=file]').setInputFiles({
      name: 'again.bin',
      mimeType: 'application/octet-stream',
      buffer: FIRMWARE,
    });
    await modal.getByTestId('firmware-upload-submit').click();
    const versionError = modal
      .locator('.ant-form-item')
      .filter({ has: page.getByTestId('firmware-version') })
      .locator('.ant-form-item-explain-error');
    await seen(versionError);
    expect(await versionError.innerText()).toContain(TO_VERSION);
    await modal.getByRole('button', { name: '取 消', exact: true }).click();
  });

  it('starts an upgrade of the series in waves after showing how many devices it reaches', async () => {
    await page.goto('/device/campaign');
    await seen(page.getByTestId('campaign-table'));
    await page.getByTestId('campaign-add').click();
    const form = dialog('campaign-form');
    await opened(form);
    await selectOption(page, form.getByTestId('campaign-firmware'), `R40 ${TO_VERSION} · 300 KB`);
    expect(await form.getByTestId('campaign-name').inputValue()).toBe(`R40 升级到 ${TO_VERSION}`);
    await form.getByText('整个系列', { exact: true }).click();
    await form.getByText('1% → 10% → 100%', { exact: true }).click();

    const total = form.getByTestId('campaign-preview-total').locator('.ant-statistic-content');
    await poll(() => total.innerText().catch(() => '')).toBe(String(SNS.length));
    expect(
      await form
        .getByTestId('campaign-preview-online')
        .locator('.ant-statistic-content')
        .innerText(),
    ).toBe(String(SNS.length));

    await form.getByTestId('campaign-start').click();
    await page.waitForURL('**/device/campaign/*');
    await seen(page.getByTestId('campaign-detail'));
    expect(await page.getByTestId('campaign-state').first().innerText()).toBe('进行中');
  });

  it('follows the campaign live to completed, with every device updated', async () => {
    const detail = page.getByTestId('campaign-detail');
    // A mark in the page's window: a reload would wipe it.
    await page.evaluate(() => Object.assign(window, { e2eMark: true }));
    await expect(detail.getByTestId('campaign-firmware').innerText()).resolves.toContain(
      TO_VERSION,
    );

    const state = detail.getByTestId('campaign-state').first();
    await poll(() => state.innerText(), 45_000).toBe('已完成');
    const updated = detail.getByTestId('campaign-count-updated').getByTestId('count');
    await poll(() => updated.innerText()).toBe(String(SNS.length));
    expect(await detail.getByTestId('campaign-count-failed').getByTestId('count').innerText()).toBe(
      '0',
    );
    expect(await detail.getByTestId('campaign-percent').first().innerText()).toBe('100%');
    expect(progressFrames).toBeGreaterThan(0);
    expect(await page.evaluate(() => 'e2eMark' in window)).toBe(true);

    const rows = page.getByTestId('campaign-device-table').locator('tr.ant-table-row');
    await poll(async () => {
      const states = await rows.getByTestId('campaign-device-state').allInnerTexts();
      return states.length === SNS.length && states.every((s) => s === '已更新');
    }).toBe(true);

    // The upgrade is done at the status that names the new version; the device row takes that
    // version from the presence writer, within two of its 100 ms intervals.
    const versions = async () => {
      const devices = await api<{ records: TDevice[] }>(
        server,
        session,
        'GET',
        '/device/device/list',
        { pageSize: 50 },
      );
      return devices.records.map((d) => d.version);
    };
    await poll(versions, 2000).toEqual(SNS.map(() => TO_VERSION));
  });

  it('shows the campaign completed in the list', async () => {
    await page.getByRole('link', { name: '返回升级任务' }).click();
    const row = page.getByTestId('campaign-table').locator('tr.ant-table-row').first();
    await seen(row);
    expect(await row.getByTestId('campaign-state').innerText()).toBe('已完成');
    expect(await row.getByTestId('campaign-percent').innerText()).toBe('100%');
  });

  it('waits for approval before the next wave, and shows who failed when it ends with failures', async () => {
    await uploadThroughDialog(GATED_VERSION, 'Modem watchdog');
    fleet!.agent(CORRUPT_SN)!.faults.corruptDownload = true;
    await page.goto('/device/campaign');
    await seen(page.getByTestId('campaign-table'));
    await page.getByTestId('campaign-add').click();
    const form = dialog('campaign-form');
    await opened(form);
    await selectOption(
      page,
      form.getByTestId('campaign-firmware'),
      `R40 ${GATED_VERSION} · 300 KB`,
    );
    await form.getByText('整个系列', { exact: true }).click();
    // 10 % of five: one device first, then the other four.
    await form.getByText('10% → 100%', { exact: true }).click();
    // One failure among four is 25 %: under this threshold, so the campaign runs to its end.
    await form
      .locator('.ant-form-item')
      .filter({ hasText: '失败阈值' })
      .getByRole('spinbutton')
      .fill('30');
    await form.getByTestId('campaign-approve-each-wave').click();
    const total = form.getByTestId('campaign-preview-total').locator('.ant-statistic-content');
    await poll(() => total.innerText().catch(() => '')).toBe(String(SNS.length));
    await form.getByTestId('campaign-start').click();
    await page.waitForURL('**/device/campaign/*');

    const detail = page.getByTestId('campaign-detail');
    const approval = detail.getByTestId('campaign-gate-approval');
    await seen(approval, 30_000);
    expect(await approval.innerText()).toContain('第 1 批已结束，第 2 批等待批准');
    expect(await detail.getByTestId('campaign-state').first().innerText()).toBe('待批准');
    const queued = detail.getByTestId('campaign-count-queued').getByTestId('count');
    expect(await queued.innerText()).toBe('4');
    expect(await detail.getByTestId('campaign-settings').innerText()).toContain(
      '第一批之后每批都需批准',
    );

    await approval.getByTestId('campaign-approve').click();
    const confirm = page.locator('.ant-modal-confirm');
    await opened(confirm);
    await confirm.getByRole('button', { name: /^确 ?定$/ }).click();
    await seen(toast(page, '已批准，下一批即将开始'));

    const state = detail.getByTestId('campaign-state').first();
    await poll(() => state.innerText(), 45_000).toBe('完成（有失败）');
    expect(await state.getAttribute('class')).toContain('ant-tag-orange');
    await seen(detail.getByTestId('campaign-gate-with-failures'));
    expect(await detail.getByTestId('campaign-count-failed').getByTestId('count').innerText()).toBe(
      '1',
    );
    const corruptRow = page
      .getByTestId('campaign-device-table')
      .locator('tr.ant-table-row')
      .filter({ hasText: CORRUPT_SN });
    await seen(corruptRow.getByText('SHA-256 校验不符'));
  });

  it('lets the platform administrator lower the size limit, and refuses a larger file on its field', async () => {
    await page.goto('/device/firmware');
    await page.getByTestId('firmware-settings').click();
    const settings = page.getByRole('dialog', { name: '固件大小上限' });
    await opened(settings);
    await seen(settings.getByText('当前上限 256 MB'));
    await settings.getByRole('spinbutton').fill('1');
    await settings.getByRole('button', { name: /^确 ?[认定]$/ }).click();
    await seen(toast(page, '保存成功'));

    await page.getByTestId('firmware-upload').click();
    const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('firmware-series') });
    await opened(modal);
    await seen(modal.getByText('单个文件最大 1 MB，上传时计算 SHA-256'));
    await selectOption(page, modal.getByTestId('firmware-series'), 'R40');
    await modal.getByTestId('firmware-version').fill('2.0.1');
    await modal.locator('input[type=file]').setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(1536 * 1024),
    });
    await modal.getByTestId('firmware-upload-submit').click();
    await seen(modal.getByText('文件超过大小上限 1 MB'));
    await modal.getByRole('button', { name: '取 消', exact: true }).click();
  });
});
