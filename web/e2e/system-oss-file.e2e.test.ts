/**
 * 文件管理 (issue 18): a platform administrator uploads an image and watches the progress bar,
 * sees it listed with its size, type and sha256 and the storage line follow, previews it, finds
 * an HTML file refused for preview (the button is off, the server says 415), deletes it after
 * confirming, and reads the page in English at phone width.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSession } from './support/api.js';
import { adminStorage, gone, opened, seen, toast } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();

/** A 1×1 red PNG; the bytes after its end chunk make the upload large enough to watch. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE = Buffer.concat([PIXEL, randomBytes(1536 * 1024)]);

async function chooseFile(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.getByTestId('oss-upload').click();
  const modal = page.getByTestId('oss-upload-modal');
  // The test id sits on the modal's root, which has no size: wait for the dialog inside it.
  await opened(modal.locator('.ant-modal'));
  await modal.locator('input[type=file]').setInputFiles({ name, mimeType, buffer });
  return modal;
}

function row(page: Page, name: string) {
  return page.getByTestId('oss-file-table').locator('tr').filter({ hasText: name });
}

describe('file storage in the console', () => {
  it('uploads with progress, lists, previews, refuses an HTML preview and deletes', async () => {
    const storage = await adminStorage(harness.browser, harness.server);
    const session = apiSession(storage, harness.server);
    const page = harness.track(
      await pageIn(harness.browser, harness.server, 'zh-CN', { storageState: storage }),
    );
    await page.goto('/system/oss-file');
    const usage = page.getByTestId('oss-storage');
    await seen(usage, 20_000);
    expect(await usage.textContent()).toMatch(/^存储：已用 .+，共 2 GB（含固件）$/);
    const usedBefore = await usage.textContent();

    // Slow the line so that the bar is seen moving: 1.5 MB at 512 KB/s.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    const modal = await chooseFile(page, '现场照片.png', 'text/html', IMAGE);
    await modal.getByTestId('oss-upload-submit').click();
    const progress = modal.getByTestId('oss-upload-progress');
    await seen(progress);
    await expect.poll(() => progress.textContent()).toMatch(/正在上传 ([1-9]\d?)%/);
    await seen(toast(page, '文件 现场照片.png 上传成功'), 20_000);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    const image = row(page, '现场照片.png');
    await seen(image);
    // The type comes from the bytes, not from the type the browser declared.
    expect(await image.textContent()).toContain('image/png');
    expect(await image.textContent()).toContain('1.5 MB');
    await expect.poll(() => usage.textContent()).not.toBe(usedBefore);

    await image.getByTestId('oss-file-preview').click();
    const preview = page.getByTestId('oss-preview-image');
    await seen(preview);
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await page.getByTestId('oss-preview-modal').locator('.ant-modal-close').click();
    await gone(preview);

    const html = await chooseFile(
      page,
      'page.html',
      'text/plain',
      Buffer.from('<script>1</script>'),
    );
    await html.getByTestId('oss-upload-submit').click();
    const htmlRow = row(page, 'page.html');
    await seen(htmlRow);
    expect(await htmlRow.textContent()).toContain('text/html');
    expect(await htmlRow.getByTestId('oss-file-preview').isDisabled()).toBe(true);
    // The server refuses a preview link for it too.
    const id = await page.evaluate(async (token) => {
      const res = await fetch('/api/sys/oss/file/list?name=page.html', {
        headers: { 'X-Access-Token': token },
      });
      const body = (await res.json()) as { result: { records: { id: string }[] } };
      return body.result.records[0]?.id ?? '';
    }, session.token);
    const refused = await fetch(
      new URL(`/api/sys/oss/file/url?id=${id}&mode=preview`, harness.server.url),
      { headers: { 'X-Access-Token': session.token, 'Accept-Language': 'zh-CN' } },
    );
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { message: string }).message).toBe(
      '该类型（text/html）的文件不能预览，请下载后查看',
    );

    await htmlRow.getByTestId('oss-file-delete').click();
    const confirm = page.locator('.ant-popover').filter({ hasText: '删除文件“page.html”？' });
    await seen(confirm);
    await confirm.getByRole('button', { name: /确\s*定|OK/ }).click();
    await gone(htmlRow);
    await seen(toast(page, '删除成功'));
  });

  it('reads in English at phone width, shows the per-file limit and previews text', async () => {
    const storage = await adminStorage(harness.browser, harness.server);
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'en-US',
        { storageState: storage, width: 390, height: 844 },
        '/system/oss-file',
      ),
    );
    const usage = page.getByTestId('oss-storage');
    await seen(usage);
    expect(await usage.textContent()).toMatch(/^Storage: .+ of 2 GB \(firmware included\)$/);
    await seen(page.getByRole('columnheader', { name: 'Uploaded by' }));
    // The page itself does not scroll sideways: only the table does.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);

    const modal = await chooseFile(page, 'notes.txt', 'text/plain', Buffer.from('hello'));
    await seen(modal.getByText('Up to 100 MB per file'));
    await modal.getByTestId('oss-upload-submit').click();
    await seen(toast(page, 'File notes.txt uploaded'));
    const notes = row(page, 'notes.txt');
    await seen(notes);
    await notes.getByTestId('oss-file-preview').click();
    await expect.poll(() => page.getByTestId('oss-preview-text').textContent()).toBe('hello');
  });
});
