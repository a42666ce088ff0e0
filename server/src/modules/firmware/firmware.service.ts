import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  FIRMWARE_MAX_BYTES_DEFAULT,
  ZFirmwareSettings,
  type TFirmware,
  type TFirmwareDownloadUrl,
  type TFirmwareEdit,
  type TFirmwareQuery,
  type TFirmwareSettings,
  type TFirmwareUploadFields,
  type TStorageUsage,
} from '@blrms/contracts';
import { requireAccess } from '../../platform/auth/access.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/db/ids.js';
import type { FirmwareTable } from '../../platform/db/schema.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import { FileCache, type FileCacheLimits } from '../../platform/files/file-cache.js';
import {
  FileTooLargeError,
  isMissingBlob,
  type BlobStore,
} from '../../platform/files/blob-store.js';
import {
  formatBytes,
  StorageQuotaExceededError,
  type StorageReservation,
  type StorageReservations,
} from '../../platform/files/storage-quota.js';
import { AppError, forbidden } from '../../platform/http/app-error.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';
import { truthy, type FirmwareRepository, type FirmwareRow } from './firmware.repository.js';

const AREA = 'firmware';
const MAX_BYTES_SETTING = 'firmware.max-bytes';
const URL_SECRET_SETTING = 'firmware.url-secret';
/** How long a link made for the console works. */
const CONSOLE_URL_TTL_SEC = 15 * 60;
const MIB = 1024 * 1024;
/**
 * Firmware up to 64 MiB is served from memory (256 MiB for all of them); larger files stream from
 * disk in reads of 256 KiB. Measured in bench/README.md ("OTA downloads"): the disk path costs
 * about three times the CPU per byte, and reads of 64 KiB twice that again.
 */
const DOWNLOAD_CACHE: FileCacheLimits = { fileMaxBytes: 64 * MIB, totalBytes: 256 * MIB };
const DOWNLOAD_READ_BYTES = 256 * 1024;

export interface FirmwareUpload {
  /** The name the client gave the file, if any. */
  filename: string | undefined;
  content: Readable;
}

/**
 * Work another module does in a firmware's deletion transaction, after the in-use check and
 * before the row goes.
 */
export type FirmwareDeletionHandler = (
  deletion: { companyId: string; firmwareId: string },
  trx: Db,
) => Promise<void>;

/** What the download route needs of a firmware whose signed link checked out. */
export interface FirmwareDownload {
  id: string;
  fileName: string;
  size: number;
  sha256: string;
}

function toFirmware(row: FirmwareRow): TFirmware {
  return {
    id: row.id,
    series: row.series as TFirmware['series'],
    version: row.version,
    fileName: row.file_name,
    size: Number(row.size),
    sha256: row.sha256,
    releaseNotes: row.release_notes,
    createBy: row.create_by,
    createTime: iso(row.create_time),
    inUse: truthy(row.in_use),
  };
}

/** `256 MiB (268435456 bytes)`: what an operator reads, and the exact figure. */
export function describeBytes(bytes: number): string {
  const mib = bytes / MIB;
  const short = Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(1)} MiB`;
  return `${short} (${bytes} bytes)`;
}

/** A file name to show and to offer on download: the last path segment, printable, bounded. */
function cleanFileName(name: string | undefined, fallback: string): string {
  const printable = [...path.basename((name ?? '').replaceAll('\\', '/'))]
    .filter((c) => c >= ' ' && c !== '\u007f' && c !== '"')
    .join('');
  const base = printable.trim().slice(0, 255);
  return base === '' || base === '.' || base === '..' ? fallback : base;
}

/**
 * The firmware library: files stored on disk with their sha256, listed per company, and handed
 * to devices through signed, expiring links (HMAC-SHA256 over id and expiry with a secret kept in
 * `sys_setting`, so every node verifies links any node made).
 */
export class FirmwareService {
  private secret: Buffer | undefined;
  private readonly hot: FileCache;
  private readonly deletionHandlers: FirmwareDeletionHandler[] = [];

  constructor(
    private readonly repository: FirmwareRepository,
    private readonly files: BlobStore,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
    /** Where devices reach this server: PUBLIC_URL, else `http://localhost:{PORT}`. */
    private readonly publicUrl: string,
    /** Bytes a company may store when its own quota is unset; 0: unlimited. */
    private readonly defaultQuota: number,
    private readonly reservations: StorageReservations,
    cacheLimits: FileCacheLimits = DOWNLOAD_CACHE,
  ) {
    this.hot = new FileCache(files, cacheLimits);
  }

  /**
   * Lets a module that refers to firmware release its references when a firmware is deleted, in
   * the same transaction (campaigns depend on firmware, so firmware cannot call them).
   */
  beforeDelete(handler: FirmwareDeletionHandler): void {
    this.deletionHandlers.push(handler);
  }

  /** Loads the link secret, making it at first start; the first node to store one wins. */
  async init(): Promise<void> {
    const secret = await this.repository.sharedSecret(URL_SECRET_SETTING, this.clock());
    this.secret = Buffer.from(secret, 'base64url');
  }

  async list(scope: Scope, query: TFirmwareQuery): Promise<Page<TFirmware>> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(records.map(toFirmware), total, query);
  }

  async get(scope: Scope, id: string): Promise<TFirmware> {
    return toFirmware(await this.require(scope.companyId, id));
  }

  /** A firmware of the company, for campaigns (undefined when it is not the company's). */
  find(companyId: string, id: string): Promise<FirmwareTable | undefined> {
    return this.repository.find(companyId, id);
  }

  /** The largest file an upload may carry now. */
  async maxBytes(): Promise<number> {
    const raw = await this.repository.readSetting(MAX_BYTES_SETTING);
    const parsed = ZFirmwareSettings.shape.maxBytes.safeParse(Number(raw));
    return parsed.success ? parsed.data : FIRMWARE_MAX_BYTES_DEFAULT;
  }

  /** What the company stores and may store. */
  async storage(scope: Scope): Promise<TStorageUsage> {
    const { stored, limit } = await this.storageOf(scope.companyId);
    return { used: stored, limit };
  }

  /** Opens the upload's claim on the company's quota; commit or release it. */
  reserveStorage(scope: Scope): Promise<StorageReservation> {
    return this.reservations.open(scope.companyId, () => this.storageOf(scope.companyId));
  }

  quotaExceeded(error: StorageQuotaExceededError): AppError {
    return new AppError('storageQuotaExceeded', 413, {
      used: formatBytes(error.used),
      limit: formatBytes(error.limit),
    });
  }

  tooLarge(maxBytes: number): AppError {
    return new AppError('firmwareTooLarge', 413, { limit: describeBytes(maxBytes) });
  }

  /**
   * Stores the file under a new id, then its row. Refused before a byte is stored when the
   * version exists; a file over `maxBytes` or past the company's quota (claimed chunk by chunk on
   * `reservation`) is cut off and removed. The caller commits or releases the reservation.
   */
  async upload(
    scope: Scope,
    fields: TFirmwareUploadFields,
    file: FirmwareUpload,
    maxBytes: number,
    reservation: StorageReservation,
  ): Promise<TFirmware> {
    const duplicate = () =>
      new AppError('firmwareVersionExists', 409, {
        series: fields.series,
        version: fields.version,
      });
    if (await this.repository.versionExists(scope.companyId, fields.series, fields.version)) {
      throw duplicate();
    }
    const id = newId();
    let stored;
    try {
      stored = await this.files.write(AREA, id, file.content, maxBytes, (bytes) =>
        reservation.add(bytes),
      );
    } catch (error) {
      if (error instanceof FileTooLargeError) throw this.tooLarge(maxBytes);
      if (error instanceof StorageQuotaExceededError) throw this.quotaExceeded(error);
      throw error;
    }
    if (stored.size === 0) {
      await this.files.remove(AREA, id);
      throw new AppError('firmwareFileEmpty', 400);
    }
    try {
      await this.repository.insert({
        id,
        company_id: scope.companyId,
        series: fields.series,
        version: fields.version,
        file_name: cleanFileName(file.filename, `${fields.series}-${fields.version}.bin`),
        size: stored.size,
        sha256: stored.sha256,
        release_notes: fields.releaseNotes?.trim() || null,
        create_by: scope.username,
        create_time: this.clock(),
      });
    } catch (error) {
      await this.files.remove(AREA, id);
      // Two uploads of the same version at once: the unique index lets one in.
      if (isUniqueViolation(error)) throw duplicate();
      throw error;
    }
    reservation.commit();
    return this.get(scope, id);
  }

  async edit(scope: Scope, input: TFirmwareEdit): Promise<TFirmware> {
    const notes = input.releaseNotes?.trim() || null;
    if (!(await this.repository.updateReleaseNotes(scope.companyId, input.id, notes))) {
      throw new AppError('firmwareNotFound', 404);
    }
    return this.get(scope, input.id);
  }

  /** Refused while an unfinished campaign installs it; the file goes with the row. */
  async delete(scope: Scope, id: string): Promise<void> {
    const deletion = { companyId: scope.companyId, firmwareId: id };
    const outcome = await this.repository.delete(scope.companyId, id, async (trx) => {
      for (const handler of this.deletionHandlers) await handler(deletion, trx);
    });
    if (outcome === 'not-found') throw new AppError('firmwareNotFound', 404);
    if (outcome === 'in-use') throw new AppError('firmwareInUse', 409);
    this.hot.evict(AREA, id);
    await this.files.remove(AREA, id);
  }

  /** A download link for the console (the same kind devices get). */
  async downloadUrl(scope: Scope, id: string): Promise<TFirmwareDownloadUrl> {
    await this.require(scope.companyId, id);
    const { url, expiresAt } = this.signedUrl(id, CONSOLE_URL_TTL_SEC);
    return { url, expiresAt: iso(expiresAt) };
  }

  /** A link to the file that works without a session until `ttlSec` from now (`expiresAt` in ms). */
  signedUrl(firmwareId: string, ttlSec: number): { url: string; expiresAt: number } {
    const exp = Math.floor(this.clock() / 1000) + Math.max(1, Math.ceil(ttlSec));
    const base = this.publicUrl.replace(/\/+$/, '');
    const sig = this.sign(firmwareId, exp).toString('base64url');
    return {
      url: `${base}/api/firmware/download/${firmwareId}?exp=${exp}&sig=${sig}`,
      expiresAt: exp * 1000,
    };
  }

  /** The firmware a signed link names: 403 when the signature is wrong or the link expired. */
  async authorizeDownload(id: string, exp: number, sig: string): Promise<FirmwareDownload> {
    const expected = this.sign(id, exp);
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden('firmwareUrlInvalid');
    }
    if (exp * 1000 < this.clock()) throw forbidden('firmwareUrlExpired');
    const row = await this.repository.findForDownload(id);
    if (!row) throw new AppError('firmwareNotFound', 404);
    return { id: row.id, fileName: row.file_name, size: Number(row.size), sha256: row.sha256 };
  }

  /**
   * Bytes `start`..`end` (inclusive) of the file: a slice of the copy kept in memory (no copy of
   * its own), or a stream from disk for files too large to keep.
   */
  async read(file: FirmwareDownload, start: number, end: number): Promise<Buffer | Readable> {
    try {
      const kept = this.hot.get(AREA, file.id, file.size);
      if (kept) return (await kept).subarray(start, end + 1);
      return await this.files.stream(AREA, file.id, {
        range: { start, end },
        chunkBytes: DOWNLOAD_READ_BYTES,
      });
    } catch (error) {
      // Deleted between the signature check and the read.
      if (isMissingBlob(error)) {
        throw new AppError('firmwareNotFound', 404);
      }
      throw error;
    }
  }

  async settings(scope: Scope): Promise<TFirmwareSettings> {
    await this.requirePlatformAdmin(scope);
    return { maxBytes: await this.maxBytes() };
  }

  async setSettings(scope: Scope, input: TFirmwareSettings): Promise<TFirmwareSettings> {
    await this.requirePlatformAdmin(scope);
    await this.repository.writeSetting(MAX_BYTES_SETTING, String(input.maxBytes), this.clock());
    return { maxBytes: await this.maxBytes() };
  }

  private sign(id: string, exp: number): Buffer {
    if (!this.secret) throw new Error('FirmwareService.init() was not awaited');
    return createHmac('sha256', this.secret).update(`${id}.${exp}`).digest();
  }

  /** The limit holds for every company, so only platform administrators change it. */
  private async requirePlatformAdmin(scope: Scope) {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }

  /** Stored bytes and the limit in force (null: unlimited). */
  private async storageOf(companyId: string): Promise<{ stored: number; limit: number | null }> {
    const { stored, quota } = await this.repository.storage(companyId);
    const limit = quota ?? this.defaultQuota;
    return { stored, limit: limit === 0 ? null : limit };
  }

  private require(companyId: string, id: string): Promise<FirmwareRow> {
    return requireAccess(this.repository.find(companyId, id), 'firmwareNotFound');
  }
}
