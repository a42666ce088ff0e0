import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the background services that would call out to the internet turned off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newConsolePage(
  browser: Browser,
  baseURL: string,
  options: {
    locale?: string;
    width?: number;
    height?: number;
    /** Cookies and localStorage to start with, e.g. a saved login (`context.storageState()`). */
    storageState?: StorageState;
    /**
     * The system's "reduce motion" setting, on unless asked otherwise: the console then opens
     * dialogs, drawers and menus without zooming or sliding them in, and a click that follows
     * their opening cannot land where a button is about to move to (antd keeps a dialog at scale(0)
     * for its first frames, which Playwright already counts as visible and stable).
     */
    reducedMotion?: 'reduce' | 'no-preference';
  } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    locale: options.locale ?? 'zh-CN',
    viewport: { width: options.width ?? 1366, height: options.height ?? 860 },
    storageState: options.storageState,
    reducedMotion: options.reducedMotion ?? 'reduce',
  });
  const page = await context.newPage();
  return { context, page };
}
