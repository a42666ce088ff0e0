/**
 * Issue 16, item 1: a server refusal that concerns a field ("角色编码已存在", a password too
 * common) shows under that field, in the reader's language, and never as a notice naming the
 * API key (`roleCode: …`).
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession } from './support/api.js';
import type { StorageState } from './support/browser.js';
import { adminStorage, opened, seen, signedInPage } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();
let storage: StorageState;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
  const session = apiSession(storage, harness.server);
  await api(harness.server, session, 'POST', '/sys/role/add', { roleCode: 'taken', roleName: 'x' });
  await api(harness.server, session, 'POST', '/sys/position/add', {
    code: 'TAKEN',
    name: 'x',
    postRank: '3',
  });
});

type Lang = 'zh-CN' | 'en-US';

async function consolePage(lang: Lang, path: string, width = 1440): Promise<Page> {
  const page = harness.track(
    await signedInPage(harness.browser, harness.server, storage, { locale: lang, width }, path),
  );
  await page.evaluate((language) => localStorage.setItem('language', language), lang);
  await page.reload();
  return page;
}

/** The error antd shows under the form item whose label is `label`. */
function errorUnder(dialog: Locator, label: string): Locator {
  return dialog
    .locator('.ant-form-item')
    .filter({ has: dialog.page().locator('label', { hasText: label }) })
    .locator('.ant-form-item-explain-error');
}

async function noNotice(page: Page): Promise<void> {
  // The notice would come one task after the answer; give it time to show if it were coming.
  await page.waitForTimeout(500);
  expect(await page.locator('.ant-notification-notice').count()).toBe(0);
}

const TEXT = {
  'zh-CN': {
    roleCode: '角色编码',
    roleName: '角色名称',
    roleTaken: '角色编码已存在',
    code: '职务编码',
    name: '职务名称',
    codeTaken: '职务编码已存在',
  },
  'en-US': {
    roleCode: 'Role code',
    roleName: 'Role name',
    roleTaken: 'this role code already exists',
    code: 'Code',
    name: 'Name',
    codeTaken: 'this position code already exists',
  },
} as const;

describe.each(['zh-CN', 'en-US'] as const)('field errors in %s', (lang) => {
  const text = TEXT[lang];

  it('shows a taken role code under the role code field', async () => {
    const page = await consolePage(lang, '/account/role');
    await page.getByTestId('role-add').click();
    const dialog = page.getByTestId('role-form');
    await opened(page.getByRole('dialog'));
    await dialog.locator('#role-code').fill('taken');
    await dialog.locator('#role-name').fill('Another');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^(确 定|OK)$/ })
      .click();
    await seen(errorUnder(dialog, text.roleCode).filter({ hasText: text.roleTaken }));
    expect(await errorUnder(dialog, text.roleCode).innerText()).not.toContain('roleCode');
    await noNotice(page);
  });

  it('shows a taken position code under the code field', async () => {
    const page = await consolePage(lang, '/account/position');
    await page.getByTestId('position-add').click();
    const dialog = page.getByTestId('position-form');
    await opened(page.getByRole('dialog'));
    await dialog.locator('#position_code').fill('TAKEN');
    await dialog.locator('#position_name').fill('Another');
    await dialog.locator('#position_postRank').click();
    await page.locator('.ant-select-item-option').first().click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^(确 定|OK)$/ })
      .click();
    await seen(errorUnder(dialog, text.code).filter({ hasText: text.codeTaken }));
    await noNotice(page);
  });
});
