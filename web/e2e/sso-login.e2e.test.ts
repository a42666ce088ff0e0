/**
 * Single sign-on in the browser, in both languages: the login page's buttons take the user to a
 * real OpenID provider (its login and consent pages) or to a CAS server and back into the console
 * as the mapped user; a CAS user unknown to BLRMS comes back to the login page with the reason.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startCasServer,
  startOidcProvider,
  type CasServer,
  type RunningProvider,
} from '../../server/src/test/sso-providers.js';
import { launchBrowser } from './support/browser.js';
import { seen, storedToken } from './support/console.js';
import { pageIn } from './support/language.js';
import { freePort, startServer, type RunningServer } from './support/server.js';
import { addUser } from './support/users.js';

let server: RunningServer;
let browser: Browser;
let cas: CasServer;
let op: RunningProvider;

beforeAll(async () => {
  const opPort = await freePort();
  cas = await startCasServer();
  [server, browser] = await Promise.all([
    startServer({
      CAS_SERVER_URL: cas.url,
      CAS_COMPANY: 'platform',
      CAS_LABEL: 'Acme CAS',
      OIDC_ISSUER: `http://127.0.0.1:${opPort}`,
      OIDC_CLIENT_ID: 'blrms-console',
      OIDC_COMPANY: 'platform',
      OIDC_LABEL: 'Acme ID',
    }),
    launchBrowser(),
  ]);
  op = await startOidcProvider(
    [{ clientId: 'blrms-console', redirectUris: [`${server.url}/user/sso/oidc`] }],
    opPort,
  );
  await addUser(server, {
    username: 'ssouser',
    password: 'Sso-User-2026',
    role: 'operator',
    orgCodes: ['A01A02'],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await op?.stop();
  await cas?.stop();
});

async function signedInAs(page: Page, username: string) {
  await page.waitForURL('**/dashboard/analysis');
  expect(await storedToken(page)).toMatch(/^[\w-]{43}$/);
  const userInfo = await page.evaluate(() => localStorage.getItem('Login_Userinfo'));
  expect(userInfo).toContain(`"username":"${username}"`);
}

const LANGUAGES = [
  {
    lang: 'zh-CN',
    oidc: '使用 Acme ID 登录',
    cas: '使用 Acme CAS 登录',
    unknown: '账号 nobody 不能通过单点登录进入本平台，请联系管理员',
  },
  {
    lang: 'en-US',
    oidc: 'Log in with Acme ID',
    cas: 'Log in with Acme CAS',
    unknown:
      'The account nobody cannot sign in here through single sign-on; ask your administrator',
  },
];

describe.each(LANGUAGES)('single sign-on in $lang', (words) => {
  it('logs in through the OpenID provider (login and consent pages) as the mapped user', async () => {
    const { context, page } = await pageIn(browser, server, words.lang, {}, '/user/login');
    try {
      await page.getByRole('button', { name: words.oidc }).click();
      await page.waitForURL(`${op.url}/interaction/**`);
      await page.locator('input[name="login"]').fill('ssouser');
      await page.locator('input[name="password"]').fill('whatever');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await signedInAs(page, 'ssouser');
    } finally {
      await context.close();
    }
  });

  it('logs in through the CAS server as the mapped user', async () => {
    const { context, page } = await pageIn(browser, server, words.lang, {}, '/user/login');
    try {
      await page.getByRole('link', { name: words.cas }).click();
      await signedInAs(page, 'ssouser');
    } finally {
      await context.close();
    }
  });

  it('brings a CAS user BLRMS does not know back to the login page with the reason', async () => {
    const { context, page } = await pageIn(browser, server, words.lang, {}, '/user/login');
    try {
      const service = encodeURIComponent(`${server.url}/user/sso/cas`);
      await page.goto(`${cas.url}/login?user=nobody&service=${service}`);
      await page.waitForURL('**/user/login');
      await seen(page.getByTestId('login-error').getByText(words.unknown));
      expect(await storedToken(page)).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe('the password login', () => {
  it('stays on the login page beside the single sign-on buttons', async () => {
    const { context, page } = await pageIn(browser, server, 'en-US', {}, '/user/login');
    try {
      await seen(page.getByTestId('sso-buttons'));
      await seen(page.getByTestId('login-username'));
      await seen(page.getByTestId('login-submit'));
    } finally {
      await context.close();
    }
  });
});
