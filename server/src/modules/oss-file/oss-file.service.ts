import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Readable } from 'node:stream';
import {
  OSS_FILE_MAX_BYTES,
  type TOssFile,
  type TOssFileContentType,
  type TOssFileLink,
  type TOssFileQuery,
  type TOssFileStorage,
} from '@blrms/contracts';
import { requireAccess } from '../../platform/auth/access.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysOssFileTable } from '../../platform/db/schema.js';
import {
  FileTooLargeError,
  isMissingBlob,
  type BlobStore,
} from '../../platform/files/blob-store.js';
import type { FileStorage } from '../../platform/files/file-storage.js';
import {
  formatBytes,
  StorageQuotaExceededError,
  type StorageReservation,
} from '../../platform/files/storage-quota.js';
import { AppError, forbidden } from '../../platform/http/app-error.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';
import { cleanFileName, detectContentType, HEAD_BYTES, previewOf } from './content-type.rules.js';
import type { OssFileRepository } from './oss-file.repository.js';

/** The BlobStore area of the file library: `DATA_DIR/files/oss/{id}` on the local disk. */
const AREA = 'oss';
const LINK_SECRET_SETTING = 'oss-file.link-secret';
/** How long a link made for the console works: long enough to start a download or a preview. */
const LINK_TTL_SEC = 5 * 60;
const STREAM_CHUNK_BYTES = 256 * 1024;

export type OssFileLinkMode = 'download' | 'preview';

export interface OssFileUpload {
  /** The name the client gave the file, if any. */
  filename: string | undefined;
  content: Readable;
}

/** What the routes need to send a file's bytes. */
export interface OssFileContent {
  id: string;
  name: string;
  size: number;
  sha256: string;
  contentType: string;
}

function toFile(row: SysOssFileTable): TOssFile {
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    contentType: row.content_type as TOssFileContentType,
    preview: previewOf(row.content_type),
    sha256: row.sha256,
    createBy: row.create_by,
    createTime: iso(row.create_time),
  };
}

function toContent(row: SysOssFileTable): OssFileContent {
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    sha256: row.sha256,
    contentType: row.content_type,
  };
}

/**
 * A company's file library. The bytes go to the BlobStore the platform gives (the local disk
 * today), under the company's one storage quota with firmware; the type is decided here from the
 * bytes, never from what the client declared. The console reaches the bytes through signed,
 * expiring links (HMAC-SHA256 over mode, id and expiry with a secret kept in `sys_setting`, so
 * every node verifies the links of every other), API clients through the download route.
 */
export class OssFileService {
  private secret: Buffer | undefined;
  private readonly blobs: BlobStore;

  constructor(
    private readonly repository: OssFileRepository,
    private readonly files: FileStorage,
    private readonly clock: Clock,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    /** The largest file one upload may carry. */
    readonly maxBytes: number = OSS_FILE_MAX_BYTES,
  ) {
    this.blobs = files.blobs;
  }

  /** Loads the link secret, making it at first start; the first node to store one wins. */
  async init(): Promise<void> {
    const secret = await this.repository.sharedSecret(LINK_SECRET_SETTING, this.clock());
    this.secret = Buffer.from(secret, 'base64url');
  }

  async list(scope: Scope, query: TOssFileQuery): Promise<Page<TOssFile>> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(records.map(toFile), total, query);
  }

  async get(scope: Scope, id: string): Promise<TOssFile> {
    return toFile(await this.require(scope.companyId, id));
  }

  /** What the company stores (firmware and files) of its quota, and the per-file limit. */
  async storage(scope: Scope): Promise<TOssFileStorage> {
    const { stored, limit } = await this.files.quota.usage(scope.companyId);
    return { used: stored, limit, fileMaxBytes: this.maxBytes };
  }

  /** Opens the upload's claim on the company's quota; commit or release it. */
  reserveStorage(scope: Scope): Promise<StorageReservation> {
    return this.files.quota.reserve(scope.companyId);
  }

  quotaExceeded(error: StorageQuotaExceededError): AppError {
    return new AppError('storageQuotaExceeded', 413, {
      used: formatBytes(error.used),
      limit: formatBytes(error.limit),
    });
  }

  tooLarge(): AppError {
    return new AppError('ossFileTooLarge', 413, { limit: formatBytes(this.maxBytes) });
  }

  /**
   * Streams the file to the store under a new id, then writes its row. A file over the per-file
   * limit or past the company's quota (claimed chunk by chunk on `reservation`) is cut off while it
   * arrives and nothing of it stays. The caller releases the reservation in any case.
   */
  async upload(
    scope: Scope,
    file: OssFileUpload,
    reservation: StorageReservation,
  ): Promise<TOssFile> {
    const id = newId();
    let stored;
    try {
      stored = await this.blobs.write(AREA, id, file.content, this.maxBytes, (bytes) =>
        reservation.add(bytes),
      );
    } catch (error) {
      if (error instanceof FileTooLargeError) throw this.tooLarge();
      if (error instanceof StorageQuotaExceededError) throw this.quotaExceeded(error);
      throw error;
    }
    try {
      if (stored.size === 0) throw new AppError('ossFileEmpty', 400);
      const name = cleanFileName(file.filename);
      const row: SysOssFileTable = {
        id,
        company_id: scope.companyId,
        name,
        size: stored.size,
        content_type: detectContentType(await this.head(id), name),
        sha256: stored.sha256,
        create_by: scope.username,
        create_time: this.clock(),
      };
      await this.repository.insert(row);
      reservation.commit();
      return toFile(row);
    } catch (error) {
      await this.blobs.remove(AREA, id);
      throw error;
    }
  }

  /**
   * The row first, then the bytes: a file whose removal fails is an orphan (logged, counted in no
   * quota), never a row without its file.
   */
  async delete(scope: Scope, id: string): Promise<void> {
    if (!(await this.repository.delete(scope.companyId, id))) {
      throw new AppError('ossFileNotFound', 404);
    }
    try {
      await this.blobs.remove(AREA, id);
    } catch (error) {
      this.log.warn({ err: error, area: AREA, id }, 'deleted file left in the store');
    }
  }

  /** A file of the company to send to an API client. */
  async forDownload(scope: Scope, id: string): Promise<OssFileContent> {
    return toContent(await this.require(scope.companyId, id));
  }

  /**
   * A link for the console to download or preview the file. A preview link is refused (415) for
   * types that are never shown inline, so the console cannot be led to show one.
   */
  async link(scope: Scope, id: string, mode: OssFileLinkMode): Promise<TOssFileLink> {
    const row = await this.require(scope.companyId, id);
    if (mode === 'preview' && previewOf(row.content_type) === null) {
      throw new AppError('ossFileNoPreview', 415, { type: row.content_type });
    }
    const exp = Math.floor(this.clock() / 1000) + LINK_TTL_SEC;
    const company = scope.companyId;
    const sig = this.sign(mode, company, id, exp).toString('base64url');
    return {
      // Relative: the console loads it from the origin it was served from.
      url: `/api/sys/oss/file/content/${id}?company=${company}&mode=${mode}&exp=${exp}&sig=${sig}`,
      expiresAt: iso(exp * 1000),
    };
  }

  /**
   * The file a signed link names: 403 when the signature is wrong or the link expired. The link
   * names the file's company too, so the file is read like any other, within its company.
   */
  async authorizeLink(link: {
    id: string;
    company: string;
    mode: OssFileLinkMode;
    exp: number;
    sig: string;
  }): Promise<OssFileContent> {
    const { id, company, mode, exp, sig } = link;
    const expected = this.sign(mode, company, id, exp);
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden('ossFileLinkInvalid');
    }
    if (exp * 1000 < this.clock()) throw forbidden('ossFileLinkExpired');
    return toContent(await this.require(company, id));
  }

  /** The file's bytes as a stream; 404 when it went between the check and the read. */
  async read(file: OssFileContent): Promise<Readable> {
    try {
      return await this.blobs.stream(AREA, file.id, { chunkBytes: STREAM_CHUNK_BYTES });
    } catch (error) {
      if (isMissingBlob(error)) throw new AppError('ossFileNotFound', 404);
      throw error;
    }
  }

  /** The first bytes of a stored file, which decide its type. */
  private async head(id: string): Promise<Buffer> {
    const stream = await this.blobs.stream(AREA, id, { range: { start: 0, end: HEAD_BYTES - 1 } });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private sign(mode: OssFileLinkMode, companyId: string, id: string, exp: number): Buffer {
    if (!this.secret) throw new Error('OssFileService.init() was not awaited');
    return createHmac('sha256', this.secret)
      .update(`oss.${mode}.${companyId}.${id}.${exp}`)
      .digest();
  }

  private require(companyId: string, id: string): Promise<SysOssFileTable> {
    return requireAccess(this.repository.find(companyId, id), 'ossFileNotFound');
  }
}
