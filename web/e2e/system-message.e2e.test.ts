/**
 * 消息中心 (issue 18): a platform administrator adds an email template (a variable without test
 * data is refused under its field), previews it, sends a test to an address and finds it sent in
 * the history; adds a webhook to a receiver in this process (secret shown once), tests it and the
 * receiver verifies the signature; then the pages in English at phone width.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageState } from './support/browser.js';
import { adminStorage, opened, seen, toast } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();
let storage: StorageState;
const received: { verified: boolean; event: string }[] = [];
let secret = '';
let receiver: http.Server;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const timestamp = String(req.headers['x-blrms-timestamp']);
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
      received.push({
        verified: req.headers['x-blrms-signature'] === expected,
        event: String(req.headers['x-blrms-event']),
      });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});

afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe('message center', () => {
  it('adds, previews and tests a template, shows the history, and signs webhooks', async () => {
    const { context, page } = await pageIn(
      harness.browser,
      harness.server,
      'zh-CN',
      { storageState: storage },
      '/system/message/template',
    );
    harness.track({ context, page });
    await seen(page.getByTestId('message-template-page'));
    await seen(page.getByText('alarm_cleared', { exact: true }).first());

    await page.getByTestId('template-add').click();
    const dialog = page.getByRole('dialog');
    await opened(dialog);
    await page.getByTestId('template-code').fill('door_open');
    await page.getByTestId('template-name').fill('门磁告警');
    await page.getByTestId('template-channel').click();
    await page.getByTitle('邮件').click();
    await page.getByTestId('template-subject').fill('门 {{door}} 打开');
    await page.getByTestId('template-subject-en').fill('Door {{door}} opened');
    await page.getByTestId('template-content').fill('{{door}} 于 {{time}} 打开');
    await page.getByTestId('template-content-en').fill('{{door}} opened at {{time}}');
    await page.getByTestId('template-test-data').fill('{"door": "D1"}');
    await page.getByTestId('template-save').click();
    await seen(dialog.getByText('模板使用的变量没有测试数据：time'));

    await page.getByTestId('template-test-data').fill('{"door": "D1", "time": "10:00"}');
    await page.getByTestId('template-preview').click();
    await seen(page.getByTestId('template-preview-result').getByText('门 D1 打开'));
    await seen(page.getByTestId('template-preview-result').getByText('D1 opened at 10:00'));
    await page.getByTestId('template-save').click();
    await seen(toast(page, '保存成功'));

    // The built-in templates fill the first page (sorted by code): find the new one by its code.
    const templatePage = page.getByTestId('message-template-page');
    await templatePage.getByLabel('模板编码').fill('door_open');
    await templatePage.getByRole('button', { name: /查\s*询/ }).click();
    await page.getByTestId('template-test-door_open-email').click();
    await opened(page.getByRole('dialog'));
    await page.getByText('指定地址').click();
    await page.getByTestId('send-test-address').fill('door@example.com');
    await page.getByTestId('send-test-submit').click();
    await seen(toast(page, /已加入发送队列/));

    await page.goto('/system/message/history');
    await seen(page.getByTestId('message-page'));
    const row = page.locator('tr.ant-table-row').filter({ hasText: 'door@example.com' });
    await seen(row.getByText('已发送'));
    await row.getByText('详情').click();
    await seen(page.getByTestId('message-detail').getByText('门 D1 打开'));
    await page.keyboard.press('Escape');

    await page.goto('/system/message/webhook');
    await seen(page.getByTestId('message-webhook-page'));
    await page.getByTestId('webhook-network').click();
    await seen(toast(page, '保存成功'));
    await page.getByTestId('webhook-add').click();
    await opened(page.getByRole('dialog'));
    await page.getByTestId('webhook-name').fill('ops');
    await page
      .getByTestId('webhook-url')
      .fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    await page.getByTestId('webhook-save').click();
    const secretBox = page.getByTestId('webhook-secret');
    await seen(secretBox);
    secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-secret-close').click();
    await expect.poll(() => page.content()).not.toContain(secret);

    await page.getByTestId('webhook-test-ops').click();
    await seen(toast(page, '测试消息已发送'));
    expect(received).toEqual([{ verified: true, event: 'webhook_test' }]);
  });

  it('reads in English at phone width', async () => {
    const { context, page } = await pageIn(
      harness.browser,
      harness.server,
      'en-US',
      { width: 390, height: 844, storageState: storage },
      '/system/message/template',
    );
    harness.track({ context, page });
    await seen(page.getByText('Template code').first());
    await seen(page.getByText('Built-in').first());
    await page.goto('/system/message/history');
    await seen(
      page.locator('tr.ant-table-row').filter({ hasText: 'door@example.com' }).getByText('Sent'),
    );
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});
