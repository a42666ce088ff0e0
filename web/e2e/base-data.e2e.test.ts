/**
 * 基础数据 (issue 20): in Chinese, an administrator adds goods, a region with a site and its
 * coordinates below it, and a vendor with its contract; a device created through the API then
 * references the goods, and deleting them is refused with the count. The location list is read
 * once in English, and every page at phone width.
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import type { StorageState } from './support/browser.js';
import { adminStorage, gone, opened, seen, selectOption } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();
const SHOTS = '/tmp/agents/shots';

let storage: StorageState;
let session: ApiSession;

function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name });
}

async function open(language: string, path: string, width = 1366): Promise<Page> {
  return harness.track(
    await pageIn(
      harness.browser,
      harness.server,
      language,
      { width, height: 860, storageState: storage },
      path,
    ),
  );
}

async function pickDate(page: Page, field: Locator, date: string): Promise<void> {
  await field.click();
  await field.fill(date);
  await page.keyboard.press('Enter');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  storage = await adminStorage(harness.browser, harness.server);
  session = apiSession(storage, harness.server);
});

describe('base data in the console', () => {
  it('adds goods, a region with a site, and a vendor; refuses to delete referenced goods', async () => {
    const page = await open('zh-CN', '/base/goods');
    await seen(page.getByTestId('goods-page'));

    await page.getByTestId('goods-add').click();
    const goodsForm = dialog(page, '新增物料');
    await opened(goodsForm);
    await goodsForm.getByTestId('goods-save').click();
    await seen(goodsForm.getByText('型号不能为空'));
    await selectOption(page, goodsForm.getByTestId('goods-series'), 'R40');
    await goodsForm.getByTestId('goods-model').fill('R40-E2E');
    await goodsForm.getByTestId('goods-hw-revision').fill('A1');
    await goodsForm.getByTestId('goods-save').click();
    await gone(goodsForm);
    await seen(page.getByTestId('goods-row-R40-E2E'));
    await page.screenshot({ path: `${SHOTS}/base-data-goods-zh.png` });

    await page.goto('/base/location');
    await page.getByTestId('location-add').click();
    const regionForm = dialog(page, '新增位置');
    await opened(regionForm);
    await regionForm.getByTestId('location-name').fill('华北');
    await regionForm.getByTestId('location-save').click();
    await gone(regionForm);
    await page.getByTestId('location-add-child-华北').click();
    const siteForm = dialog(page, '新增位置');
    await opened(siteForm);
    await siteForm.getByTestId('location-name').fill('北京站');
    await siteForm.getByTestId('location-latitude').fill('39.9042');
    await siteForm.getByTestId('location-save').click();
    // Latitude alone is refused by the server under the longitude.
    await seen(siteForm.getByText('纬度和经度需同时填写或同时留空'));
    // The map picker sets both numbers.
    await siteForm.getByTestId('location-pick-on-map').click();
    const pickedLat = page.getByTestId('coordinate-picker-lat');
    await seen(pickedLat);
    await pickedLat.fill('39.9042');
    await page.getByTestId('coordinate-picker-lng').fill('116.4074');
    await page.getByTestId('coordinate-picker-ok').click();
    await gone(pickedLat);
    expect(await siteForm.getByTestId('location-longitude').inputValue()).toBe('116.407400');
    await siteForm.getByTestId('location-save').click();
    await gone(siteForm);
    const table = page.getByTestId('location-table');
    await seen(table.getByText('华北/北京站'));
    await seen(table.getByText('39.9042, 116.4074'));
    await page.screenshot({ path: `${SHOTS}/base-data-locations-zh.png` });

    await page.goto('/base/vendor');
    await page.getByTestId('vendor-add').click();
    const vendorForm = dialog(page, '新增供应商');
    await opened(vendorForm);
    await vendorForm.getByTestId('vendor-name').fill('华北安装公司');
    await selectOption(page, vendorForm.getByTestId('vendor-kind'), '安装商');
    await vendorForm.getByTestId('vendor-contract-no').fill('HT-2026-001');
    await pickDate(page, vendorForm.getByTestId('vendor-contract-start'), '2026-03-01');
    await pickDate(page, vendorForm.getByTestId('vendor-contract-end'), '2026-02-01');
    await vendorForm.getByTestId('vendor-save').click();
    await seen(vendorForm.getByText('不能早于合同开始日期'));
    await pickDate(page, vendorForm.getByTestId('vendor-contract-end'), '2028-02-29');
    await vendorForm.getByTestId('vendor-save').click();
    await gone(vendorForm);
    await seen(page.getByTestId('vendor-row-华北安装公司'));
    await seen(page.getByText('2026-03-01 ~ 2028-02-29'));
    await page.screenshot({ path: `${SHOTS}/base-data-vendors-zh.png` });

    // A device of the goods, made through the API as any client would.
    const goods = await api<{ records: { id: string }[] }>(
      harness.server,
      session,
      'GET',
      '/base/goods/list',
      { model: 'R40-E2E' },
    );
    const token = await api<{ id: string }>(harness.server, session, 'POST', '/device/token/add', {
      name: 'base-data',
    });
    await api(harness.server, session, 'POST', '/device/device/add', {
      tokenId: token.id,
      sn: 'BASE-E2E-1',
      name: 'BASE-E2E-1',
      series: 'R40',
      goodsId: goods.records[0]?.id,
    });
    await page.goto('/base/goods');
    await page.getByTestId('goods-delete-R40-E2E').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '确 定' }).click();
    await seen(
      page
        .locator('.ant-notification-notice')
        .filter({ hasText: /1 台设备引用了该物料，不能删除/ }),
    );
    await seen(page.getByTestId('goods-row-R40-E2E'));
  });

  it('reads the locations in English', async () => {
    const page = await open('en-US', '/base/location');
    const table = page.getByTestId('location-table');
    await seen(table.getByText('华北/北京站'));
    await seen(table.getByRole('columnheader', { name: 'Kind' }));
    await seen(table.getByText('Region', { exact: true }));
    await seen(page.getByTestId('location-add').getByText('Add'));
    await page.getByTestId('location-edit-北京站').click();
    const form = dialog(page, 'Edit location');
    await opened(form);
    await seen(form.getByText('WGS 84 degrees', { exact: false }));
    expect(await form.getByTestId('location-latitude').inputValue()).toBe('39.904200');
    await page.screenshot({ path: `${SHOTS}/base-data-location-form-en.png` });
  });

  it('fits a phone', async () => {
    for (const [path, testId] of [
      ['/base/goods', 'goods-page'],
      ['/base/location', 'location-page'],
      ['/base/vendor', 'vendor-page'],
    ] as const) {
      const page = await open('zh-CN', path, 390);
      await seen(page.getByTestId(testId));
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SHOTS}/base-data-${testId}-390.png`, fullPage: true });
    }
    const page = await open('zh-CN', '/base/location', 390);
    await page.getByTestId('location-add').click();
    const form = dialog(page, '新增位置');
    await opened(form);
    await page.screenshot({ path: `${SHOTS}/base-data-location-form-390.png` });
  });
});
