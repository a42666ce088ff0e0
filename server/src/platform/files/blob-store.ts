import type { Readable } from 'node:stream';

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

/** Inclusive byte positions, as Content-Range writes them. */
export interface BlobRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files are kept: firmware, the file library and (later) announcement attachments.
 * Features hold this interface, never an implementation, so a store other than the local disk
 * (an S3-compatible bucket) is one new class chosen in `file-storage.ts`.
 *
 * Names are an `area` (a fixed name in code: `firmware`, `oss`) and an id the server made (32
 * hex), never anything a client sent. Stored files never change: a new upload is a new id.
 * A file that is not there makes `read`, `stream` and `stat`'s callers see an error whose `code`
 * is `ENOENT` (see `isMissingBlob`), whatever the store.
 */
export interface BlobStore {
  /**
   * Streams `source` into the store, hashing and counting on the way. The file appears under its
   * name only once it is complete. Over `maxBytes` the write stops (the source is destroyed, so
   * the rest is not read), nothing is kept and FileTooLargeError is thrown. `claim` is told of
   * every chunk before it is written; when it throws, the write stops the same way.
   */
  write(
    area: string,
    id: string,
    source: Readable,
    maxBytes: number,
    claim?: (bytes: number) => void,
  ): Promise<StoredFile>;
  /** The whole file, for files small enough to hold in memory. */
  read(area: string, id: string): Promise<Buffer>;
  /** The file, or the bytes of `range`, as a stream; rejects before streaming when it is missing. */
  stream(
    area: string,
    id: string,
    options?: { range?: BlobRange; chunkBytes?: number },
  ): Promise<Readable>;
  /** Its size, or null when it is not there. */
  stat(area: string, id: string): Promise<{ size: number } | null>;
  /** Removes the file; one that is already gone is not an error. */
  remove(area: string, id: string): Promise<void>;
}

/** Whether `error` says the stored file is not there (deleted, or never completed). */
export function isMissingBlob(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}
