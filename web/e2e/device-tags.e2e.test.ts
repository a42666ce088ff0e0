/**
 * Device tags and locations (issue 20) in the console: two devices tagged from a list selection,
 * the list filtered by that tag, a device's location chosen in its form and shown as a path; in
 * Chinese, once in English, and at phone width.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import type { StorageState } from './support/browser.js';
import { adminStorage, gone, opened, seen, selectOption, toast } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();
const SHOTS = '/tmp/agents/shots';
const PATH = '华东 / 上海站 / 柜1';

let storage: StorageState;
let session: ApiSession;
let tokenId = '';

const id = () => randomBytes(16).toString('hex');

/** The location tree, written as the base-data module would: the device pages only read it. */
function seedLocations(): void {
  const db = new Database(join(harness.server.dataDir, 'blrms.db'));
  try {
    const { company_id: companyId } = db
      .prepare("select company_id from sys_user where username = 'admin'")
      .get() as { company_id: string };
    const insert = db.prepare(
      `insert into base_location (id, company_id, parent_id, kind, name, sort_no, create_time)
       values (?, ?, ?, ?, ?, 0, ?)`,
    );
    const add = (kind: string, name: string, parent: string | null) => {
      const locationId = id();
      insert.run(locationId, companyId, parent, kind, name, Date.now());
      return locationId;
    };
    const east = add('region', '华东', null);
    const site = add('site', '上海站', east);
    add('cabinet', '柜1', site);
  } finally {
    db.close();
  }
}

async function addDevices(prefix: string): Promise<string[]> {
  const sns = [1, 2, 3].map((n) => `${prefix}-${n}`);
  for (const sn of sns) {
    await api(harness.server, session, 'POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
    });
  }
  return sns;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  storage = await adminStorage(harness.browser, harness.server);
  session = apiSession(storage, harness.server);
  tokenId = (
    await api<{ id: string }>(harness.server, session, 'POST', '/device/token/add', {
      name: 'tags',
    })
  ).id;
  seedLocations();
});

function rows(page: Page): Locator {
  return page.getByTestId('device-table').locator('tr.ant-table-row');
}

function row(page: Page, sn: string): Locator {
  return rows(page).filter({ has: page.getByTestId(`device-link-${sn}`) });
}

async function listedSns(page: Page): Promise<string[]> {
  return rows(page).locator('[data-testid^="device-link-"]').allInnerTexts();
}

const texts = {
  'zh-CN': {
    tagsButton: '标签',
    tagsDone: '已为 2 台设备添加标签',
    tagsTitle: '为 2 台设备修改标签',
    expand: '展开',
    search: '查 询',
    tagsFilter: '标签',
    place: '所在位置',
    editTitle: '编辑设备',
    saved: '保存成功',
  },
  'en-US': {
    tagsButton: 'Tags',
    tagsDone: 'Tags added to 2 devices',
    tagsTitle: 'Change the tags of 2 devices',
    expand: 'Expand',
    search: 'Query',
    tagsFilter: 'Tags',
    place: 'Located at',
    editTitle: 'Edit device',
    saved: 'Saved',
  },
} as const;

/**
 * Tags the first two devices from the list selection, filters the list by the tag, and sets the
 * third device's location in its form.
 */
async function tagFilterLocate(page: Page, lang: keyof typeof texts, prefix: string, tag: string) {
  const say = texts[lang];
  const [first, second, third] = await addDevices(prefix);
  await page.goto('/device/list');
  await seen(row(page, first!), 20_000);

  for (const sn of [first!, second!]) await row(page, sn).locator('.ant-checkbox-input').check();
  await page.getByTestId('device-tags').click();
  const modal = page.getByRole('dialog', { name: say.tagsTitle });
  await opened(modal);
  const input = modal.getByRole('combobox');
  await input.fill(tag);
  await input.press('Enter');
  // The options list stays open over the buttons until the select loses the focus.
  await modal.locator('.ant-modal-title').click();
  await gone(page.locator('.ant-select-dropdown:visible'));
  await modal.locator('.ant-modal-footer .ant-btn-primary').click();
  await seen(toast(page, say.tagsDone));
  await gone(modal);
  await seen(row(page, first!).locator('.ant-tag', { hasText: tag }));
  await seen(row(page, second!).locator('.ant-tag', { hasText: tag }));
  expect(await row(page, third!).locator('.ant-tag', { hasText: tag }).count()).toBe(0);

  const query = page.locator('.ant-pro-query-filter');
  const expand = query.getByText(say.expand);
  if (await expand.isVisible()) await expand.click();
  await selectOption(
    page,
    query.getByLabel(say.tagsFilter, { exact: true }),
    tag.concat(lang === 'zh-CN' ? '（2）' : ' (2)'),
  );
  await query.getByRole('button', { name: say.search }).click();
  await expect.poll(() => listedSns(page), { timeout: 10_000 }).toEqual([second, first]);

  await query.getByRole('button', { name: lang === 'zh-CN' ? '重 置' : 'Reset' }).click();
  await seen(row(page, third!));
  await page.getByTestId(`device-edit-${third}`).click();
  const form = page.getByRole('dialog', { name: say.editTitle });
  await opened(form);
  await selectOption(page, form.getByLabel(say.place), '柜1');
  await form.locator('.ant-modal-footer .ant-btn-primary').click();
  await seen(toast(page, say.saved));
  await seen(row(page, third!).getByText(PATH));
}

describe('device tags and locations', () => {
  it('tags two devices in bulk, filters by the tag and sets a location (zh-CN)', async () => {
    const page = harness.track(
      await pageIn(harness.browser, harness.server, 'zh-CN', { storageState: storage }),
    );
    await tagFilterLocate(page, 'zh-CN', 'TAGZH', '北区');
    await page.screenshot({ path: `${SHOTS}/device-tags-zh-CN.png` });
    const devices = await api<{ records: { sn: string; tags: string[] }[] }>(
      harness.server,
      session,
      'GET',
      '/device/device/list',
      { tags: '北区', pageSize: 100 },
    );
    expect(devices.records.map((d) => d.sn).sort()).toEqual(['TAGZH-1', 'TAGZH-2']);
  }, 120_000);

  it('does the same in English', async () => {
    const page = harness.track(
      await pageIn(harness.browser, harness.server, 'en-US', { storageState: storage }),
    );
    await tagFilterLocate(page, 'en-US', 'TAGEN', 'south');
    await page.screenshot({ path: `${SHOTS}/device-tags-en-US.png` });
  }, 120_000);

  it('fits a phone screen: the filtered list and the form', async () => {
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'zh-CN',
        { width: 390, height: 844, storageState: storage },
        `/device/list?tags=${encodeURIComponent('北区')}`,
      ),
    );
    await expect.poll(() => listedSns(page), { timeout: 20_000 }).toEqual(['TAGZH-2', 'TAGZH-1']);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/device-tags-390-list.png`, fullPage: true });
    await page.goto('/device/list');
    await seen(row(page, 'TAGZH-3'), 20_000);
    await row(page, 'TAGZH-3').getByTestId('device-edit-TAGZH-3').click();
    const form = page.getByRole('dialog', { name: '编辑设备' });
    const place = form.getByText(PATH);
    await seen(place);
    await place.scrollIntoViewIfNeeded();
    // The dialog's opening animation, so that the picture shows it settled.
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/device-tags-390-form.png` });
  }, 120_000);
});
