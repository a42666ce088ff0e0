/**
 * 数据字典 (issue 18): a platform administrator adds a dictionary and its items, sees a taken
 * value refused under the field, deletes the dictionary to the recycle bin and restores it,
 * imports a sheet (a bad one is refused row by row, a good one applied), and reads a platform
 * dictionary in English at phone width.
 */
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import {
  adminStorage,
  loginAsAdmin,
  opened,
  seen,
  gone,
  sideMenu,
  storedToken,
  toast,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();

async function xlsx(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('dicts');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const HEADER = [
  '字典编码',
  '字典名称',
  '字典英文名称',
  '字典描述',
  '数据值',
  '名称',
  '英文名称',
  '描述',
  '排序',
  '启用(1/0)',
];

function dictPage(page: Page): Locator {
  return page.getByTestId('dict-page');
}

function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole('dialog', { name });
}

async function addItem(page: Page, text: string, textEn: string, value: string): Promise<void> {
  await page.getByTestId('dict-item-add').click();
  const modal = dialog(page, '添加字典项');
  await opened(modal);
  await modal.getByTestId('dict-item-text').fill(text);
  await modal.getByTestId('dict-item-text-en').fill(textEn);
  await modal.getByTestId('dict-item-value').fill(value);
  await modal.getByTestId('dict-item-save').click();
  await gone(modal);
}

describe('dictionaries in the console', () => {
  it('adds a dictionary with items, recycles and restores it', async () => {
    const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await loginAsAdmin(page, harness.server);
    await sideMenu(page).getByText('系统管理', { exact: true }).click();
    await sideMenu(page).getByText('数据字典', { exact: true }).click();
    await seen(dictPage(page).getByRole('cell', { name: 'priority', exact: true }));

    await page.getByTestId('dict-add').click();
    const form = dialog(page, '添加字典');
    await opened(form);
    await form.getByTestId('dict-code').fill('9bad');
    await form.getByTestId('dict-save').click();
    await seen(form.getByText('字典名称不能为空'));
    await seen(form.getByText('以字母开头，只含字母、数字和下划线'));
    await form.getByTestId('dict-name').fill('班次');
    await form.getByTestId('dict-name-en').fill('Shift');
    await form.getByTestId('dict-code').fill('shift_e2e');
    await form.getByTestId('dict-save').click();
    await gone(form);
    await seen(toast(page, '字典已保存'));

    await dictPage(page).getByTestId('dict-items-shift_e2e').click();
    const drawer = page.getByTestId('dict-item-drawer');
    await seen(drawer.getByText('字典项：班次'));
    await addItem(page, '白班', 'Day', 'day');
    await addItem(page, '夜班', 'Night', 'night');
    await seen(drawer.getByRole('cell', { name: '夜班' }));

    // The value another item has is refused under the field, before anything is sent.
    await page.getByTestId('dict-item-add').click();
    const itemForm = dialog(page, '添加字典项');
    await opened(itemForm);
    await itemForm.getByTestId('dict-item-value').fill('day');
    await seen(itemForm.getByText('该值不可用，字典中已存在'));
    await itemForm.getByRole('button', { name: /取\s*消/ }).click();
    await gone(itemForm);

    await drawer.getByTestId('dict-item-edit-night').click();
    const edit = dialog(page, '编辑字典项');
    await opened(edit);
    await edit.getByTestId('dict-item-text').fill('晚班');
    await edit.getByTestId('dict-item-enabled').click();
    await edit.getByTestId('dict-item-save').click();
    await gone(edit);
    await seen(drawer.getByRole('cell', { name: '晚班' }));
    await seen(drawer.getByText('停用'));
    await page.locator('.ant-drawer-close').click();
    await gone(drawer);

    // What the selects read: enabled items only, in their order.
    const token = await storedToken(page);
    const items = await page.evaluate(async (accessToken) => {
      const res = await fetch('/api/sys/dict/getDictItems/shift_e2e', {
        headers: { 'x-access-token': accessToken ?? '' },
      });
      return ((await res.json()) as { result: { text: string }[] }).result.map((i) => i.text);
    }, token);
    expect(items).toEqual(['白班']);

    await dictPage(page).getByTestId('dict-delete-shift_e2e').click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await seen(toast(page, '已移入回收站'));
    await gone(dictPage(page).getByRole('cell', { name: 'shift_e2e', exact: true }));
    await page.getByTestId('dict-recycle-bin').click();
    const bin = page.getByTestId('dict-recycle-bin-modal');
    await seen(bin.getByRole('cell', { name: 'shift_e2e' }));
    await bin.getByTestId('dict-restore-shift_e2e').click();
    await seen(toast(page, '字典已还原'));
    await seen(bin.getByText('回收站是空的'));
    await page.keyboard.press('Escape');
    await seen(dictPage(page).getByRole('cell', { name: 'shift_e2e', exact: true }));
  }, 120_000);

  it('imports a sheet all or nothing, listing each bad row', async () => {
    const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await loginAsAdmin(page, harness.server);
    await page.goto('/system/dict');
    await seen(dictPage(page).getByRole('cell', { name: 'priority', exact: true }));
    await page.getByTestId('dict-import').click();
    const importer = dialog(page, '导入字典');
    await opened(importer);
    const input = importer.locator('input[type=file]');
    await input.setInputFiles({
      name: 'bad.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await xlsx([HEADER, ['colour_e2e', '颜色', '', '', 'red', '', '', '', 'x', '']]),
    });
    const errors = importer.getByTestId('dict-import-errors');
    await seen(errors.getByRole('cell', { name: '不能为空' }));
    await seen(errors.getByRole('cell', { name: '须为 0 到 99999 的整数' }));
    await input.setInputFiles({
      name: 'good.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await xlsx([
        HEADER,
        ['colour_e2e', '颜色', 'Colour', '', 'red', '红', 'Red', '', '1', '1'],
      ]),
    });
    await seen(toast(page, '导入完成：新增 1 个字典、1 项，更新 0 项'));
    await gone(importer);
    await seen(dictPage(page).getByRole('cell', { name: 'colour_e2e', exact: true }));
  }, 120_000);

  it('shows a platform dictionary in English at phone width', async () => {
    const storage = await adminStorage(harness.browser, harness.server);
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'en-US',
        { width: 390, height: 844, storageState: storage },
        '/system/dict?dictCode=priority',
      ),
    );
    await seen(dictPage(page).getByRole('cell', { name: 'Priority', exact: true }));
    await seen(dictPage(page).getByText('Platform', { exact: true }));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await dictPage(page).getByTestId('dict-items-priority').click();
    const drawer = page.getByTestId('dict-item-drawer');
    await seen(drawer.getByText('Items of Priority'));
    await seen(drawer.getByRole('cell', { name: 'Urgent' }));
  }, 120_000);
});
