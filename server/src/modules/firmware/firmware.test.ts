import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { FIRMWARE_MAX_BYTES_DEFAULT } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionService } from '../../platform/auth/permissions.js';
import { newId } from '../../platform/db/ids.js';
import { FileStore } from '../../platform/files/file-store.js';
import { StorageReservations } from '../../platform/files/storage-quota.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { client, type Client } from '../../test/devices.js';
import { FirmwareRepository } from './firmware.repository.js';
import { FirmwareService } from './firmware.service.js';

const MIB = 1024 * 1024;
const PUBLIC_URL = 'https://rms.example.com';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A multipart body produced chunk by chunk: the fields, then `size` bytes of file from `chunk`
 * repeated, so a large upload never exists as one buffer on the sending side either.
 */
function streamedForm(fields: Record<string, string>, file: { name: string; chunks: Buffer[] }) {
  const boundary = `----blrms${newId()}`;
  const head = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const parts = [
    Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    ...file.chunks,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return {
    payload: Readable.from(parts),
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(parts.reduce((sum, p) => sum + p.length, 0)),
    },
  };
}

describe('firmware library', () => {
  let t: TestContext;
  let dataDir: string;
  let admin: Client;
  let other: Client;
  const firmwareDir = () => path.join(dataDir, 'files', 'firmware');

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-firmware-'));
    t = await createTestApp({
      env: { DATA_DIR: dataDir, PUBLIC_URL },
      // The campaigns this suite writes by hand have no devices: the rollout engine's tick would
      // end them under the test.
      app: { campaigns: { tickMs: 60 * 60_000 } },
    });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acme-admin',
      password: 'Acme-Admin-Pass-1',
      perms: [
        'firmware:list',
        'firmware:upload',
        'firmware:edit',
        'firmware:delete',
        'firmware:settings',
      ],
    });
    other = client(t, await t.login('acme-admin', 'Acme-Admin-Pass-1'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (
    as: Client,
    fields: Record<string, string>,
    content: Buffer | Buffer[],
    lang = 'en-US',
  ) => {
    const form = streamedForm(fields, {
      name: 'r40-fw.bin',
      chunks: Array.isArray(content) ? content : [content],
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/firmware/upload',
      headers: { ...as.headers, 'accept-language': lang, ...form.headers },
      payload: form.payload,
    });
  };

  /** A request to a download link, without any session. */
  const fetchUrl = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
    t.app.inject({
      method: method as 'GET' | 'HEAD',
      url: url.slice(PUBLIC_URL.length),
      headers: { 'accept-language': 'en-US', ...headers },
    });

  const storedFiles = () => (fs.existsSync(firmwareDir()) ? fs.readdirSync(firmwareDir()) : []);

  describe('upload', () => {
    it('streams a multi-megabyte file to storage with its size and sha256', async () => {
      // 12 MiB in 64 KiB chunks, none of them the same.
      const chunks = Array.from({ length: 192 }, () => randomBytes(64 * 1024));
      const whole = Buffer.concat(chunks);
      const res = await upload(
        admin,
        { series: 'R40', version: '2.2.0', releaseNotes: 'Faster boot' },
        chunks,
      );
      expect(res.statusCode, res.body).toBe(200);
      const firmware = res.json().result;
      expect(firmware).toMatchObject({
        series: 'R40',
        version: '2.2.0',
        fileName: 'r40-fw.bin',
        size: 12 * MIB,
        sha256: sha256(whole),
        releaseNotes: 'Faster boot',
        createBy: 'admin',
        inUse: false,
      });
      expect(res.json().message).toBe('Firmware uploaded');
      const onDisk = fs.readFileSync(path.join(firmwareDir(), firmware.id));
      expect(onDisk.equals(whole)).toBe(true);

      const page = await admin.ok('GET', '/firmware/list?series=R40&version=2.2');
      expect(page.records.map((f: { id: string }) => f.id)).toEqual([firmware.id]);
      expect(await admin.ok('GET', `/firmware/queryById?id=${firmware.id}`)).toEqual(firmware);
    });

    it('names the field and the rule of bad form fields, in both languages', async () => {
      const file = randomBytes(1000);
      const badSeries = await upload(admin, { series: 'X9', version: '1.0.0' }, file);
      expect(badSeries.statusCode).toBe(400);
      expect(fieldText(badSeries.json())).toBe('series: must be one of: R40, BL10X, S27X');

      const badVersion = await upload(admin, { series: 'R40', version: 'v1' }, file);
      expect(badVersion.statusCode).toBe(400);
      expect(fieldText(badVersion.json())).toBe(
        'version: must be dotted numbers such as 1.2.3, optionally -suffix',
      );
      const zh = await upload(admin, { series: 'R40', version: 'v1' }, file, 'zh-CN');
      expect(fieldText(zh.json())).toBe('version: 必须是以点分隔的数字，如 1.2.3，可带 -后缀');

      const missing = await upload(admin, { version: '1.0.0' }, file);
      expect(fieldText(missing.json())).toBe('series: must be one of: R40, BL10X, S27X');
      const unknown = await upload(admin, { series: 'R40', version: '1.0.0', x: '1' }, file);
      expect(unknown.json().message).toBe('x is not an allowed field');

      const empty = await upload(admin, { series: 'R40', version: '1.0.0' }, Buffer.alloc(0));
      expect(empty.statusCode).toBe(400);
      expect(fieldText(empty.json())).toBe('file: must not be empty');

      const noFile = await t.app.inject({
        method: 'POST',
        url: '/api/firmware/upload',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: { series: 'R40', version: '1.0.0' },
      });
      expect(noFile.statusCode).toBe(400);
      expect(fieldText(noFile.json())).toMatch(/^file: /);

      const list = await admin.ok('GET', '/firmware/list?version=1.0.0');
      expect(list.total).toBe(0);
      expect(storedFiles().filter((f) => f.startsWith('.'))).toEqual([]);
    });

    it('refuses a version the series already has in the company, not in another company', async () => {
      const first = await upload(admin, { series: 'BL10X', version: '1.4.0' }, randomBytes(2000));
      expect(first.statusCode).toBe(200);
      const files = storedFiles().length;
      const again = await upload(admin, { series: 'BL10X', version: '1.4.0' }, randomBytes(2000));
      expect(again.statusCode).toBe(409);
      expect(fieldText(again.json())).toBe('version: BL10X firmware 1.4.0 already exists');
      expect(storedFiles().length).toBe(files);
      // Another series, or another company, may have the same version.
      expect(
        (await upload(admin, { series: 'S27X', version: '1.4.0' }, randomBytes(10))).statusCode,
      ).toBe(200);
      expect(
        (await upload(other, { series: 'BL10X', version: '1.4.0' }, randomBytes(10))).statusCode,
      ).toBe(200);
    });

    it('answers 413 with the limit over the size limit, and keeps nothing', async () => {
      expect(await admin.ok('GET', '/firmware/settings')).toEqual({
        maxBytes: FIRMWARE_MAX_BYTES_DEFAULT,
      });
      const set = await admin.put('/firmware/settings', { maxBytes: MIB });
      expect(set.statusCode).toBe(200);
      expect(set.json().message).toBe('Firmware settings saved');
      try {
        const before = storedFiles();
        const over = await upload(
          admin,
          { series: 'R40', version: '9.0.0' },
          // One byte over, in pieces: only the store's count can tell.
          [randomBytes(MIB / 2), randomBytes(MIB / 2), randomBytes(1)],
        );
        expect(over.statusCode).toBe(413);
        expect(fieldText(over.json())).toBe(
          'file: firmware files must not exceed 1 MiB (1048576 bytes)',
        );
        // The rest of the body is not read: the connection closes.
        expect(over.headers.connection).toBe('close');
        const zh = await upload(
          admin,
          { series: 'R40', version: '9.0.0' },
          randomBytes(MIB + 10),
          'zh-CN',
        );
        expect(fieldText(zh.json())).toBe('file: 固件文件不能超过 1 MiB (1048576 bytes)');
        // Declared far over the limit: refused before the body is read.
        const declared = await upload(
          admin,
          { series: 'R40', version: '9.0.0' },
          randomBytes(3 * MIB),
        );
        expect(declared.statusCode).toBe(413);
        expect(storedFiles()).toEqual(before);
        expect((await admin.ok('GET', '/firmware/list?version=9.0.0')).total).toBe(0);

        const atLimit = await upload(admin, { series: 'R40', version: '9.0.0' }, randomBytes(MIB));
        expect(atLimit.statusCode).toBe(200);
        expect(atLimit.json().result.size).toBe(MIB);
      } finally {
        await admin.ok('PUT', '/firmware/settings', { maxBytes: FIRMWARE_MAX_BYTES_DEFAULT });
      }
    });

    it('lets only platform administrators see and change the limit', async () => {
      const view = await other.get('/firmware/settings');
      expect(view.statusCode).toBe(403);
      const change = await other.put('/firmware/settings', { maxBytes: 2 * MIB });
      expect(change.statusCode).toBe(403);
      const tooSmall = await admin.put('/firmware/settings', { maxBytes: 1000 });
      expect(tooSmall.statusCode).toBe(400);
      expect(fieldText(tooSmall.json())).toBe('maxBytes: must be at least 1048576');
    });

    it('needs firmware:upload', async () => {
      await t.createUser({ username: 'fw-operator', password: 'Operator-Pass-1' });
      const operator = client(t, await t.login('fw-operator', 'Operator-Pass-1'));
      const res = await upload(operator, { series: 'R40', version: '3.0.0' }, randomBytes(10));
      expect(res.statusCode).toBe(403);
      // Operators see the library; uploading stays with administrators.
      expect((await operator.get('/firmware/list')).statusCode).toBe(200);
    });
  });

  describe('download', () => {
    let content: Buffer;
    let id: string;
    let url: string;

    beforeAll(async () => {
      content = randomBytes(3 * MIB + 12345);
      const res = await upload(admin, { series: 'S27X', version: '3.1.0-rc1' }, content);
      id = res.json().result.id;
      url = (await admin.ok('GET', `/firmware/downloadUrl?id=${id}`)).url;
    });

    it('serves the whole file through a signed link, without a session', async () => {
      expect(url).toMatch(
        new RegExp(`^${PUBLIC_URL}/api/firmware/download/${id}\\?exp=\\d+&sig=[\\w-]+$`),
      );
      const res = await fetchUrl(url);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(content)).toBe(true);
      expect(res.headers).toMatchObject({
        'content-length': String(content.length),
        'content-type': 'application/octet-stream',
        'accept-ranges': 'bytes',
        etag: `"${sha256(content)}"`,
        'content-disposition': `attachment; filename="r40-fw.bin"; filename*=UTF-8''r40-fw.bin`,
      });
      // Campaigns sign links the same way.
      const signed = t.app.firmware.signedUrl(id, 60);
      expect(signed.expiresAt).toBe((Math.floor(t.clock.now / 1000) + 60) * 1000);
      expect((await fetchUrl(signed.url)).statusCode).toBe(200);
    });

    it('refuses tampered and expired links with 403', async () => {
      const parsed = new URL(url);
      const sig = parsed.searchParams.get('sig') ?? '';
      const exp = Number(parsed.searchParams.get('exp'));
      const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
      const tampered = [
        `${PUBLIC_URL}/api/firmware/download/${id}?exp=${exp}&sig=${flipped}`,
        `${PUBLIC_URL}/api/firmware/download/${id}?exp=${exp + 3600}&sig=${sig}`,
        `${PUBLIC_URL}/api/firmware/download/${newId()}?exp=${exp}&sig=${sig}`,
        `${PUBLIC_URL}/api/firmware/download/${id}?exp=${exp}&sig=${sig.slice(0, 20)}`,
      ];
      for (const link of tampered) {
        const res = await fetchUrl(link);
        expect(res.statusCode, link).toBe(403);
        expect(res.json().message).toBe('Invalid download link');
      }
      const unsigned = await fetchUrl(`${PUBLIC_URL}/api/firmware/download/${id}`);
      expect(unsigned.statusCode).toBe(400);

      const saved = t.clock.now;
      t.clock.advance(16 * 60 * 1000);
      try {
        const expired = await fetchUrl(url);
        expect(expired.statusCode).toBe(403);
        expect(expired.json().message).toBe('The download link has expired');
        const zh = await fetchUrl(url, { 'accept-language': 'zh-CN' });
        expect(zh.json().message).toBe('下载链接已过期');
      } finally {
        t.clock.now = saved;
      }
    });

    it('answers byte ranges with 206 and the exact bytes', async () => {
      const middle = await fetchUrl(url, { range: 'bytes=100-1123' });
      expect(middle.statusCode).toBe(206);
      expect(middle.headers['content-range']).toBe(`bytes 100-1123/${content.length}`);
      expect(middle.headers['content-length']).toBe('1024');
      expect(middle.rawPayload.equals(content.subarray(100, 1124))).toBe(true);

      const tail = await fetchUrl(url, { range: 'bytes=-500' });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(content.subarray(content.length - 500))).toBe(true);

      const pastEnd = await fetchUrl(url, { range: `bytes=${content.length - 10}-99999999` });
      expect(pastEnd.headers['content-range']).toBe(
        `bytes ${content.length - 10}-${content.length - 1}/${content.length}`,
      );
      expect(pastEnd.rawPayload.length).toBe(10);
    });

    it('resumes from an offset: both parts together are the file', async () => {
      const offset = 1 + Math.floor(Math.random() * (content.length - 2));
      const first = await fetchUrl(url, { range: `bytes=0-${offset - 1}` });
      const rest = await fetchUrl(url, {
        range: `bytes=${offset}-`,
        'if-range': `"${sha256(content)}"`,
      });
      expect(first.statusCode).toBe(206);
      expect(rest.statusCode).toBe(206);
      expect(rest.headers['content-range']).toBe(
        `bytes ${offset}-${content.length - 1}/${content.length}`,
      );
      const whole = Buffer.concat([first.rawPayload, rest.rawPayload]);
      expect(sha256(whole)).toBe(sha256(content));
      // Resuming against another file than the one the device has sends the whole file.
      const changed = await fetchUrl(url, { range: `bytes=${offset}-`, 'if-range': '"other"' });
      expect(changed.statusCode).toBe(200);
      expect(changed.rawPayload.length).toBe(content.length);
    });

    it('answers 416 for a range beyond the end, and ignores ranges it cannot honour', async () => {
      for (const range of [`bytes=${content.length}-`, 'bytes=-0']) {
        const res = await fetchUrl(url, { range });
        expect(res.statusCode, range).toBe(416);
        expect(res.headers['content-range']).toBe(`bytes */${content.length}`);
        expect(fieldText(res.json())).toBe(
          'Range: the requested bytes are beyond the end of the file',
        );
      }
      for (const range of ['bytes=0-1,5-6', 'bytes=9-3', 'items=0-1']) {
        const res = await fetchUrl(url, { range });
        expect(res.statusCode, range).toBe(200);
        expect(res.rawPayload.length).toBe(content.length);
      }
    });

    it('streams files too large to keep in memory from disk, with the same bytes', async () => {
      const fromDisk = new FirmwareService(
        new FirmwareRepository(t.db),
        new FileStore(path.join(dataDir, 'files')),
        new PermissionService(t.db, t.bus, t.clock.read),
        t.clock.read,
        PUBLIC_URL,
        0,
        new StorageReservations(),
        { fileMaxBytes: MIB, totalBytes: 4 * MIB },
      );
      await fromDisk.init();
      const link = new URL(fromDisk.signedUrl(id, 60).url);
      const file = await fromDisk.authorizeDownload(
        id,
        Number(link.searchParams.get('exp')),
        link.searchParams.get('sig') ?? '',
      );
      const collect = async (body: Buffer | Readable) => {
        expect(body).toBeInstanceOf(Readable);
        const chunks: Buffer[] = [];
        for await (const chunk of body as Readable) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      };
      const offset = 1 + Math.floor(Math.random() * (content.length - 2));
      const first = await collect(await fromDisk.read(file, 0, offset - 1));
      const rest = await collect(await fromDisk.read(file, offset, content.length - 1));
      expect(first.length).toBe(offset);
      expect(sha256(Buffer.concat([first, rest]))).toBe(sha256(content));
    });

    it('answers HEAD with the headers of the download and no body', async () => {
      const head = await fetchUrl(url, {}, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(content.length));
      expect(head.headers.etag).toBe(`"${sha256(content)}"`);
      expect(head.headers['accept-ranges']).toBe('bytes');
      expect(head.rawPayload.length).toBe(0);
      const ranged = await fetchUrl(url, { range: 'bytes=10-19' }, 'HEAD');
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-length']).toBe('10');
      expect(ranged.headers['content-range']).toBe(`bytes 10-19/${content.length}`);
      // Another first character of the signature, whatever it was (`_` is one of 64).
      const tamperedUrl = url.replace(/sig=(.)/, (_, c: string) => `sig=${c === '_' ? '-' : '_'}`);
      const tampered = await fetchUrl(tamperedUrl, {}, 'HEAD');
      expect(tampered.statusCode).toBe(403);
    });
  });

  describe('tenancy and deletion', () => {
    let id: string;
    let content: Buffer;

    beforeAll(async () => {
      content = randomBytes(5000);
      const res = await upload(admin, { series: 'R40', version: '4.0.0' }, content);
      id = res.json().result.id;
    });

    it('hides a firmware from another company', async () => {
      const list = await other.ok('GET', '/firmware/list?pageSize=100');
      expect(list.records.map((f: { id: string }) => f.id)).not.toContain(id);
      for (const res of [
        await other.get(`/firmware/queryById?id=${id}`),
        await other.get(`/firmware/downloadUrl?id=${id}`),
        await other.put('/firmware/edit', { id, releaseNotes: 'mine now' }),
        await other.del(`/firmware/delete?id=${id}`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Firmware not found');
      }
      expect(fs.existsSync(path.join(firmwareDir(), id))).toBe(true);
      expect((await admin.ok('GET', `/firmware/queryById?id=${id}`)).releaseNotes).toBeNull();
    });

    it('edits the release notes', async () => {
      const edited = await admin.ok('PUT', '/firmware/edit', { id, releaseNotes: 'Fixes DHCP' });
      expect(edited).toMatchObject({ id, releaseNotes: 'Fixes DHCP', version: '4.0.0' });
    });

    it('refuses to delete a firmware a scheduled, running or paused campaign installs', async () => {
      const companyId = (
        await t.db
          .selectFrom('firmware')
          .select('company_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).company_id;
      const campaignId = newId();
      await t.db
        .insertInto('campaign')
        .values({
          id: campaignId,
          company_id: companyId,
          name: 'roll out 4.0.0',
          kind: 'ota',
          firmware_id: id,
          series: 'R40',
          config_patch_json: null,
          target_json: JSON.stringify({ series: 'R40' }),
          waves_json: '[100]',
          max_concurrent: 10,
          failure_threshold: 20,
          window_json: null,
          jitter_sec: 0,
          soak_minutes: 0,
          approve_each_wave: 0,
          wave_deadline_minutes: null,
          wave_deadline_action: 'continue',
          start_at: null,
          state: 'running',
          paused_reason: null,
          current_wave: 0,
          wave_start_time: t.clock.now,
          gate: null,
          gate_until: null,
          approved_wave: 0,
          accepted_wave: -1,
          released_wave: -1,
          threshold_wave: null,
          total: 0,
          create_by: 'admin',
          create_time: t.clock.now,
          end_time: null,
        })
        .execute();
      const url = (await admin.ok('GET', `/firmware/downloadUrl?id=${id}`)).url;

      expect((await admin.ok('GET', `/firmware/queryById?id=${id}`)).inUse).toBe(true);
      for (const state of ['scheduled', 'running', 'paused']) {
        await t.db.updateTable('campaign').set({ state }).where('id', '=', campaignId).execute();
        const refused = await admin.del(`/firmware/delete?id=${id}`);
        expect(refused.statusCode, state).toBe(409);
        expect(refused.json().message).toBe(
          'A scheduled, running or paused upgrade campaign uses this firmware: it cannot be deleted',
        );
      }
      expect(fs.existsSync(path.join(firmwareDir(), id))).toBe(true);

      // Finished, the campaign keeps its history without the firmware.
      await t.db
        .updateTable('campaign')
        .set({ state: 'completed' })
        .where('id', '=', campaignId)
        .execute();
      expect((await admin.ok('GET', `/firmware/queryById?id=${id}`)).inUse).toBe(false);
      const deleted = await admin.del(`/firmware/delete?id=${id}`);
      expect(deleted.statusCode).toBe(200);
      expect(fs.existsSync(path.join(firmwareDir(), id))).toBe(false);
      expect((await admin.get(`/firmware/queryById?id=${id}`)).statusCode).toBe(404);
      const campaign = await t.db
        .selectFrom('campaign')
        .select('firmware_id')
        .where('id', '=', campaignId)
        .executeTakeFirstOrThrow();
      expect(campaign.firmware_id).toBeNull();
      // Links handed out before no longer lead anywhere.
      expect((await fetchUrl(url)).statusCode).toBe(404);
      // The version can be uploaded again.
      const again = await upload(admin, { series: 'R40', version: '4.0.0' }, content);
      expect(again.statusCode).toBe(200);
    });
  });
});
