/**
 * The login lockout as an administrator sees it (issue 14): a user locked out by failed logins
 * shows a "login locked" tag whose tooltip names the address, the failure count and the end of
 * the lock; "Lift login lock" in the row's More menu clears it and the user logs in again.
 */
import { describe, expect, it } from 'vitest';
import { adminSession, gone, seen, toast } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { addUser } from './support/users.js';

const PASSWORD = 'Lockout-E2e-Pass1';
const h = useConsoleHarness();

const login = (password: string) =>
  fetch(`${h.server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'lockme', password }),
  });

describe('login lockout in the user list', () => {
  it('shows why a user is locked and lifts the lock', async () => {
    await addUser(h.server, {
      username: 'lockme',
      password: PASSWORD,
      role: 'operator',
      orgCodes: ['A01A01'],
    });
    for (let i = 0; i < 5; i++) expect((await login('wrong-password')).status).toBe(400);
    expect((await login(PASSWORD)).status).toBe(429);

    const page = h.track(await adminSession(h.browser, h.server));
    await page.goto('/account/user');
    const row = page.locator('tr').filter({ hasText: 'lockme' });
    const tag = row.getByTestId('user-login-locked');
    await seen(tag);
    await tag.hover();
    await seen(
      page.locator('.ant-tooltip').filter({ hasText: /(127\.0\.0\.1|::1)：失败 5 次，锁定至/ }),
    );

    await row.getByTestId('user-more').click();
    await page.getByRole('menuitem', { name: '解除登录锁定' }).click();
    await seen(toast(page, '已解除登录锁定'));
    await gone(tag);
    expect((await login(PASSWORD)).status).toBe(200);
  }, 120_000);
});
