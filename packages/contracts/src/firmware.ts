import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';
import { ZDeviceSeries } from './device.js';

/*
 * The firmware library of a company. Files are uploaded as multipart/form-data (fields `series`,
 * `version`, `releaseNotes`, then the part `file`), streamed to storage with their sha256
 * computed on the way; a file over the limit (the platform setting `firmware.max-bytes`, default
 * 256 MiB) is a 413. Devices download from signed, expiring URLs that support HTTP Range.
 */

/** Firmware versions: dotted numbers with an optional suffix (`1.2.3`, `2.0.0-rc1`). */
export const FIRMWARE_VERSION_PATTERN = /^\d{1,5}(\.\d{1,5}){0,3}([-+][0-9A-Za-z.-]{1,32})?$/;
export const ZFirmwareVersion = z
  .string()
  .regex(FIRMWARE_VERSION_PATTERN, 'must be dotted numbers such as 1.2.3, optionally -suffix');

/**
 * Orders versions by their numbers (1.10 after 1.9); a suffixed version sorts before its release.
 * Versions that are not dotted numbers compare as text, after all numbered ones.
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const match = /^(\d+(?:\.\d+)*)(?:[-+](.*))?$/.exec(v);
    return match ? { nums: match[1]!.split('.').map(Number), suffix: match[2] ?? null } : null;
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  const length = Math.max(pa.nums.length, pb.nums.length);
  for (let i = 0; i < length; i += 1) {
    const d = (pa.nums[i] ?? 0) - (pb.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (pa.suffix === pb.suffix) return 0;
  if (pa.suffix === null) return 1;
  if (pb.suffix === null) return -1;
  return pa.suffix.localeCompare(pb.suffix);
}

export const ZFirmware = z.object({
  id: ZId,
  series: ZDeviceSeries,
  version: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  releaseNotes: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
  inUse: z.boolean().describe('An unfinished campaign installs it: it cannot be deleted'),
});
export type TFirmware = z.infer<typeof ZFirmware>;

/** The form fields of an upload (multipart parts before `file`). */
export const ZFirmwareUploadFields = z
  .object({
    series: ZDeviceSeries,
    version: ZFirmwareVersion,
    releaseNotes: z.string().max(4000).optional(),
  })
  .strict();
export type TFirmwareUploadFields = z.infer<typeof ZFirmwareUploadFields>;

export const ZFirmwareEdit = z
  .object({ id: ZId, releaseNotes: z.string().max(4000).nullable() })
  .strict();
export type TFirmwareEdit = z.infer<typeof ZFirmwareEdit>;

export const ZFirmwareQuery = ZPageQuery.extend({
  series: ZDeviceSeries.optional(),
  version: z.string().max(64).optional().describe('Substring of the version'),
}).strict();
export type TFirmwareQuery = z.infer<typeof ZFirmwareQuery>;
export const ZFirmwarePage = pageOf(ZFirmware);

/** A signed download address, as devices get it in `down/ota`; for the console's download link. */
export const ZFirmwareDownloadUrl = z.object({ url: z.string(), expiresAt: ZTimestamp });
export type TFirmwareDownloadUrl = z.infer<typeof ZFirmwareDownloadUrl>;

/** Query of the public download route `/api/firmware/download/{id}`. */
export const ZFirmwareDownloadQuery = z
  .object({
    exp: z.coerce.number().int().describe('Expiry, epoch seconds'),
    sig: z.string().max(128).describe('HMAC-SHA256 of id and expiry, base64url'),
  })
  .strict();

/** The upload limit when platform administrators have not set one. */
export const FIRMWARE_MAX_BYTES_DEFAULT = 256 * 1024 * 1024;

/** Platform-wide firmware settings (platform administrators only). */
export const ZFirmwareSettings = z
  .object({
    maxBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(16 * 1024 * 1024 * 1024)
      .describe('Largest firmware file accepted, in bytes (1 MiB to 16 GiB)'),
  })
  .strict();
export type TFirmwareSettings = z.infer<typeof ZFirmwareSettings>;

/** What a company stores and may store (its files: firmware). */
export const ZStorageUsage = z.object({
  used: z.number().int().describe('Bytes stored'),
  limit: z.number().int().nullable().describe('Bytes the company may store; null: unlimited'),
});
export type TStorageUsage = z.infer<typeof ZStorageUsage>;
