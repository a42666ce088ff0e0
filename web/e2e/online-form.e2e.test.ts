/**
 * 在线表单 (issue 20): an administrator defines a "维护记录" form (text, number with a range, a
 * dictionary select, a device and a date), publishes it and finds it in the menu; adds a record
 * (the range refused under its field first), searches, edits it, reads its history and exports
 * it; reads the page in English; and a user whose role lacks the form's add code has no add
 * button. Screenshots of both pages in zh-CN, en-US and at 390 px go to /tmp/agents/shots.
 */
import { mkdirSync } from 'node:fs';
import type {
  TDevice,
  TDeviceTokenWithKey,
  TDict,
  TPermissionTree,
  TPermissionTreeNode,
} from '@blrms/contracts';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import { newConsolePage, type StorageState } from './support/browser.js';
import {
  adminStorage,
  gone,
  opened,
  seen,
  selectOption,
  sideMenu,
  submitLogin,
  toast,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();
const SHOTS = '/tmp/agents/shots';
const CODE = 'maint_visit';
const PAGE = `/online/data/${CODE}`;
let storage: StorageState;
let admin: ApiSession;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  storage = await adminStorage(harness.browser, harness.server);
  admin = apiSession(storage, harness.server);
  const dict = await api<TDict>(harness.server, admin, 'POST', '/sys/dict/add', {
    dictName: '维护类型',
    dictNameEn: 'Visit kind',
    dictCode: 'visit_kind',
  });
  for (const [itemText, itemTextEn, itemValue] of [
    ['维修', 'Repair', 'repair'],
    ['巡检', 'Inspection', 'inspect'],
  ]) {
    await api(harness.server, admin, 'POST', '/sys/dictItem/add', {
      dictId: dict.id,
      itemText,
      itemTextEn,
      itemValue,
    });
  }
  const token = await api<TDeviceTokenWithKey>(harness.server, admin, 'POST', '/device/token/add', {
    name: 'Field service',
  });
  await api<TDevice>(harness.server, admin, 'POST', '/device/device/add', {
    tokenId: token.id,
    sn: 'E2E0001',
    name: 'Pump RTU',
    series: 'S27X',
  });
}, 120_000);

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/online-form-web-${name}.png`, fullPage: true });
}

async function confirmPop(page: Page, ok = /^(确\s*定|OK)$/): Promise<void> {
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: ok }).click();
}

/** Adds a field of a type in the designer and fills what every field has. */
async function addField(
  designer: Locator,
  page: Page,
  index: number,
  type: string,
  key: string,
  label: string,
  labelEn: string,
): Promise<Locator> {
  await designer.getByTestId('designer-add-field').click();
  // The menu zooms in; an item clicked while it moves may not take the click.
  const menu = page
    .locator('.ant-dropdown')
    .filter({ has: page.getByTestId(`designer-add-${type}`) });
  await expect.poll(() => menu.getAttribute('class')).not.toMatch(/slide|hidden/);
  await page.getByTestId(`designer-add-${type}`).click();
  await gone(menu);
  const card = designer.getByTestId(`designer-field-${index}`);
  await seen(card);
  await card.getByTestId(`designer-label-${index}`).fill(label);
  await card.getByTestId(`designer-label-en-${index}`).fill(labelEn);
  await card.getByTestId(`designer-key-${index}`).fill(key);
  return card;
}

function fieldError(scope: Locator, key: string): Locator {
  return scope.getByTestId(`online-field-${key}`).locator('.ant-form-item-explain-error');
}

describe('online forms in the console', () => {
  it('defines, publishes and fills in a form; a user without the add code cannot add', async () => {
    const { page } = await pageIn(
      harness.browser,
      harness.server,
      'zh-CN',
      { storageState: storage },
      '/online/form',
    );
    harness.track({ context: page.context(), page });
    await seen(page.getByTestId('online-forms-page'));
    await page.getByTestId('online-form-add').click();
    const designer = page.getByRole('dialog', { name: '新建表单' });
    await opened(designer);
    await designer.getByTestId('designer-name').fill('维护记录');
    await designer.getByTestId('designer-name-en').fill('Maintenance visits');
    await designer.getByTestId('designer-code').fill(CODE);

    const summary = await addField(designer, page, 0, 'text', 'summary', '摘要', 'Summary');
    await summary.getByTestId('designer-required-0').check();
    await summary.getByTestId('designer-searchable-0').check();
    await summary.getByTestId('designer-sortable-0').check();
    const hours = await addField(designer, page, 1, 'number', 'hours', '工时', 'Hours');
    await hours.getByTestId('designer-min-1').fill('1');
    await hours.getByTestId('designer-max-1').fill('24');
    const kind = await addField(designer, page, 2, 'select', 'kind', '类型', 'Kind');
    await selectOption(page, kind.getByTestId('designer-dict-2'), '维护类型 (visit_kind)');
    await addField(designer, page, 3, 'device', 'device', '设备', 'Device');
    await addField(designer, page, 4, 'date', 'visit_date', '日期', 'Date');
    // Moving a field reorders the preview as well.
    await designer.getByTestId('designer-up-4').click();
    await designer.getByTestId('designer-down-3').click();

    const preview = designer.getByTestId('designer-preview');
    await seen(preview.getByText('工时'));
    await seen(preview.getByTestId('online-field-kind'));
    await shot(page, 'designer-zh');
    await designer.getByTestId('designer-save').click();
    await gone(designer);
    await seen(toast(page, /./));

    const table = page.getByTestId('online-form-table');
    await seen(table.getByRole('cell', { name: CODE }));
    await page.getByTestId(`online-form-publish-${CODE}`).click();
    await confirmPop(page);
    await seen(page.getByTestId(`online-form-status-${CODE}`).getByText('已发布'));
    await shot(page, 'forms-zh');

    // The published form is a page of the menu (after a reload as well).
    await page.reload();
    // The group is open already: the page shown is one of its items.
    const menuItem = sideMenu(page).getByText('维护记录', { exact: true });
    await seen(menuItem);
    await menuItem.click();
    await page.waitForURL(`**${PAGE}`);
    const records = page.getByTestId('online-records-page');
    await seen(records.getByTestId('online-record-table'));

    await records.getByTestId('online-record-add').click();
    const modal = page.getByRole('dialog').filter({ has: page.getByTestId('online-record-save') });
    await opened(modal);
    await modal.getByTestId('online-input-summary').fill('水泵年检');
    await modal.getByTestId('online-input-hours').fill('30');
    await modal.getByTestId('online-record-save').click();
    await seen(fieldError(modal, 'hours').getByText('工时须在 1 到 24 之间'));
    await modal.getByTestId('online-input-hours').fill('3');
    await selectOption(page, modal.getByTestId('online-input-kind'), '维修');
    await selectOption(page, modal.getByTestId('online-input-device'), 'E2E0001 / Pump RTU');
    await modal.getByTestId('online-input-visit_date').click();
    await modal.getByTestId('online-input-visit_date').fill('2026-01-31');
    await modal.getByTestId('online-input-visit_date').press('Enter');
    await modal.getByTestId('online-record-save').click();
    await gone(modal);
    const row = records.getByRole('row').filter({ hasText: '水泵年检' });
    await seen(row);
    await seen(row.getByText('维修'));
    await seen(row.getByText('E2E0001 / Pump RTU'));
    await seen(row.getByText('2026-01-31'));

    // Search on the searchable field.
    await records.getByTestId('online-search-summary').fill('不存在');
    await records.getByTestId('online-search-submit').click();
    await gone(row);
    await records.getByTestId('online-search-summary').fill('水泵');
    await records.getByTestId('online-search-submit').click();
    await seen(row);

    await row.locator('[data-testid^="online-record-edit-"]').click();
    await opened(modal);
    await modal.getByTestId('online-input-hours').fill('5');
    await modal.getByTestId('online-record-save').click();
    await gone(modal);
    await seen(row.getByRole('cell', { name: '5', exact: true }));
    await shot(page, 'records-zh');

    await row.locator('[data-testid^="online-record-history-"]').click();
    const drawer = page.getByTestId('online-history-drawer');
    await expect.poll(() => drawer.getByTestId('online-history-entry').count()).toBe(2);
    const edit = drawer.getByTestId('online-history-entry').first();
    await seen(edit.getByText('修改'));
    await seen(edit.getByText('工时:'));
    expect(await edit.innerText()).toMatch(/3\s*→\s*5/);
    await seen(edit.getByText('admin'));
    await page.locator('.ant-drawer-close').click();
    await gone(drawer);

    // Import: the preview lists the bad row, then the good one is written.
    await records.getByTestId('online-record-import').click();
    const importer = page.getByRole('dialog', { name: '导入记录' });
    await opened(importer);
    await importer.locator('input[type=file]').setInputFiles({
      name: 'visits.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('摘要,工时\n风机巡检,2\n阀门巡检,99\n'),
    });
    await importer.getByTestId('online-import-preview').click();
    await seen(importer.getByText('共 2 行：有效 1 行，无效 1 行'));
    await seen(
      importer.getByTestId('online-import-errors').getByRole('cell', { name: '3', exact: true }),
    );
    await importer.getByTestId('online-import-confirm').click();
    await seen(toast(page, '已导入 1 条记录'));
    await importer.getByTestId('online-import-close').click();
    await gone(importer);
    await records.getByTestId('online-search-reset').click();
    await seen(records.getByRole('row').filter({ hasText: '风机巡检' }));
    await expect
      .poll(() => records.getByRole('row').filter({ hasText: '阀门巡检' }).count())
      .toBe(0);

    await records.getByTestId('online-record-export').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('online-record-export-xlsx').click();
    expect((await download).suggestedFilename()).toBe(`${CODE}.xlsx`);

    // Once in English: labels and the form's name in the reader's language.
    await page.getByTestId('header').getByTestId('lang-switch').hover();
    await page.getByRole('menuitem', { name: 'English', exact: true }).click();
    await seen(records.getByRole('columnheader', { name: 'Hours' }));
    await seen(records.getByText('Maintenance visits'));
    await seen(row.getByText('Repair'));
    await shot(page, 'records-en');
    await records.getByTestId('online-record-add').click();
    await opened(modal);
    await modal.getByTestId('online-record-save').click();
    await seen(fieldError(modal, 'summary').getByText(/Summary/));
    await page.keyboard.press('Escape');
    await gone(modal);
    // Through the menu: a reload would run the context's script that starts it in Chinese.
    await sideMenu(page).getByText('Form definitions', { exact: true }).click();
    await seen(page.getByTestId(`online-form-status-${CODE}`).getByText('Published'));
    await shot(page, 'forms-en');
    await page.getByTestId(`online-form-edit-${CODE}`).click();
    await opened(page.getByRole('dialog', { name: 'Edit form' }));
    await seen(page.getByTestId('designer-preview').getByText('Hours'));
    await shot(page, 'designer-en');

    // A role with the form's list code only: the page, without an add button.
    const role = await api<{ id: string }>(harness.server, admin, 'POST', '/sys/role/add', {
      roleCode: 'visit_reader',
      roleName: '维护记录查看',
    });
    const tree = await api<TPermissionTree>(
      harness.server,
      admin,
      'GET',
      '/sys/permission/queryTreeList',
    );
    const path = (nodes: TPermissionTreeNode[], perms: string): string[] => {
      for (const node of nodes) {
        if (node.perms === perms) return [node.key];
        const below = path(node.children ?? [], perms);
        if (below.length > 0) return [node.key, ...below];
      }
      return [];
    };
    const grant = path(tree.treeList, `online:${CODE}:list`);
    expect(grant.length).toBeGreaterThan(0);
    await api(harness.server, admin, 'POST', '/sys/permission/saveRolePermission', {
      roleId: role.id,
      permissionIds: grant,
    });
    await api(harness.server, admin, 'POST', '/sys/user/add', {
      username: 'visitreader',
      password: 'Visit-Reader-42',
      realname: 'Reader',
      roleIds: [role.id],
    });
    await page.context().close();
    const reader = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await reader.goto('/user/login');
    await submitLogin(reader, 'visitreader', 'Visit-Reader-42');
    await reader.waitForURL((url) => !url.pathname.startsWith('/user/login'));
    await reader.goto(PAGE);
    const readerRecords = reader.getByTestId('online-records-page');
    await seen(readerRecords.getByRole('row').filter({ hasText: '水泵年检' }));
    expect(await readerRecords.getByTestId('online-record-add').count()).toBe(0);
    expect(await readerRecords.locator('[data-testid^="online-record-edit-"]').count()).toBe(0);
  }, 240_000);

  it('fits a phone (390 px)', async () => {
    const { page, context } = await pageIn(
      harness.browser,
      harness.server,
      'zh-CN',
      { storageState: storage, width: 390, height: 844 },
      PAGE,
    );
    harness.track({ context, page });
    const records = page.getByTestId('online-records-page');
    await seen(records.getByRole('row').filter({ hasText: '水泵年检' }));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'records-390');
    await page.goto('/online/form');
    await seen(page.getByTestId(`online-form-status-${CODE}`));
    await shot(page, 'forms-390');
    await page.getByTestId(`online-form-edit-${CODE}`).click();
    await opened(page.getByRole('dialog', { name: '编辑表单' }));
    await seen(page.getByTestId('designer-preview'));
    await shot(page, 'designer-390');
  }, 120_000);
});
