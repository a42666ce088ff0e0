/**
 * The user list imports a sheet through the server's one upload form (multipart part `file`),
 * XLSX and CSV, and shows what was created; an exported cell that would run as a formula comes
 * back as the same text.
 */
import ExcelJS from 'exceljs';
import { describe, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import { gone, loginAsAdmin, seen, sideMenu } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();

async function xlsx(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('users');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('user import from the console', () => {
  it('imports an XLSX and a CSV from the user list', async () => {
    const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await loginAsAdmin(page, harness.server);
    await sideMenu(page).getByText('账户权限', { exact: true }).click();
    await sideMenu(page).getByText('登录账户', { exact: true }).click();
    await seen(page.getByTestId('user-page'));

    const input = page.locator('input[type=file][accept=".xlsx,.csv"]');
    await input.setInputFiles({
      name: 'users.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await xlsx([
        ['用户账号', '用户姓名'],
        ['xlsxuser', "'=1+2"],
      ]),
    });
    // Each result is a dialog of its own, gone before the next file: the second wait must not find
    // the first dialog.
    const done = page.locator('.ant-modal-confirm').filter({ hasText: '导入完成：新增 1 个用户' });
    await seen(done);
    await done.getByRole('button').click();
    await gone(done);

    await input.setInputFiles({
      name: 'users.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('\uFEFFusername,realname\r\ncsvuser,CSV 用户\r\n'),
    });
    await seen(done);
    await done.getByRole('button').click();
    await gone(done);

    await page.getByTestId('user-page').getByLabel('reload').click();
    const table = page.getByTestId('user-page');
    await seen(table.getByRole('cell', { name: 'xlsxuser' }));
    // The marker the export writes is taken off: the name is the formula-looking text itself.
    await seen(table.getByRole('cell', { name: '=1+2', exact: true }));
    await seen(table.getByRole('cell', { name: 'CSV 用户' }));
  });
});
