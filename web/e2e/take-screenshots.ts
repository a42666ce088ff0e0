/**
 * Screenshots of the built console for the README, in Chinese and English:
 *
 *   npm run build && npx tsx --conditions=source web/e2e/take-screenshots.ts
 *
 * writes docs/screenshots/{login,dashboard,logs,settings}-{zh,en}.png (1366×860) and
 * dashboard-mobile-zh.png (375×812). A file over the size budget is written as JPEG instead.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newConsolePage } from './support/browser.js';
import { chooseDepartAfterLogin, gone, seen, submitLogin } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

const OUT = resolve(fileURLToPath(import.meta.url), '../../../docs/screenshots');
// Under the README budget of 300 KB with room for small changes in the page.
const MAX_BYTES = 280 * 1024;
const DESKTOP = { width: 1366, height: 860 };
const MOBILE = { width: 375, height: 812 };

type Lang = 'zh' | 'en';
const LOCALE: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US' };

/** Saves a PNG, or a quality-80 JPEG when the PNG is over the budget; returns the file name. */
async function save(page: Page, name: string): Promise<string> {
  const png = await page.screenshot({ type: 'png' });
  rmSync(join(OUT, `${name}.png`), { force: true });
  rmSync(join(OUT, `${name}.jpg`), { force: true });
  if (png.length <= MAX_BYTES) {
    writeFileSync(join(OUT, `${name}.png`), png);
    return `${name}.png`;
  }
  writeFileSync(join(OUT, `${name}.jpg`), await page.screenshot({ type: 'jpeg', quality: 80 }));
  return `${name}.jpg`;
}

/**
 * Lets transient notices fade, moves the pointer out of the way and shows the top of the page
 * (closing the department dialog after login sometimes leaves the dashboard scrolled down).
 */
async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, DESKTOP.height - 1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await gone(page.locator('.ant-message-notice'), 8000).catch(() => undefined);
  await page.waitForTimeout(400);
}

async function shoot(browser: Browser, server: RunningServer, lang: Lang): Promise<string[]> {
  const saved: string[] = [];
  const { context, page } = await newConsolePage(browser, server.url, {
    locale: LOCALE[lang],
    ...DESKTOP,
  });
  try {
    await page.addInitScript((language) => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', language);
    }, LOCALE[lang]);
    await page.goto('/user/login');
    await seen(page.getByTestId('login-submit'));
    await settle(page);
    saved.push(await save(page, `login-${lang}`));

    await submitLogin(page, 'admin', server.adminPassword);
    await page.waitForURL('**/dashboard/analysis');
    await chooseDepartAfterLogin(page, lang === 'zh' ? '研发部' : 'R&D');
    await seen(page.getByTestId('visit-chart').locator('svg'));
    await seen(page.getByTestId('last-logins').locator('.ant-table-row'));
    await settle(page);
    saved.push(await save(page, `dashboard-${lang}`));

    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-settings').click();
    await seen(page.getByTestId('settings-drawer'));
    await settle(page);
    saved.push(await save(page, `settings-${lang}`));
    await page.keyboard.press('Escape');
    await gone(page.getByTestId('settings-drawer'));

    await page.goto('/system/log');
    await seen(page.getByTestId('log-page').locator('.ant-table-row'));
    await settle(page);
    saved.push(await save(page, `logs-${lang}`));
  } finally {
    await context.close();
  }
  return saved;
}

async function shootMobile(browser: Browser, server: RunningServer): Promise<string> {
  const { context, page } = await newConsolePage(browser, server.url, MOBILE);
  try {
    await page.goto('/user/login');
    await submitLogin(page, 'admin', server.adminPassword);
    await page.waitForURL('**/dashboard/analysis');
    await chooseDepartAfterLogin(page);
    await seen(page.getByTestId('visit-chart').locator('svg'));
    await settle(page);
    return await save(page, 'dashboard-mobile-zh');
  } finally {
    await context.close();
  }
}

mkdirSync(OUT, { recursive: true });
const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
try {
  const files = [
    ...(await shoot(browser, server, 'zh')),
    ...(await shoot(browser, server, 'en')),
    await shootMobile(browser, server),
  ];
  for (const file of files) {
    const kb = statSync(join(OUT, file)).size / 1024;
    console.log(`docs/screenshots/${file}  ${kb.toFixed(0)} KB`);
  }
} finally {
  await browser.close();
  await server.stop();
}
