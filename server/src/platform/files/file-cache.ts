import type { BlobStore } from './blob-store.js';

export interface FileCacheLimits {
  /** Files larger than this are never kept (they are streamed from disk). */
  fileMaxBytes: number;
  /** Memory all kept files may take together; the least recently used go first. */
  totalBytes: number;
}

/**
 * Stored files kept in memory while they are in demand. A firmware campaign sends one file to
 * thousands of devices: serving them slices of one buffer costs a third of the CPU of reading the
 * file from disk for every download (bench/README.md, "OTA downloads"), and the memory it takes
 * is bounded here, whatever the number of downloads. Stored files never change (a new upload is
 * a new id), so a kept copy is never stale; callers still check that the file exists in the
 * database before they ask for it.
 */
export class FileCache {
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, { size: number; content: Promise<Buffer> }>();
  private total = 0;

  constructor(
    private readonly store: BlobStore,
    private readonly limits: FileCacheLimits,
  ) {}

  /**
   * The file's content when a file of `size` bytes may be kept, else null. Concurrent callers
   * share one read of the file.
   */
  get(area: string, id: string, size: number): Promise<Buffer> | null {
    if (size > this.limits.fileMaxBytes || size > this.limits.totalBytes) return null;
    const key = `${area}/${id}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.content;
    }
    const content = this.store.read(area, id).then((buffer) => {
      if (buffer.length !== size) throw new Error(`stored file ${key} is not ${size} bytes`);
      return buffer;
    });
    const entry = { size, content };
    this.entries.set(key, entry);
    this.total += size;
    content.catch(() => this.drop(key, entry));
    for (const [oldKey, old] of this.entries) {
      if (this.total <= this.limits.totalBytes) break;
      this.drop(oldKey, old);
    }
    return content;
  }

  /** Forgets a file (it was deleted). */
  evict(area: string, id: string): void {
    const key = `${area}/${id}`;
    const entry = this.entries.get(key);
    if (entry) this.drop(key, entry);
  }

  private drop(key: string, entry: { size: number }) {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }
}
