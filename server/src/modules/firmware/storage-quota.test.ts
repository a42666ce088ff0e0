import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/db/ids.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { client, type Client } from '../../test/devices.js';

const KIB = 1024;
const MIB = 1024 * KIB;
/** Chunks of the uploads: small, so that two uploads interleave while they stream. */
const CHUNK = 16 * KIB;

/**
 * A multipart firmware upload whose file arrives in `chunks`; `pauseAt` (a chunk index) makes the
 * body wait for `gate` before that chunk, `onChunk` hears of every chunk handed out.
 */
function form(
  fields: Record<string, string>,
  chunks: Buffer[],
  hooks: { pauseAt?: number; gate?: Promise<void>; onChunk?: (index: number) => void } = {},
) {
  const boundary = `----blrms${newId()}`;
  const head = Buffer.from(
    `${Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join(
        '',
      )}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + tail.length + chunks.reduce((sum, c) => sum + c.length, 0);
  async function* body() {
    yield head;
    for (const [index, chunk] of chunks.entries()) {
      if (index === hooks.pauseAt) await hooks.gate;
      hooks.onChunk?.(index);
      yield chunk;
    }
    yield tail;
  }
  return {
    payload: Readable.from(body(), { objectMode: false, highWaterMark: CHUNK }),
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(length),
    },
  };
}

const chunksOf = (bytes: number) =>
  Array.from({ length: Math.ceil(bytes / CHUNK) }, (_, i) =>
    randomBytes(Math.min(CHUNK, bytes - i * CHUNK)),
  );

describe('per-company storage quota', () => {
  let t: TestContext;
  let dataDir: string;
  let admin: Client;
  let acme: Client;
  let acmeId: string;
  const firmwareDir = () => path.join(dataDir, 'files', 'firmware');
  /** Every name in the firmware folder, temporary ones included. */
  const storedFiles = () => (fs.existsSync(firmwareDir()) ? fs.readdirSync(firmwareDir()) : []);
  const rowsOf = async (companyId: string) =>
    (
      await t.db.selectFrom('firmware').select('id').where('company_id', '=', companyId).execute()
    ).map((r) => r.id);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-quota-'));
    t = await createTestApp({ env: { DATA_DIR: dataDir, COMPANY_STORAGE_QUOTA: '1MiB' } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    ({ companyId: acmeId } = await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acme-admin',
      password: 'Acme-Admin-Pass-1',
      // The company-edit code too: the service, not only the missing grant, must refuse.
      perms: ['firmware:list', 'firmware:upload', 'firmware:delete', 'system:company:edit'],
    }));
    acme = client(t, await t.login('acme-admin', 'Acme-Admin-Pass-1'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (
    as: Client,
    version: string,
    chunks: Buffer[],
    lang = 'en-US',
    hooks: Parameters<typeof form>[2] = {},
  ) => {
    const body = form({ series: 'R40', version }, chunks, hooks);
    return t.app.inject({
      method: 'POST',
      url: '/api/firmware/upload',
      headers: { ...as.headers, 'accept-language': lang, ...body.headers },
      payload: body.payload,
    });
  };

  const setQuota = (storageQuota: number | null) =>
    admin.put('/sys/company/edit', { id: acmeId, name: 'acme', storageQuota });

  let firstId: string;

  it('counts what the company stores against the default quota', async () => {
    expect(await acme.ok('GET', '/firmware/storage')).toEqual({ used: 0, limit: MIB });
    const res = await upload(acme, '1.0.0', chunksOf(700 * KIB));
    expect(res.statusCode, res.body).toBe(200);
    firstId = res.json().result.id;
    expect(await acme.ok('GET', '/firmware/storage')).toEqual({ used: 700 * KIB, limit: MIB });
  });

  it('refuses with 413 while streaming, in both languages, and keeps nothing', async () => {
    const before = storedFiles();
    // 330 KiB: the declared length leaves the check to the stream (324 KiB are left).
    const en = await upload(acme, '1.1.0', chunksOf(330 * KIB));
    expect(en.statusCode, en.body).toBe(413);
    expect(en.json().errors).toEqual([
      {
        field: 'file',
        message:
          "the company's storage quota is exceeded (700 KiB of 1 MiB used); the file was not stored",
      },
    ]);
    const zh = await upload(acme, '1.1.0', chunksOf(330 * KIB), 'zh-CN');
    expect(zh.statusCode).toBe(413);
    expect(zh.json().errors).toEqual([
      { field: 'file', message: '超出本公司的存储配额（已用 700 KiB，上限 1 MiB），文件未保存' },
    ]);
    expect(await rowsOf(acmeId)).toEqual([firstId]);
    expect(storedFiles()).toEqual(before);
    expect((await acme.ok('GET', '/firmware/storage')).used).toBe(700 * KIB);
  });

  it('refuses before reading the file when the declared length cannot fit', async () => {
    const before = storedFiles();
    const res = await upload(acme, '1.2.0', chunksOf(2 * MIB));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('700 KiB of 1 MiB used');
    expect(storedFiles()).toEqual(before);
    expect(await rowsOf(acmeId)).toEqual([firstId]);
  });

  it('leaves other companies unaffected', async () => {
    const res = await upload(admin, '9.0.0', chunksOf(900 * KIB));
    expect(res.statusCode, res.body).toBe(200);
    expect(await admin.ok('GET', '/firmware/storage')).toEqual({ used: 900 * KIB, limit: MIB });
    expect((await acme.ok('GET', '/firmware/storage')).used).toBe(700 * KIB);
  });

  it('lets the platform administrator raise, lift and reset a company quota', async () => {
    const raised = await setQuota(2 * MIB);
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json().result).toMatchObject({ storageQuota: 2 * MIB, storageUsed: 700 * KIB });
    const list = await admin.ok('GET', '/sys/company/list?name=acme');
    expect(list.records[0]).toMatchObject({ storageQuota: 2 * MIB, storageUsed: 700 * KIB });
    expect(await acme.ok('GET', '/firmware/storage')).toEqual({ used: 700 * KIB, limit: 2 * MIB });
    const res = await upload(acme, '1.1.0', chunksOf(330 * KIB));
    expect(res.statusCode, res.body).toBe(200);

    expect((await setQuota(0)).statusCode).toBe(200);
    expect(await acme.ok('GET', '/firmware/storage')).toEqual({ used: 1030 * KIB, limit: null });
    // A rename alone leaves the quota as it is.
    const renamed = await admin.put('/sys/company/edit', { id: acmeId, name: 'acme' });
    expect(renamed.json().result.storageQuota).toBe(0);

    expect((await setQuota(null)).json().result.storageQuota).toBeNull();
    expect((await acme.ok('GET', '/firmware/storage')).limit).toBe(MIB);
    await acme.ok('DELETE', `/firmware/delete?id=${res.json().result.id}`);
  });

  it('names the field and the rule of a bad quota', async () => {
    const res = await setQuota(-1);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'storageQuota', message: expect.stringContaining('at least 0') },
    ]);
  });

  it('does not let a company administrator change its own quota', async () => {
    const res = await acme.put('/sys/company/edit', {
      id: acmeId,
      name: 'acme',
      storageQuota: 100 * MIB,
    });
    expect(res.statusCode).toBe(403);
    expect((await acme.ok('GET', '/firmware/storage')).limit).toBe(MIB);
  });

  it('frees the quota when a firmware is deleted', async () => {
    expect((await upload(acme, '1.1.0', chunksOf(330 * KIB))).statusCode).toBe(413);
    await acme.ok('DELETE', `/firmware/delete?id=${firstId}`);
    expect(await acme.ok('GET', '/firmware/storage')).toEqual({ used: 0, limit: MIB });
    const res = await upload(acme, '1.1.0', chunksOf(330 * KIB));
    expect(res.statusCode, res.body).toBe(200);
    await acme.ok('DELETE', `/firmware/delete?id=${res.json().result.id}`);
  });

  it('refuses one of two concurrent uploads that fit alone but not together', async () => {
    expect(await rowsOf(acmeId)).toEqual([]);
    const before = storedFiles();
    // Each is 640 KiB of a 1 MiB quota. The first stops half-way until the second is streaming
    // well past what the transport buffers, so both are in flight at once.
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const [first, second] = await Promise.all([
      upload(acme, '2.0.0', chunksOf(640 * KIB), 'en-US', { pauseAt: 20, gate }),
      upload(acme, '2.1.0', chunksOf(640 * KIB), 'en-US', {
        onChunk: (index) => {
          if (index === 30) open();
        },
      }),
    ]);
    open();
    const codes = [first.statusCode, second.statusCode].sort();
    expect(codes, `${first.body} ${second.body}`).toEqual([200, 413]);
    expect(await rowsOf(acmeId)).toHaveLength(1);
    expect(storedFiles()).toHaveLength(before.length + 1);
    expect((await acme.ok('GET', '/firmware/storage')).used).toBe(640 * KIB);
  });
});
