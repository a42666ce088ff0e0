import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A file that was larger than the limit it was written under; nothing of it was kept. */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';

  constructor(readonly limit: number) {
    super(`file exceeds ${limit} bytes`);
  }
}

export interface StoredFile {
  size: number;
  /** Lower-case hex. */
  sha256: string;
}

/** Areas are fixed names in code; ids are ours (32 hex), so no input ever becomes a path. */
const AREA = /^[a-z][a-z0-9-]{0,31}$/;
const ID = /^[0-9a-f]{32}$/;

/**
 * Files kept on the local disk under `DATA_DIR/files/{area}/{id}`. A file appears under its name
 * only once it is complete: it is written to a temporary name in the same folder and renamed, so a
 * reader never sees half a file and a crash leaves no file under a real name.
 */
export class FileStore {
  constructor(private readonly root: string) {}

  pathOf(area: string, id: string): string {
    if (!AREA.test(area) || !ID.test(id)) throw new Error(`invalid stored file name ${area}/${id}`);
    return path.join(this.root, area, id);
  }

  /**
   * Streams `source` to the file, hashing and counting on the way. Over `maxBytes` the write stops
   * (the source is destroyed, so the rest is not read) and FileTooLargeError is thrown. `claim` is
   * told of every chunk before it is written; when it throws, the write stops the same way.
   */
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

  /** Opens the file for reading (ENOENT when it is not there). */
  open(area: string, id: string): Promise<fs.promises.FileHandle> {
    return fs.promises.open(this.pathOf(area, id), 'r');
  }

  /** Removes the file; one that is already gone is not an error. */
  async remove(area: string, id: string): Promise<void> {
    await fs.promises.rm(this.pathOf(area, id), { force: true });
  }
}
