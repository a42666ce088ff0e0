import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';

/* File storage (系统管理 → 文件管理, `/sys/oss/file/*`) */

/** The largest file one upload may carry; the company's storage quota applies as well. */
export const OSS_FILE_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Content types the server recognises. The first five are only ever set from the file's first
 * bytes (its signature), the text ones only when the name says text and the bytes are UTF-8 text;
 * the rest come from the name's extension and are never shown inline.
 */
export const OSS_FILE_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  'text/html',
  'image/svg+xml',
  'application/xml',
  'application/zip',
  'application/gzip',
  'application/x-tar',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/octet-stream',
] as const;
export type TOssFileContentType = (typeof OSS_FILE_CONTENT_TYPES)[number];

/** How the console may show a file: an image, a PDF, plain text, or not at all (download it). */
export const ZOssFilePreview = z.enum(['image', 'pdf', 'text']).nullable();
export type TOssFilePreview = z.infer<typeof ZOssFilePreview>;

export const ZOssFile = z.object({
  id: ZId,
  name: z.string().describe('The name it was uploaded with (last path segment, printable)'),
  size: z.number().int().describe('Bytes'),
  contentType: z.enum(OSS_FILE_CONTENT_TYPES),
  preview: ZOssFilePreview.describe('What the preview shows; null: download only'),
  sha256: z.string().describe('Lower-case hex'),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
});
export type TOssFile = z.infer<typeof ZOssFile>;

export const OSS_FILE_SORT_COLUMNS = ['createTime', 'name', 'size'] as const;

export const ZOssFileQuery = ZPageQuery.extend({
  name: z.string().trim().max(255).optional().describe('Substring of the name'),
  contentType: z.enum(OSS_FILE_CONTENT_TYPES).optional().describe('Exact content type'),
  column: z.enum(OSS_FILE_SORT_COLUMNS).default('createTime'),
}).strict();
export type TOssFileQuery = z.infer<typeof ZOssFileQuery>;
export const ZOssFilePage = pageOf(ZOssFile);

/** What the company stores (firmware and files together) and may store, and the per-file limit. */
export const ZOssFileStorage = z.object({
  used: z.number().int().describe('Bytes stored by the company (firmware and files)'),
  limit: z.number().int().nullable().describe('Bytes the company may store; null: unlimited'),
  fileMaxBytes: z.number().int().describe('The largest file one upload may carry'),
});
export type TOssFileStorage = z.infer<typeof ZOssFileStorage>;

export const OSS_FILE_LINK_MODES = ['download', 'preview'] as const;

export const ZOssFileLinkQuery = z
  .object({
    id: ZId,
    mode: z.enum(OSS_FILE_LINK_MODES).default('download'),
    _t: z.string().optional(),
  })
  .strict();
export type TOssFileLinkQuery = z.infer<typeof ZOssFileLinkQuery>;

/** A signed address of the file that works without a session for a few minutes. */
export const ZOssFileLink = z.object({ url: z.string(), expiresAt: ZTimestamp });
export type TOssFileLink = z.infer<typeof ZOssFileLink>;

/** Query of the public route `/api/sys/oss/file/content/{id}` that a signed link names. */
export const ZOssFileContentQuery = z
  .object({
    company: ZId.describe('The company of the file (signed with it)'),
    mode: z.enum(OSS_FILE_LINK_MODES),
    exp: z.coerce.number().int().positive().describe('Expiry, epoch seconds'),
    sig: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/)
      .describe('HMAC-SHA256 of mode, company, id and expiry, base64url'),
  })
  .strict();
export type TOssFileContentQuery = z.infer<typeof ZOssFileContentQuery>;
