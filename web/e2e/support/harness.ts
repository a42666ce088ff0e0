import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startServer, type RunningServer } from './server.js';

export interface ConsoleHarness {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Remembers a test's browser context, closed when the test ends, and hands back its page. */
  track(session: { context: BrowserContext; page: Page }): Page;
}

/**
 * One built server and one Chromium per test file, started before its tests and stopped after
 * them; each test works in a context of its own, so no test sees another's storage.
 */
export function useConsoleHarness(): ConsoleHarness {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    // Settled, not Promise.all: when one of the two fails to start, the other is still kept so
    // that afterAll stops it instead of leaving a server or a browser running.
    const [serverStart, browserLaunch] = await Promise.allSettled([startServer(), launchBrowser()]);
    if (serverStart.status === 'fulfilled') server = serverStart.value;
    if (browserLaunch.status === 'fulfilled') browser = browserLaunch.value;
    if (serverStart.status === 'rejected') throw serverStart.reason;
    if (browserLaunch.status === 'rejected') throw browserLaunch.reason;
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the harness starts in beforeAll: use it in tests');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    track(session) {
      context = session.context;
      return session.page;
    },
  };
}
