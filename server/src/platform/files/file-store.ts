import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  FileTooLargeError,
  type BlobRange,
  type BlobStore,
  type StoredFile,
} from './blob-store.js';

export { FileTooLargeError, type StoredFile } from './blob-store.js';

/** Areas are fixed names in code; ids are ours (32 hex), so no input ever becomes a path. */
const AREA = /^[a-z][a-z0-9-]{0,31}$/;
const ID = /^[0-9a-f]{32}$/;

/**
 * The BlobStore on the local disk: files under `DATA_DIR/files/{area}/{id}`. A file appears under
 * its name only once it is complete: it is written to a temporary name in the same folder and
 * renamed, so a reader never sees half a file and a crash leaves no file under a real name.
 */
export class FileStore implements BlobStore {
  constructor(private readonly root: string) {}

  pathOf(area: string, id: string): string {
    if (!AREA.test(area) || !ID.test(id)) throw new Error(`invalid stored file name ${area}/${id}`);
    return path.join(this.root, area, id);
  }

  async write(
    area: string,
    id: string,
    source: Readable,
    maxBytes: number,
    claim?: (bytes: number) => void,
  ): Promise<StoredFile> {
    const target = this.pathOf(area, id);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `.${id}.${randomBytes(6).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) {
          done(new FileTooLargeError(maxBytes));
          return;
        }
        try {
          claim?.(chunk.length);
        } catch (error) {
          done(error as Error);
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, fs.createWriteStream(temp, { flags: 'wx' }));
      await fs.promises.rename(temp, target);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    return { size, sha256: hash.digest('hex') };
  }

  /** The whole file (ENOENT when it is not there). */
  read(area: string, id: string): Promise<Buffer> {
    return fs.promises.readFile(this.pathOf(area, id));
  }

  /** The file is opened first, so a missing one rejects here rather than in the stream. */
  async stream(
    area: string,
    id: string,
    options: { range?: BlobRange; chunkBytes?: number } = {},
  ): Promise<Readable> {
    const handle = await fs.promises.open(this.pathOf(area, id), 'r');
    return handle.createReadStream({
      ...(options.range ?? {}),
      ...(options.chunkBytes ? { highWaterMark: options.chunkBytes } : {}),
    });
  }

  async stat(area: string, id: string): Promise<{ size: number } | null> {
    try {
      return { size: (await fs.promises.stat(this.pathOf(area, id))).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Removes the file; one that is already gone is not an error. */
  async remove(area: string, id: string): Promise<void> {
    await fs.promises.rm(this.pathOf(area, id), { force: true });
  }
}
