import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { newConsolePage, type StorageState } from './browser.js';
import type { RunningServer } from './server.js';

/**
 * Helpers that drive the console the way a user does: through the visible login form, menu and
 * dialogs. Test files start their own server and browser; these only act on a page.
 */

/** The login form in either language, found by its placeholders. */
export function loginForm(page: Page): {
  username: Locator;
  password: Locator;
  /** The captcha row (field and image); the test servers run with CAPTCHA=off, which hides it. */
  captchaRow: Locator;
  submit: Locator;
} {
  return {
    username: page.getByPlaceholder(/^(用户名|Username)$/),
    password: page.getByPlaceholder(/^(密码|Password)$/),
    captchaRow: page.getByTestId('login-captcha-row'),
    // antd puts a space between two Chinese characters of a button. (Names are matched as strings:
    // a regular expression stopped matching antd buttons after a click, while their wave runs.)
    submit: page
      .getByRole('button', { name: '登 录', exact: true })
      .or(page.getByRole('button', { name: 'Log in', exact: true })),
  };
}

/** Fills and submits the login form on the current page (which must show it). */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  const form = loginForm(page);
  await form.username.fill(username);
  await form.password.fill(password);
  // The field shows while the console asks the server for a captcha, and goes when there is none.
  await form.captchaRow.waitFor({ state: 'detached' });
  await form.submit.click();
}

/** The side menu (desktop sider): its top-level list, which holds the groups' lists. */
export function sideMenu(page: Page): Locator {
  return page.getByTestId('sider').getByRole('menu').first();
}

/**
 * Opens an antd select (the element around its combobox) and clicks the visible option with that
 * text. (antd's role="option" elements are a hidden list for screen readers; the visible entries
 * carry the text as title.)
 */
export async function selectOption(page: Page, select: Locator, text: string): Promise<void> {
  await select.click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(text, { exact: true }).click();
}

/**
 * The department choice that follows a login of a user with several departments (admin has two).
 * Picks `departName` (default 研发部, the first) and confirms, so the dialog is out of the way.
 */
export async function chooseDepartAfterLogin(page: Page, departName = '研发部'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: /^(部门选择|Select department)$/ });
  await dialog.waitFor();
  await selectOption(page, dialog.getByTestId('depart-select'), departName);
  await dialog
    .getByRole('button', { name: '确 定', exact: true })
    .or(dialog.getByRole('button', { name: 'OK', exact: true }))
    .click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Visits /user/login, logs in as admin and settles on the dashboard with the dialog closed. */
export async function loginAsAdmin(
  page: Page,
  server: RunningServer,
  password = server.adminPassword,
): Promise<void> {
  await page.goto('/user/login');
  await submitLogin(page, 'admin', password);
  await page.waitForURL('**/dashboard/analysis');
  await chooseDepartAfterLogin(page);
  await page.getByTestId('dashboard-greeting').waitFor();
}

/** A fresh browser context (own storage) with admin logged in. */
export async function adminSession(
  browser: Browser,
  server: RunningServer,
  options: Parameters<typeof newConsolePage>[2] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const session = await newConsolePage(browser, server.url, options);
  await loginAsAdmin(session.page, server);
  return session;
}

/**
 * Logs admin in once through the form and returns the browser storage (the token in localStorage)
 * so that tests which are not about logging in can start already signed in.
 */
export async function adminStorage(browser: Browser, server: RunningServer): Promise<StorageState> {
  const { context } = await adminSession(browser, server);
  try {
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A fresh context that starts signed in with `storage`, on the dashboard. */
export async function signedInPage(
  browser: Browser,
  server: RunningServer,
  storage: StorageState,
  options: Omit<Parameters<typeof newConsolePage>[2], 'storageState'> = {},
  path = '/dashboard/analysis',
): Promise<{ context: BrowserContext; page: Page }> {
  const session = await newConsolePage(browser, server.url, { ...options, storageState: storage });
  await session.page.goto(path);
  return session;
}

/** A transient antd message (toast) with the given text. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

/** The computed value of a CSS property of the first element matched. */
export function computedStyle(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((el, prop) => getComputedStyle(el).getPropertyValue(prop), property);
}

/** Waits until the locator is visible (the assertion a user makes by looking). */
export async function seen(locator: Locator, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}

/**
 * Waits until a dialog, drawer or popup menu has finished opening. antd draws a dialog for two
 * frames at full size but transparent, then zooms it in from scale(0): Playwright counts those
 * first frames as visible and stable, and a click aimed then can land where the button is about to
 * leave, so the dialog stays open. A drawer's panel and a menu's popup slide or zoom in the same
 * way, and a hover aimed at an item while it moves can miss it. The motion classes sit on the
 * element or on an ancestor (a drawer's sliding panel wraps its dialog) and are removed when the
 * animation ends.
 */
export async function opened(overlay: Locator, timeout = 10_000): Promise<void> {
  await seen(overlay, timeout);
  await expect
    .poll(
      () =>
        overlay.first().evaluate((element) => {
          const moving = /ant-(zoom|slide)-|-motion-/;
          for (let node: Element | null = element; node; node = node.parentElement) {
            if (moving.test(node.getAttribute('class') ?? '')) return true;
          }
          return false;
        }),
      { timeout },
    )
    .toBe(false);
}

/** Waits until nothing the locator matches is visible. */
export async function gone(locator: Locator, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/** The path and query of the page's URL, e.g. `/user/login?redirect=%2Fsystem%2Flog`. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/**
 * Waits (up to `timeout`) for the page's path and query to become `expected`, then a moment more
 * so that a late second redirect would show, and returns where the page is: assert on the result.
 */
export async function settledPath(page: Page, expected: string, timeout = 10_000): Promise<string> {
  await page
    .waitForURL((url) => `${url.pathname}${url.search}` === expected, { timeout })
    .catch(() => undefined);
  await page.waitForTimeout(300);
  return pathOf(page);
}

/** The session token the console keeps in localStorage (`Access-Token`), or null. */
export async function storedToken(page: Page): Promise<string | null> {
  const raw = await page.evaluate(() => localStorage.getItem('Access-Token'));
  if (raw === null) return null;
  const entry = JSON.parse(raw) as { value?: unknown };
  return typeof entry.value === 'string' ? entry.value : null;
}
