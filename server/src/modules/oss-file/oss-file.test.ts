import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/db/ids.js';
import { fileStorage } from '../../platform/files/file-storage.js';
import { storedBytesOf } from '../../platform/files/storage.repository.js';
import type { Platform } from '../../platform/module.js';
import { ADMIN_PASSWORD, createTestApp, fieldText, type TestContext } from '../../test/app.js';
import { createCompanyAdmin, createRole } from '../../test/company-admin.js';
import { client, type Client } from '../../test/devices.js';
import { detectContentType } from './content-type.rules.js';
import { OssFileRepository } from './oss-file.repository.js';
import { OssFileService } from './oss-file.service.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(2000),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

/**
 * A multipart body: `fields`, then the part `file` whose bytes arrive in `chunks`, declared as an
 * image whatever it is (the server must not care).
 */
function form(
  name: string,
  chunks: Buffer[],
  fields: Record<string, string> = {},
  declaredLength?: number,
) {
  const boundary = `----blrms${newId()}`;
  const head = Buffer.from(
    `${Object.entries(fields)
      .map(
        ([field, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`,
      )
      .join(
        '',
      )}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + tail.length + chunks.reduce((sum, c) => sum + c.length, 0);
  return {
    payload: Readable.from([head, ...chunks, tail]),
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(declaredLength ?? length),
    },
  };
}

const chunksOf = (bytes: number) =>
  Array.from({ length: Math.ceil(bytes / (16 * KIB)) }, (_, i) =>
    randomBytes(Math.min(16 * KIB, bytes - i * 16 * KIB)),
  );

describe('file storage', () => {
  let t: TestContext;
  let dataDir: string;
  let admin: Client;
  let acme: Client;
  let reader: Client;
  let acmeId: string;
  const ossDir = () => path.join(dataDir, 'files', 'oss');
  /** Every name in the file library's folder, temporary ones included. */
  const stored = () => (fs.existsSync(ossDir()) ? fs.readdirSync(ossDir()).sort() : []);
  const rowsOf = async (companyId: string) =>
    (
      await t.db
        .selectFrom('sys_oss_file')
        .select('id')
        .where('company_id', '=', companyId)
        .execute()
    ).map((r) => r.id);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-oss-'));
    t = await createTestApp({ env: { DATA_DIR: dataDir, COMPANY_STORAGE_QUOTA: '1MiB' } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    ({ companyId: acmeId } = await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acme-admin',
      password: 'Acme-Admin-Pass-1',
      perms: [
        'system:oss:file:list',
        'system:oss:file:upload',
        'system:oss:file:download',
        'system:oss:file:delete',
        'firmware:list',
        'firmware:upload',
      ],
    }));
    acme = client(t, await t.login('acme-admin', 'Acme-Admin-Pass-1'));
    // A member of acme who may only list.
    const roleId = await createRole(t, acmeId, 'viewer', ['system:oss:file:list']);
    await t.createUser({
      username: 'acme-viewer',
      password: 'Acme-Viewer-Pass-1',
      companyId: acmeId,
      roleIds: [roleId],
    });
    reader = client(t, await t.login('acme-viewer', 'Acme-Viewer-Pass-1'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (as: Client, name: string, content: Buffer | Buffer[], lang = 'en-US') => {
    // Each upload a second after the last, so that the newest-first order is known.
    t.clock.advance(1000);
    const body = form(name, Array.isArray(content) ? content : [content]);
    return t.app.inject({
      method: 'POST',
      url: '/api/sys/oss/file/upload',
      headers: { ...as.headers, 'accept-language': lang, ...body.headers },
      payload: body.payload,
    });
  };
  const uploaded = async (as: Client, name: string, content: Buffer) => {
    const res = await upload(as, name, content);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { id: string; contentType: string; preview: string | null };
  };
  /** A signed link, then the request a browser makes with it (no session). */
  const follow = async (as: Client, id: string, mode: 'download' | 'preview') => {
    const link = await as.ok('GET', `/sys/oss/file/url?id=${id}&mode=${mode}`);
    return t.app.inject({ method: 'GET', url: link.url, headers: { 'accept-language': 'en-US' } });
  };

  let pngId: string;
  let htmlId: string;
  let textId: string;

  describe('upload', () => {
    it('stores the bytes under a new id with size, sha256, uploader and a type read from the bytes', async () => {
      const res = await upload(acme, 'C:\\fakepath\\../报告 图.png', PNG);
      expect(res.statusCode, res.body).toBe(200);
      const file = res.json().result;
      expect(file).toMatchObject({
        name: '报告 图.png',
        size: PNG.length,
        sha256: sha256(PNG),
        contentType: 'image/png',
        preview: 'image',
        createBy: 'acme-admin',
      });
      expect(res.json().message).toBe('File 报告 图.png uploaded');
      pngId = file.id;
      expect(stored()).toEqual([pngId]);
      expect(fs.readFileSync(path.join(ossDir(), pngId)).equals(PNG)).toBe(true);
      expect(await acme.ok('GET', `/sys/oss/file/queryById?id=${pngId}`)).toEqual(file);
    });

    it('never takes the type from the name or the declared type when the bytes disagree', async () => {
      htmlId = (await uploaded(acme, 'page.html', HTML)).id;
      const disguised = await uploaded(acme, 'cat.png', HTML);
      const svg = await uploaded(acme, 'logo.svg', SVG);
      const text = await uploaded(acme, 'notes.txt', Buffer.from('第一行\nsecond line\n'));
      const binaryText = await uploaded(acme, 'dump.txt', Buffer.from([0x41, 0, 0xff, 0xfe]));
      const pdf = await uploaded(acme, 'manual.bin', PDF);
      textId = text.id;
      expect(
        [disguised, svg, text, binaryText, pdf].map((f) => [f.contentType, f.preview]),
      ).toEqual([
        ['application/octet-stream', null],
        ['image/svg+xml', null],
        ['text/plain', 'text'],
        ['application/octet-stream', null],
        ['application/pdf', 'pdf'],
      ]);
      const html = await acme.ok('GET', `/sys/oss/file/queryById?id=${htmlId}`);
      expect([html.contentType, html.preview]).toEqual(['text/html', null]);
    });

    it('refuses an empty file and a form without a file, keeping nothing', async () => {
      const before = stored();
      const empty = await upload(acme, 'empty.txt', Buffer.alloc(0), 'zh-CN');
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toEqual([{ field: 'file', message: '文件不能为空' }]);
      const none = await t.app.inject({
        method: 'POST',
        url: '/api/sys/oss/file/upload',
        headers: { ...acme.headers, 'content-type': 'application/json' },
        payload: {},
      });
      expect(none.statusCode).toBe(400);
      expect(fieldText(none.json())).toContain('one file is required');
      expect(stored()).toEqual(before);
    });
  });

  describe('list', () => {
    it('pages, searches by name and type, and sorts by size', async () => {
      const all = await acme.ok('GET', '/sys/oss/file/list?pageSize=100');
      expect(all.total).toBe(7);
      // Newest first by default.
      expect(all.records[all.records.length - 1].id).toBe(pngId);
      const byName = await acme.ok('GET', `/sys/oss/file/list?name=${encodeURIComponent('NOTES')}`);
      expect(byName.records.map((f: { name: string }) => f.name)).toEqual(['notes.txt']);
      const percent = await acme.ok('GET', '/sys/oss/file/list?name=%25');
      expect(percent.total).toBe(0);
      const images = await acme.ok('GET', '/sys/oss/file/list?contentType=image%2Fpng');
      expect(images.records.map((f: { id: string }) => f.id)).toEqual([pngId]);
      const bySize = await acme.ok(
        'GET',
        '/sys/oss/file/list?column=size&order=asc&pageSize=2&pageNo=1',
      );
      expect(bySize.records.map((f: { size: number }) => f.size)).toEqual([4, 22]);
      expect(bySize.pages).toBe(4);
    });

    it('names the field of a bad query', async () => {
      const res = await acme.get('/sys/oss/file/list?column=size;drop&contentType=text/x-evil');
      expect(res.statusCode).toBe(400);
      expect(
        res
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['column', 'contentType']);
    });
  });

  describe('download and preview', () => {
    it('downloads as an attachment with the exact name, whatever the type', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/sys/oss/file/download?id=${pngId}`,
        headers: acme.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="__ _.png"; filename*=UTF-8''${encodeURIComponent('报告 图.png')}`,
      );
      const html = await follow(acme, htmlId, 'download');
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-type']).toBe('application/octet-stream');
      expect(html.headers['content-disposition']).toMatch(/^attachment; filename="page.html"/);
      expect(html.headers['content-security-policy']).toContain('sandbox');
    });

    it('previews images, PDF and text inline under a strict policy, text as plain text', async () => {
      const image = await follow(acme, pngId, 'preview');
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['content-disposition']).toMatch(/^inline; /);
      expect(image.headers['content-security-policy']).toBe(
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox",
      );
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      const text = await follow(acme, textId, 'preview');
      expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(text.body).toBe('第一行\nsecond line\n');
    });

    it('refuses a preview of HTML or SVG in both languages; a forged preview link gets an attachment', async () => {
      const en = await acme.get(`/sys/oss/file/url?id=${htmlId}&mode=preview`);
      expect(en.statusCode).toBe(415);
      expect(en.json().message).toBe(
        'Files of this type (text/html) cannot be previewed; download it instead',
      );
      const zh = await t.app.inject({
        method: 'GET',
        url: `/api/sys/oss/file/url?id=${htmlId}&mode=preview`,
        headers: { ...acme.headers, 'accept-language': 'zh-CN' },
      });
      expect(zh.json().message).toBe('该类型（text/html）的文件不能预览，请下载后查看');
      // A download link with its mode changed to preview: the signature covers the mode.
      const link = await acme.ok('GET', `/sys/oss/file/url?id=${htmlId}&mode=download`);
      const forged = await t.app.inject({
        method: 'GET',
        url: link.url.replace('mode=download', 'mode=preview'),
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.headers['content-type']).not.toContain('html');
    });

    it('refuses a tampered or expired link', async () => {
      const link = await acme.ok('GET', `/sys/oss/file/url?id=${pngId}&mode=preview`);
      const tampered = link.url.replace(
        /sig=(.)/,
        (_: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`,
      );
      const bad = await t.app.inject({
        method: 'GET',
        url: tampered,
        headers: { 'accept-language': 'en-US' },
      });
      expect(bad.statusCode).toBe(403);
      expect(bad.json().message).toBe('Invalid file link');
      const otherFile = await t.app.inject({
        method: 'GET',
        url: link.url.replace(pngId, textId),
      });
      expect(otherFile.statusCode).toBe(403);
      // Another company named in the link: the signature covers the company too.
      const platformId = (
        await t.db
          .selectFrom('sys_company')
          .select('id')
          .where('id', '!=', acmeId)
          .executeTakeFirstOrThrow()
      ).id;
      const otherCompany = await t.app.inject({
        method: 'GET',
        url: link.url.replace(`company=${acmeId}`, `company=${platformId}`),
      });
      expect(otherCompany.statusCode).toBe(403);
      t.clock.advance(6 * 60 * 1000);
      const late = await t.app.inject({
        method: 'GET',
        url: link.url,
        headers: { 'accept-language': 'en-US' },
      });
      expect(late.statusCode).toBe(403);
      expect(late.json().message).toBe('The file link has expired');
    });
  });

  describe('permissions and companies', () => {
    it('lets a member with list only list, and refuses every other button on the server', async () => {
      expect((await reader.ok('GET', '/sys/oss/file/list')).total).toBe(7);
      expect((await upload(reader, 'x.txt', Buffer.from('x'))).statusCode).toBe(403);
      expect((await reader.get(`/sys/oss/file/download?id=${pngId}`)).statusCode).toBe(403);
      expect((await reader.get(`/sys/oss/file/url?id=${pngId}`)).statusCode).toBe(403);
      expect((await reader.del(`/sys/oss/file/delete?id=${pngId}`)).statusCode).toBe(403);
      expect(await rowsOf(acmeId)).toContain(pngId);
    });

    it("answers another company's file like a missing one", async () => {
      expect((await admin.ok('GET', '/sys/oss/file/list')).total).toBe(0);
      for (const url of [
        `/sys/oss/file/queryById?id=${pngId}`,
        `/sys/oss/file/download?id=${pngId}`,
        `/sys/oss/file/url?id=${pngId}&mode=preview`,
      ]) {
        const res = await admin.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().message).toBe('File not found');
      }
      expect((await admin.del(`/sys/oss/file/delete?id=${pngId}`)).statusCode).toBe(404);
      expect((await admin.get(`/sys/oss/file/queryById?id=${newId()}`)).statusCode).toBe(404);
      expect(await rowsOf(acmeId)).toContain(pngId);
    });
  });

  describe('quota and limits', () => {
    let usedBefore: number;

    it('counts files and firmware in one company quota', async () => {
      const storage = await acme.ok('GET', '/sys/oss/file/storage');
      usedBefore = storage.used;
      expect(storage).toEqual({ used: usedBefore, limit: MIB, fileMaxBytes: 100 * MIB });
      expect(await acme.ok('GET', '/firmware/storage')).toEqual({ used: usedBefore, limit: MIB });
      const big = await uploaded(acme, 'big.bin', Buffer.concat(chunksOf(600 * KIB)));
      expect((await acme.ok('GET', '/firmware/storage')).used).toBe(usedBefore + 600 * KIB);
      // The company list's column counts the same tables.
      const listed = await t.db
        .selectFrom('sys_company as c')
        .select(storedBytesOf('c.id').as('used'))
        .where('c.id', '=', acmeId)
        .executeTakeFirstOrThrow();
      expect(Number(listed.used)).toBe(usedBefore + 600 * KIB);
      await acme.ok('DELETE', `/sys/oss/file/delete?id=${big.id}`);
    });

    it('stops an upload past the quota while it streams, in both languages, and keeps nothing', async () => {
      const fw = form('fw.bin', chunksOf(700 * KIB), { series: 'R40', version: '1.0.0' });
      const firmware = await t.app.inject({
        method: 'POST',
        url: '/api/firmware/upload',
        headers: { ...acme.headers, ...fw.headers },
        payload: fw.payload,
      });
      expect(firmware.statusCode, firmware.body).toBe(200);
      const used = usedBefore + 700 * KIB;
      const before = stored();
      const rows = await rowsOf(acmeId);
      // The declared length fits what is left, so the refusal comes from the stream.
      const room = MIB - used;
      const en = await upload(acme, 'over.bin', chunksOf(room + 16 * KIB));
      expect(en.statusCode, en.body).toBe(413);
      expect(en.json().errors).toEqual([
        {
          field: 'file',
          message: expect.stringMatching(
            /^the company's storage quota is exceeded \(70\d KiB of 1 MiB used\); the file was not stored$/,
          ),
        },
      ]);
      const zh = await upload(acme, 'over.bin', chunksOf(room + 16 * KIB), 'zh-CN');
      expect(zh.statusCode).toBe(413);
      expect(zh.json().errors[0].message).toMatch(
        /^超出本公司的存储配额（已用 70\d KiB，上限 1 MiB），文件未保存$/,
      );
      expect(stored()).toEqual(before);
      expect(await rowsOf(acmeId)).toEqual(rows);
      expect((await acme.ok('GET', '/sys/oss/file/storage')).used).toBe(used);
      // What fits still goes in.
      const fits = await uploaded(acme, 'fits.bin', Buffer.concat(chunksOf(room - 16 * KIB)));
      await acme.ok('DELETE', `/sys/oss/file/delete?id=${fits.id}`);
    });

    it('refuses a body that declares more than the per-file limit before reading it', async () => {
      const body = form('huge.bin', [randomBytes(1000)], {}, 101 * MIB);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/oss/file/upload',
        headers: { ...admin.headers, 'accept-language': 'zh-CN', ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().errors).toEqual([
        { field: 'file', message: '单个文件不能超过 100 MiB，文件未保存' },
      ]);
    });

    it('cuts off a file over the per-file limit while it streams and keeps nothing', async () => {
      const files = fileStorage({
        config: { dataDir, companyStorageQuota: 0 } as Platform['config'],
        db: t.db,
      });
      const service = new OssFileService(
        new OssFileRepository(t.db),
        files,
        t.clock.read,
        t.app.log,
        64 * KIB,
      );
      await service.init();
      const reservation = await files.quota.reserve(acmeId);
      let pulled = 0;
      const endless = new Readable({
        read() {
          pulled += 1;
          this.push(randomBytes(16 * KIB));
        },
      });
      const before = stored();
      const scope = { companyId: acmeId, username: 'acme-admin' } as Parameters<
        OssFileService['upload']
      >[0];
      await expect(
        service.upload(scope, { filename: 'endless.bin', content: endless }, reservation),
      ).rejects.toMatchObject({ httpStatus: 413, params: { limit: '64 KiB' } });
      reservation.release();
      expect(pulled).toBeLessThan(10);
      expect(stored()).toEqual(before);
    });

    it('frees the bytes of a deleted file at once, and deletes once', async () => {
      const usage = (await acme.ok('GET', '/sys/oss/file/storage')).used;
      const res = await acme.del(`/sys/oss/file/delete?id=${pngId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Deleted');
      expect(stored()).not.toContain(pngId);
      expect((await acme.ok('GET', '/sys/oss/file/storage')).used).toBe(usage - PNG.length);
      expect((await acme.del(`/sys/oss/file/delete?id=${pngId}`)).statusCode).toBe(404);
    });
  });
});

describe('content type', () => {
  it('reads images and PDF from their signature only, text from a text name and text bytes', () => {
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
    expect(detectContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'x')).toBe('image/jpeg');
    expect(detectContentType(Buffer.from('GIF89a....'), 'x.txt')).toBe('image/gif');
    expect(detectContentType(webp, 'a.html')).toBe('image/webp');
    expect(detectContentType(Buffer.from('{"a":1}'), 'a.json')).toBe('application/json');
    expect(detectContentType(Buffer.from('<?xml version="1.0"?>'), 'feed.XML')).toBe(
      'application/xml',
    );
    expect(detectContentType(Buffer.from('a,b\n'), 'noext')).toBe('application/octet-stream');
    // A multi-byte character cut at the end of the sample is still text.
    expect(detectContentType(Buffer.from('€€').subarray(0, 4), 'a.txt')).toBe('text/plain');
  });
});
