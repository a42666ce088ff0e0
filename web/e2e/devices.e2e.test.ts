/**
 * Device management (issue 3) in the console: a token key created, revealed and copied; devices
 * added by the form and imported from an XLSX file (preview, then valid rows only); the list
 * filtered and exported (the downloaded CSV and XLSX hold what the filter shows); devices moved
 * to a group (the group page counts them); a device's detail in its own tab; deletes; and the
 * dashboard's device figures. One server and one login for the file; the tests run in order and
 * build on each other's data, as a user's session would.
 */
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Download, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TDevice } from '@blrms/contracts';
import { api, apiSession, type ApiSession } from './support/api.js';
import {
  adminStorage,
  gone,
  opened,
  seen,
  selectOption,
  signedInPage,
  toast,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();
let context: BrowserContext;
let page: Page;
let session: ApiSession;

const TOKEN_NAME = 'Line 1';
const GROUP_NAME = 'East';
const FORM_SN = 'E2E-R40-001';

/** The rows of the import file: six good ones, two bad ones (rows 8 and 9 of the sheet). */
const IMPORT_ROWS = [
  ['sn', 'name', 'series', 'model', 'version', 'remark', 'location'],
  ['IMP-BL-001', 'Gateway 1', 'BL10X', 'BL101', '2.1.0', '', 'Hall A'],
  ['IMP-BL-002', 'Gateway 2', 'BL10X', 'BL101', '2.1.0', '', 'Hall A'],
  ['IMP-BL-003', 'Gateway 3', 'BL10X', 'BL102', '2.0.3', '', 'Hall B'],
  ['IMP-S27-001', 'RTU 1', 'S27X', 'S271', '3.0.0', 'roof', ''],
  ['IMP-S27-002', 'RTU 2', 'S27X', 'S271', '3.0.0', '', ''],
  ['IMP-R40-002', 'Router 2', 'R40', 'R40-4G', '1.0.0', '', ''],
  ['bad sn!', 'Broken SN', 'R40', '', '', '', ''],
  ['IMP-X-001', 'Unknown series', 'X99', '', '', '', ''],
];
const VALID_IMPORTS = 6;

beforeAll(async () => {
  const storage = await adminStorage(harness.browser, harness.server);
  session = apiSession(storage, harness.server);
  ({ context, page } = await signedInPage(harness.browser, harness.server, storage));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: harness.server.url,
  });
});

/** Retries an expectation for up to 10 s (vitest's default of 1 s is shorter than a page load). */
function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 10_000, interval: 100 });
}

function dialog(name: string | RegExp): Locator {
  return page.getByRole('dialog', { name });
}

/** The primary (OK / submit) button of a dialog. */
function okButton(modal: Locator): Locator {
  return modal.locator('.ant-modal-footer .ant-btn-primary');
}

function deviceRows(): Locator {
  return page.getByTestId('device-table').locator('tr.ant-table-row');
}

/** SNs of the device list's rows, top to bottom. */
async function listedSns(): Promise<string[]> {
  return deviceRows().locator('[data-testid^="device-link-"]').allInnerTexts();
}

/** The row of a device in the list, by SN. */
function deviceRow(sn: string): Locator {
  return deviceRows().filter({ has: page.getByTestId(`device-link-${sn}`) });
}

function queryForm(): Locator {
  return page.locator('.ant-pro-query-filter');
}

async function clipboard(): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Every device of the company through the API, for expectations built from real data. */
async function allDevices(): Promise<TDevice[]> {
  const pageOf = await api<{ records: TDevice[] }>(
    harness.server,
    session,
    'GET',
    '/device/device/list',
    { pageNo: 1, pageSize: 1000 },
  );
  return pageOf.records;
}

async function xlsxRows(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(row.getCell(c).text);
    rows.push(cells);
  });
  return rows;
}

function csvRows(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r\n/)
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

async function downloadExport(format: 'csv' | 'xlsx'): Promise<{ name: string; body: Buffer }> {
  // After the first export the pointer rests on the table header, whose tooltip would cover the
  // button.
  await page.mouse.move(0, 0);
  await page.getByTestId('device-export').click();
  const [download]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`device-export-${format}`).click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), body: readFileSync(path) };
}

describe('device management', () => {
  let tokenKey = '';

  it('creates a token key, shows it masked, reveals and copies it', async () => {
    await page.goto('/device/token');
    // The first page of the file loads cold (its chunk, texts and list): act once it has loaded.
    await seen(page.getByTestId('token-table'), 20_000);
    await page.getByTestId('token-add').click();
    const form = dialog('新增Token密钥');
    await opened(form);
    await form.getByLabel('名称').fill(TOKEN_NAME);
    await okButton(form).click();

    const created = dialog('Token密钥已创建');
    await opened(created, 20_000);
    tokenKey = (await created.getByTestId('new-key').innerText()).trim();
    // A high-entropy secret: long and not made of a few repeated characters.
    expect(tokenKey.length).toBeGreaterThanOrEqual(32);
    expect(new Set(tokenKey).size).toBeGreaterThan(10);
    await created.getByRole('button', { name: '复制密钥' }).click();
    await seen(toast(page, '复制成功'));
    expect(await clipboard()).toBe(tokenKey);
    await okButton(created).click();
    await gone(created);

    const row = page.getByTestId('token-table').locator('tr.ant-table-row', {
      hasText: TOKEN_NAME,
    });
    const keyText = row.getByTestId('token-key-text');
    const masked = (await keyText.innerText()).trim();
    expect(masked).not.toContain(tokenKey);
    expect(masked.startsWith(tokenKey.slice(0, 4))).toBe(true);
    expect(masked.endsWith(tokenKey.slice(-4))).toBe(true);

    await row.getByTestId('token-key-reveal').click();
    await poll(async () => (await keyText.innerText()).trim()).toBe(tokenKey);
    await row.getByTestId('token-key-reveal').click();
    await poll(async () => (await keyText.innerText()).trim()).toBe(masked);

    await page.evaluate(() => navigator.clipboard.writeText(''));
    await row.getByTestId('token-key-copy').click();
    await poll(clipboard).toBe(tokenKey);

    // Regenerating, after a confirmation, replaces the key.
    await row.locator('[data-testid^="token-regenerate-"]').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '重新生成' }).click();
    const regenerated = dialog('密钥已重新生成');
    await opened(regenerated);
    const newKey = (await regenerated.getByTestId('new-key').innerText()).trim();
    expect(newKey).not.toBe(tokenKey);
    expect(newKey.length).toBe(tokenKey.length);
    await okButton(regenerated).click();
    await gone(regenerated);
    await row.getByTestId('token-key-reveal').click();
    await poll(async () => (await keyText.innerText()).trim()).toBe(newKey);

    // Disabling asks first; enabling does not.
    const enabled = async () =>
      (
        await api<{ records: { name: string; enabled: boolean }[] }>(
          harness.server,
          session,
          'GET',
          '/device/token/list',
          { name: TOKEN_NAME },
        )
      ).records[0]?.enabled;
    await row.getByRole('switch').click();
    const confirm = page.locator('.ant-modal-confirm');
    await seen(
      confirm.locator('.ant-modal-confirm-title', { hasText: `停用Token密钥“${TOKEN_NAME}”？` }),
    );
    await confirm.locator('.ant-btn-primary').click();
    await seen(toast(page, '已停用'));
    await poll(enabled).toBe(false);
    await row.getByRole('switch').click();
    await seen(toast(page, '已启用'));
    await poll(enabled).toBe(true);
  });

  it('says "复制失败" when the browser refuses the clipboard', async () => {
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
      document.execCommand = () => false;
    });
    const row = page.getByTestId('token-table').locator('tr.ant-table-row', {
      hasText: TOKEN_NAME,
    });
    await row.getByTestId('token-key-copy').click();
    await seen(toast(page, '复制失败'));
    // The overrides live in this document only.
    await page.reload();
  });

  it('adds a device by the form, naming the SN rule when the SN is wrong', async () => {
    await page.goto('/device/list');
    await page.getByTestId('device-add').click();
    const form = dialog('新增设备');
    await opened(form);
    await selectOption(page, form.getByLabel('Token密钥'), TOKEN_NAME);
    await form.getByLabel('SN').fill('R40 001');
    await form.getByLabel('设备名称').fill('Router 1');
    await selectOption(page, form.getByLabel('设备系列'), 'R40');
    await form.getByLabel('固件版本').fill('1.0.0');
    await okButton(form).click();
    await seen(form.getByText('SN 必须是 1 到 64 位字母、数字、_ 或 -'));

    await form.getByLabel('SN').fill(FORM_SN);
    await okButton(form).click();
    await gone(form);
    await seen(toast(page, '保存成功'));
    await poll(listedSns).toEqual([FORM_SN]);
    const cells = await deviceRow(FORM_SN).getByRole('cell').allInnerTexts();
    expect(cells).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`:${FORM_SN}`),
        'Router 1',
        'R40',
        '1.0.0',
        '离线',
        TOKEN_NAME,
        'admin',
      ]),
    );
  });

  it('imports an XLSX file: previews every row, then imports the valid ones only', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('devices');
    IMPORT_ROWS.forEach((r) => sheet.addRow(r));
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());

    await page.getByTestId('device-import').click();
    const modal = dialog('导入设备');
    await opened(modal);
    await seen(modal.getByText('有效的行会被导入，无效的行会被跳过，并列出原因。'));
    await selectOption(page, modal.getByTestId('import-token'), TOKEN_NAME);
    await modal.locator('input[type=file]').setInputFiles({
      name: 'devices.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
    await seen(modal.getByText('devices.xlsx'));

    // A slow line, so that the upload progress is there to see.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: Math.ceil(buffer.length / 3),
    });
    await modal.getByTestId('import-preview-button').click();
    await seen(modal.getByTestId('import-progress').getByText(/^正在上传 \d+%$/));
    await seen(modal.getByTestId('import-preview-summary'), 20_000);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    await seen(modal.getByText(`${VALID_IMPORTS} 行有效，2 行无效`));
    const preview = modal.getByTestId('import-preview').locator('tr.ant-table-row');
    await poll(() => preview.count()).toBe(8);
    expect(await preview.nth(0).getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining(['2', '有效', 'IMP-BL-001', 'Gateway 1', 'BL10X']),
    );
    expect(await preview.nth(6).getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining(['8', '无效', 'bad sn!']),
    );
    // Nothing is written by the preview.
    expect((await allDevices()).map((d) => d.sn)).toEqual([FORM_SN]);

    await modal.getByRole('tab', { name: '跳过的行（2）' }).click();
    const errors = modal.getByTestId('import-errors').locator('tr.ant-table-row');
    await poll(() => errors.count()).toBe(2);
    expect((await errors.nth(0).getByRole('cell').allInnerTexts()).slice(0, 2)).toEqual([
      '8',
      'SN',
    ]);
    expect((await errors.nth(1).getByRole('cell').allInnerTexts()).slice(0, 2)).toEqual([
      '9',
      '系列',
    ]);

    await modal.getByTestId('import-confirm').click();
    await seen(modal.getByTestId('import-result').getByText(`已导入 ${VALID_IMPORTS} 台设备`));
    await seen(modal.getByText('跳过了 2 行无效数据，见下表'));
    await modal.getByTestId('import-close').click();
    await gone(modal);

    await poll(async () => (await listedSns()).length).toBe(1 + VALID_IMPORTS);
    const imported = (await allDevices()).filter((d) => d.sn.startsWith('IMP-'));
    expect(imported.map((d) => d.sn).sort()).toEqual(
      IMPORT_ROWS.slice(1, 1 + VALID_IMPORTS)
        .map((r) => r[0])
        .sort(),
    );
    expect(imported.every((d) => d.tokenName === TOKEN_NAME)).toBe(true);
  });

  it('filters by series and exports exactly the filtered devices as CSV and XLSX', async () => {
    await queryForm().getByText('展开').click();
    await selectOption(page, queryForm().getByLabel('设备系列'), 'BL10X');
    await queryForm().getByRole('button', { name: '查 询' }).click();
    const expected = ['IMP-BL-001', 'IMP-BL-002', 'IMP-BL-003'];
    await poll(async () => (await listedSns()).sort()).toEqual(expected);

    const csv = await downloadExport('csv');
    expect(csv.name).toMatch(/\.csv$/);
    const [csvHeader, ...csvBody] = csvRows(csv.body.toString('utf8'));
    const snAt = csvHeader?.indexOf('SN') ?? -1;
    expect(snAt).toBeGreaterThanOrEqual(0);
    expect(csvBody.map((r) => r[snAt]).sort()).toEqual(expected);

    const xlsx = await downloadExport('xlsx');
    expect(xlsx.name).toMatch(/\.xlsx$/);
    const [header, ...body] = await xlsxRows(xlsx.body);
    const at = (label: string) => header?.indexOf(label) ?? -1;
    expect(body.map((r) => r[at('SN')]).sort()).toEqual(expected);
    const gateway3 = body.find((r) => r[at('SN')] === 'IMP-BL-003');
    expect([gateway3?.[at('设备名称')], gateway3?.[at('固件版本')]]).toEqual([
      'Gateway 3',
      '2.0.3',
    ]);

    await queryForm().getByRole('button', { name: '重 置' }).click();
    await poll(async () => (await listedSns()).length).toBe(1 + VALID_IMPORTS);
  });

  it('moves selected devices to a group and the group page counts them', async () => {
    await page.goto('/device/group');
    await page.getByTestId('group-add').click();
    const form = dialog('新增分组');
    await opened(form);
    await form.getByLabel('分组名称').fill(GROUP_NAME);
    await okButton(form).click();
    await gone(form);
    const groupRow = page.getByTestId('group-table').locator('tr.ant-table-row', {
      hasText: GROUP_NAME,
    });
    await seen(groupRow);

    await page.goto('/device/list');
    for (const sn of ['IMP-S27-001', 'IMP-S27-002']) {
      await deviceRow(sn).locator('.ant-checkbox-input').check();
    }
    await page.getByTestId('device-move').click();
    const move = dialog('把 2 台设备移动到分组');
    await opened(move);
    await selectOption(page, move.getByTestId('move-group-select'), GROUP_NAME);
    await okButton(move).click();
    await seen(toast(page, '已移动 2 台设备'));
    await gone(move);
    await poll(async () => deviceRow('IMP-S27-001').getByRole('cell').allInnerTexts()).toContain(
      GROUP_NAME,
    );

    await page.goto('/device/group');
    const counts = async () =>
      Promise.all(
        ['online', 'offline', 'total'].map(async (kind) =>
          (await groupRow.locator(`[data-testid^="group-${kind}-"]`).innerText()).trim(),
        ),
      );
    await poll(counts).toEqual(['0', '2', '2']);

    // The total links to the group's devices.
    await groupRow.locator('[data-testid^="group-total-"]').click();
    await poll(async () => (await listedSns()).sort()).toEqual(['IMP-S27-001', 'IMP-S27-002']);
  });

  it("opens a device's detail in a tab of its own, with the device's logs", async () => {
    await page.goto('/device/list');
    await deviceRow(FORM_SN).getByTestId(`device-link-${FORM_SN}`).click();
    await seen(page.getByTestId('device-detail'));
    expect(new URL(page.url()).pathname).toMatch(/^\/device\/detail\/[0-9a-f]{32}$/);

    const tabBar = page.getByTestId('tab-bar');
    await seen(tabBar.getByRole('tab', { name: 'Router 1', exact: true }));
    expect((await page.getByTestId('breadcrumb').innerText()).trim().split(/\s*\/\s*/)).toEqual([
      '首页',
      '设备管理',
      '设备详情',
      'Router 1',
    ]);
    await seen(
      page.getByTestId('sider').locator('.ant-menu-submenu-selected', { hasText: '设备管理' }),
    );
    const fields = page.getByTestId('device-fields');
    for (const text of [FORM_SN, 'Router 1', 'R40', '1.0.0', TOKEN_NAME, '从未连接']) {
      await seen(fields.getByText(text, { exact: true }));
    }

    // The logs tab lists this device's logs only: the add of this test.
    const logs = page.getByTestId('device-log-table').locator('tr.ant-table-row');
    await poll(() => logs.count()).toBe(1);
    expect(await logs.first().getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining(['添加设备', 'admin', '成功']),
    );
    await logs.first().getByRole('button', { name: '查看内容' }).click();
    const viewer = dialog('添加设备');
    await opened(viewer);
    await seen(viewer.getByTestId('log-content'));
    expect(await viewer.getByTestId('log-content-format').innerText()).toBe('JSON');
    const content = await viewer.getByTestId('log-content').innerText();
    expect(content).toContain(`"sn": "${FORM_SN}"`);
    expect(content.split('\n').length).toBeGreaterThan(2);
    await viewer.getByRole('button', { name: 'Close' }).click();
    await gone(viewer);

    // A device that never connected has no configuration yet; its firmware is the one entered.
    await page.getByTestId('device-tab-config').click();
    await seen(page.getByTestId('config-empty'));
    expect(await page.getByTestId('config-state').innerText()).toBe('未设置');
    await page.getByTestId('device-tab-firmware').click();
    expect(await page.getByTestId('device-firmware-version').innerText()).toBe('1.0.0');

    // A second device opens a second tab; a reload keeps both tab names.
    await page.goto('/device/list');
    await deviceRow('IMP-BL-001').getByTestId('device-link-IMP-BL-001').click();
    await seen(tabBar.getByRole('tab', { name: 'Gateway 1', exact: true }));
    await page.reload();
    await seen(page.getByTestId('device-detail'));
    await seen(tabBar.getByRole('tab', { name: 'Router 1', exact: true }));
    await seen(tabBar.getByRole('tab', { name: 'Gateway 1', exact: true }));
  });

  it('lists device logs and filters them by SN and state', async () => {
    await page.goto('/device/log');
    const rows = page.getByTestId('device-log-table').locator('tr.ant-table-row');
    // One add, six imports and two moves so far.
    await seen(page.getByText('1-9 / 9'));
    await queryForm().getByLabel('设备 SN').fill('IMP-S27');
    await queryForm().getByRole('button', { name: '查 询' }).click();
    await seen(page.getByText('1-4 / 4'));
    await poll(() => rows.count()).toBe(4);
    const subjects = await rows.locator('td:nth-child(3)').allInnerTexts();
    expect(subjects.sort()).toEqual(['导入设备', '导入设备', '移动分组', '移动分组']);
    expect(await rows.getByTestId('device-log-state').allInnerTexts()).toEqual([
      '成功',
      '成功',
      '成功',
      '成功',
    ]);

    await selectOption(page, queryForm().getByLabel('状态'), '失败');
    await seen(queryForm().locator('.ant-select-selection-item[title="失败"]'));
    await queryForm().getByRole('button', { name: '查 询' }).click();
    await poll(() => rows.count()).toBe(0);
    await seen(page.getByTestId('device-log-table').locator('.ant-empty-description'));
    await queryForm().getByRole('button', { name: '重 置' }).click();
    await seen(page.getByText('1-9 / 9'));
  });

  it('deletes a device, then two in a batch', async () => {
    await page.goto('/device/list');
    await poll(async () => (await listedSns()).length).toBe(1 + VALID_IMPORTS);
    await deviceRow('IMP-R40-002').getByTestId('device-delete-IMP-R40-002').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '删 除' }).click();
    await seen(toast(page, '删除成功'));
    await poll(listedSns).not.toContain('IMP-R40-002');

    for (const sn of ['IMP-BL-002', 'IMP-BL-003']) {
      await deviceRow(sn).locator('.ant-checkbox-input').check();
    }
    await page.getByTestId('device-delete-batch').click();
    const confirm = dialog('删除选中的 2 台设备？');
    await opened(confirm);
    await confirm.getByRole('button', { name: '删 除' }).click();
    await gone(confirm);
    await seen(toast(page, '删除成功'));
    await poll(async () => (await listedSns()).sort()).toEqual([
      FORM_SN,
      'IMP-BL-001',
      'IMP-S27-001',
      'IMP-S27-002',
    ]);
  });

  it('shows the device figures of the dashboard from the data', async () => {
    const devices = await allDevices();
    await page.goto('/dashboard/analysis');
    const figure = (key: string) => page.getByTestId(`device-stat-${key}`);
    await seen(figure('total'));
    const value = async (key: string) =>
      (await figure(key).locator('.ant-statistic-content').innerText()).trim();
    await poll(() => value('total')).toBe(String(devices.length));
    expect(await value('online')).toBe('0');
    expect(await value('offline')).toBe(String(devices.length));
    expect(await value('seen24h')).toBe('0');
    await seen(page.getByTestId('series-chart').locator('svg'));
    // The ring names each firmware version with its device count.
    const versions = new Map<string, number>();
    devices.forEach((d) => versions.set(d.version ?? '', (versions.get(d.version ?? '') ?? 0) + 1));
    const labels = [...versions].map(([version, count]) => `${version}: ${count}`);
    await poll(async () =>
      (await page.getByTestId('version-chart').locator('svg text').allTextContents()).filter((t) =>
        t.includes(': '),
      ),
    ).toEqual(expect.arrayContaining(labels));
    const recent = page.getByTestId('recent-device-logs').locator('tr.ant-table-row');
    await poll(() => recent.count()).toBe(10);
    expect(await recent.first().getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining(['删除设备']),
    );
  });
});
