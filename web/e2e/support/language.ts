import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newConsolePage, type StorageState } from './browser.js';
import type { RunningServer } from './server.js';

/**
 * A fresh context whose console starts in `language` (the console keeps the choice in
 * localStorage, not in the browser's locale), optionally signed in, on `path`.
 */
export async function pageIn(
  browser: Browser,
  server: RunningServer,
  language: string,
  options: { width?: number; height?: number; storageState?: StorageState } = {},
  path?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const session = await newConsolePage(browser, server.url, { ...options, locale: language });
  await session.context.addInitScript((lang) => localStorage.setItem('language', lang), language);
  if (path) await session.page.goto(path);
  return session;
}
