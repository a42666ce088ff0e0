/**
 * Browser security headers (issue 14 item 6): the console, its assets and the API carry a strict
 * Content-Security-Policy and the frame, sniffing and referrer headers, and the console still works
 * under them with no CSP violation: sign in, the device list, an announcement with rich HTML, a
 * chart page, the API documentation.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsAdmin, seen } from './support/console.js';
import { newConsolePage } from './support/browser.js';
import { useConsoleHarness } from './support/harness.js';

const h = useConsoleHarness();

/** Collects CSP violations reported in the page and console errors that mention the policy. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (t: string) => void })
        .reportCspViolation;
      report(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

function expectSecurityHeaders(headers: Headers | Record<string, string>): void {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : (headers[name] ?? null);
  const csp = get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self';");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("style-src 'self' 'unsafe-inline'");
  expect(csp).toContain("img-src 'self' data: blob:");
  expect(csp).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\d+ wss:\/\/127\.0\.0\.1:\d+/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toContain("form-action 'self'");
  expect(get('x-frame-options')).toBe('DENY');
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  // Not configured: no HSTS on a plain HTTP deployment.
  expect(get('strict-transport-security')).toBeNull();
}

describe('browser security headers', () => {
  it('sends them on the console page, an asset and an API response', async () => {
    const root = await fetch(`${h.server.url}/`);
    expectSecurityHeaders(root.headers);
    const html = await root.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${h.server.url}${asset}`);
    expect(script.status).toBe(200);
    expectSecurityHeaders(script.headers);
    const api = await fetch(`${h.server.url}/api/health`);
    expect(api.status).toBe(200);
    expectSecurityHeaders(api.headers);
    const denied = await fetch(`${h.server.url}/api/sys/user/list`);
    expect(denied.status).toBe(401);
    expectSecurityHeaders(denied.headers);
  });

  it('keeps the console working under the policy with no violation', async () => {
    const { page } = await newConsolePage(h.browser, h.server.url);
    h.track({ context: page.context(), page });
    const violations = await watchViolations(page);

    await loginAsAdmin(page, h.server);
    // The dashboard is the chart page: ECharts draws its charts as SVG.
    await seen(page.getByTestId('visit-chart').locator('svg').first());

    await page.goto('/device/list');
    await seen(page.locator('.ant-pro-table').first());

    await page.goto('/system/announcement');
    const list = page.getByTestId('announcement-page');
    await list.getByTestId('announcement-add').click();
    const form = page.getByTestId('announcement-form');
    await form.getByTestId('announcement-title').fill('CSP check');
    const editor = form.getByTestId('announcement-editor');
    await editor.click();
    await page.keyboard.type('Bold line');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+B');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second paragraph');
    await expect.poll(() => editor.innerHTML()).toMatch(/<b>|<strong>/);
    await form.getByRole('button', { name: '确 定', exact: true }).click();
    await seen(list.getByTestId('announcement-row-title').getByText('CSP check'));

    // The Swagger UI page still works: its scripts are files of this origin.
    await page.goto('/api/docs');
    await seen(page.locator('.swagger-ui .info .title'), 15_000);

    expect(violations).toEqual([]);
  });
});
