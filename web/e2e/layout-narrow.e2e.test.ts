/**
 * Layout a new user trips over (issue 16): at 375 px every list page's toolbar fits the screen
 * and no column is squeezed to a letter a line;
 * in English the side menu shows its labels in full; at 1440 px the user list shows its
 * department and company columns.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StorageState } from './support/browser.js';
import { adminStorage, seen } from './support/console.js';
import { pageIn } from './support/language.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();
let storage: StorageState;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
});

const LIST_PAGES = [
  '/device/token',
  '/device/group',
  '/device/list',
  '/device/log',
  '/device/firmware',
  '/device/campaign',
  '/system/log',
  '/system/announcement',
  '/system/company',
  '/system/checkRule',
  '/account/position',
  '/account/role',
  '/account/user',
  '/account/permission',
  '/isps/apiKey',
];

/** Toolbar controls (buttons, icons) whose right edge is past the viewport. */
async function clippedControls(page: Page, width: number): Promise<string[]> {
  return page.evaluate((viewport) => {
    const toolbars = document.querySelectorAll('.ant-pro-table-list-toolbar');
    const out: string[] = [];
    for (const toolbar of Array.from(toolbars)) {
      const controls = toolbar.querySelectorAll('button, .ant-pro-table-list-toolbar-setting-item');
      for (const c of Array.from(controls) as HTMLElement[]) {
        const box = c.getBoundingClientRect();
        if (box.width > 0 && box.right > viewport + 0.5) {
          const name = c.innerText || c.getAttribute('aria-label') || c.className;
          out.push(`${name} ends at ${Math.round(box.right)}`);
        }
      }
    }
    return out;
  }, width);
}

/** Table header cells squeezed so narrow that their title wraps over several lines. */
async function squeezedHeaders(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.ant-table-thead th'))
      .filter((th) => th.innerText.trim() !== '' && th.getBoundingClientRect().height > 80)
      .map(
        (th) =>
          `${th.innerText.trim()} is ${Math.round(th.getBoundingClientRect().height)} px high`,
      ),
  );
}

describe('list toolbars at 375 px', () => {
  it.each(['zh-CN', 'en-US'])('fit the screen on every list page (%s)', async (locale) => {
    const page = harness.track(
      await pageIn(harness.browser, harness.server, locale, {
        storageState: storage,
        width: 375,
        height: 740,
      }),
    );
    const clipped: Record<string, string[]> = {};
    for (const path of LIST_PAGES) {
      await page.goto(path);
      await seen(page.locator('.ant-pro-table-list-toolbar, .ant-table').first(), 15_000).catch(
        () => {
          throw new Error(`no table on ${path}`);
        },
      );
      await page.waitForTimeout(400);
      const out = [...(await clippedControls(page, 375)), ...(await squeezedHeaders(page))];
      if (out.length > 0) clipped[path] = out;
    }
    expect(clipped).toEqual({});
  });
});

describe('side menu in English', () => {
  it('shows every label in full', async () => {
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'en-US',
        { storageState: storage, width: 1440 },
        '/dashboard/analysis',
      ),
    );
    const sider = page.getByTestId('sider');
    await seen(sider.getByText('Account permissions'));
    // Open every group so that its pages show too.
    for (const group of ['Device Management', 'Account permissions', 'System management']) {
      const title = sider.locator('.ant-menu-submenu-title').filter({ hasText: group });
      if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click();
    }
    await seen(sider.getByText('Organizational structure'));
    await page.waitForTimeout(500);
    const cut = await sider
      .locator('.nav-menu-label')
      .evaluateAll((labels) =>
        labels
          .filter((l) => l.getBoundingClientRect().width > 0 && l.scrollWidth > l.clientWidth + 1)
          .map((l) => (l as HTMLElement).innerText),
      );
    expect(cut).toEqual([]);
  });
});

describe('user list at 1440 px', () => {
  it.each([
    ['zh-CN', '部门', '所属客户'],
    ['en-US', 'Departments', 'Customer'],
  ])('shows the department and company columns (%s)', async (locale, depart, company) => {
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        locale,
        { storageState: storage, width: 1440, height: 900 },
        '/account/user',
      ),
    );
    const table = page.getByTestId('user-page').locator('.ant-table-container');
    await seen(table.locator('.ant-table-row').first());
    // The actions column is fixed at the right edge: a column under it is cut off too.
    const actions = table.locator('th.ant-table-cell-fix-right').first();
    const edge = await actions.evaluate((el) => el.getBoundingClientRect().left);
    for (const title of [depart, company]) {
      const header = table.locator('th.ant-table-cell').filter({ hasText: title }).first();
      const box = await header.boundingBox();
      expect(box, title).not.toBeNull();
      expect(Math.round((box?.x ?? 0) + (box?.width ?? 0)), title).toBeLessThanOrEqual(
        Math.round(edge),
      );
    }
  });
});
