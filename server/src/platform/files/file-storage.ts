import path from 'node:path';
import type { Platform } from '../module.js';
import type { BlobStore } from './blob-store.js';
import { FileStore } from './file-store.js';
import { StorageReservations, type StorageReservation } from './storage-quota.js';
import { StorageRepository } from './storage.repository.js';

/**
 * A company's stored bytes against its quota, whichever feature stored them (firmware, the file
 * library, attachments): the sum over `STORED_FILE_TABLES`, and one ledger of the uploads in flight.
 */
export class CompanyQuota {
  constructor(
    private readonly repository: StorageRepository,
    /** Bytes a company may store when its own quota is unset; 0: unlimited. */
    readonly defaultQuota: number,
    readonly reservations: StorageReservations,
  ) {}

  /** Stored bytes and the limit in force (null: unlimited). */
  async usage(companyId: string): Promise<{ stored: number; limit: number | null }> {
    const { stored, quota } = await this.repository.usage(companyId);
    const limit = quota ?? this.defaultQuota;
    return { stored, limit: limit === 0 ? null : limit };
  }

  /** Opens an upload's claim on the company's quota; the caller commits or releases it. */
  reserve(companyId: string): Promise<StorageReservation> {
    return this.reservations.open(companyId, () => this.usage(companyId));
  }
}

/** The file store and the quota every feature that stores files is given. */
export interface FileStorage {
  blobs: BlobStore;
  quota: CompanyQuota;
}

/**
 * The one file store of the process and its quota ledger. The store is the local disk under
 * `DATA_DIR/files`; another BlobStore (an S3-compatible bucket) would be chosen here, by
 * configuration, without any feature changing.
 */
export function fileStorage({ config, db }: Pick<Platform, 'config' | 'db'>): FileStorage {
  return {
    blobs: new FileStore(path.join(config.dataDir, 'files')),
    quota: new CompanyQuota(
      new StorageRepository(db),
      config.companyStorageQuota,
      new StorageReservations(),
    ),
  };
}
