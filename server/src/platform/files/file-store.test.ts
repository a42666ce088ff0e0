import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.js';
import { isMissingBlob } from './blob-store.js';
import { FileCache } from './file-cache.js';
import { FileStore, FileTooLargeError } from './file-store.js';

describe('file store', () => {
  let root: string;
  let store: FileStore;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-files-'));
    store = new FileStore(root);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const listing = () => fs.readdirSync(path.join(root, 'firmware'));

  it('writes a stream under its id with its size and sha256', async () => {
    const chunks = [randomBytes(70_000), randomBytes(3), randomBytes(200_000)];
    const id = newId();
    const stored = await store.write('firmware', id, Readable.from(chunks), 1_000_000);
    const whole = Buffer.concat(chunks);
    expect(stored).toEqual({
      size: whole.length,
      sha256: createHash('sha256').update(whole).digest('hex'),
    });
    expect((await store.read('firmware', id)).equals(whole)).toBe(true);
    expect(listing()).toEqual([id]);
    await store.remove('firmware', id);
    await store.remove('firmware', id);
    expect(listing()).toEqual([]);
  });

  it('streams a stored file whole or a range of it, and tells its size', async () => {
    const content = randomBytes(300_000);
    const id = newId();
    await store.write('oss', id, Readable.from([content]), content.length);
    const collect = async (stream: Readable) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    expect((await collect(await store.stream('oss', id))).equals(content)).toBe(true);
    const range = await collect(await store.stream('oss', id, { range: { start: 10, end: 19 } }));
    expect(range.equals(content.subarray(10, 20))).toBe(true);
    expect(await store.stat('oss', id)).toEqual({ size: content.length });
    await store.remove('oss', id);
    expect(await store.stat('oss', id)).toBeNull();
    // A missing file rejects before any stream exists, with the code every store uses.
    const missing = await store.stream('oss', id).catch((error: unknown) => error);
    expect(isMissingBlob(missing)).toBe(true);
  });

  it('stops at the limit and leaves nothing behind', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(randomBytes(64 * 1024));
      },
    });
    await expect(store.write('firmware', newId(), endless, 100_000)).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(endless.destroyed).toBe(true);
    expect(pulled).toBeLessThan(5);
    expect(listing()).toEqual([]);
  });

  it('never makes a path out of anything but an area name and an id', () => {
    expect(() => store.pathOf('firmware', '../../etc/passwd')).toThrow(/invalid/);
    expect(() => store.pathOf('../x', newId())).toThrow(/invalid/);
  });

  describe('cache', () => {
    const put = async (bytes: number) => {
      const id = newId();
      await store.write('firmware', id, Readable.from([randomBytes(bytes)]), bytes);
      return id;
    };

    it('reads a file once for concurrent callers and keeps it', async () => {
      const cache = new FileCache(store, { fileMaxBytes: 1000, totalBytes: 3000 });
      const id = await put(1000);
      const [a, b] = await Promise.all([
        cache.get('firmware', id, 1000),
        cache.get('firmware', id, 1000),
      ]);
      expect(a).toBe(b);
      // Kept: gone from disk, still served.
      await store.remove('firmware', id);
      expect(await cache.get('firmware', id, 1000)).toBe(a);
      cache.evict('firmware', id);
      await expect(cache.get('firmware', id, 1000)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('keeps no file over its limit, and drops the least recently used over the total', async () => {
      const cache = new FileCache(store, { fileMaxBytes: 1000, totalBytes: 2000 });
      expect(cache.get('firmware', await put(1001), 1001)).toBeNull();
      const [first, second, third] = [await put(1000), await put(1000), await put(1000)];
      const kept = await cache.get('firmware', first, 1000);
      await cache.get('firmware', second, 1000);
      // `first` is used again, so `second` is the least recent when `third` comes.
      expect(await cache.get('firmware', first, 1000)).toBe(kept);
      await cache.get('firmware', third, 1000);
      expect(await cache.get('firmware', first, 1000)).toBe(kept);
      // `second` is read from disk again: gone from there, it is gone.
      await store.remove('firmware', second);
      await expect(cache.get('firmware', second, 1000)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('does not keep a failed read', async () => {
      const cache = new FileCache(store, { fileMaxBytes: 1000, totalBytes: 1000 });
      const id = newId();
      await expect(cache.get('firmware', id, 10)).rejects.toMatchObject({ code: 'ENOENT' });
      await store.write('firmware', id, Readable.from([Buffer.alloc(10)]), 10);
      expect((await cache.get('firmware', id, 10))?.length).toBe(10);
    });
  });
});
