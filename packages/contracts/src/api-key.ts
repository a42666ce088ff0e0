import { z } from 'zod';
import { ZCacheBuster, ZId, ZTimestamp } from './common.js';

/**
 * Personal API keys (issue 14): a user's credential for scripts and integrations, acting as the
 * user with at most the permission codes chosen when it was made.
 */

/** Header a key travels in; `Authorization: Bearer <key>` works too. */
export const API_KEY_HEADER = 'x-api-key';
/** What every key starts with, so scanners and people can tell one when they see it. */
export const API_KEY_PREFIX = 'blrms_';
/** The longest a key may live. */
export const API_KEY_MAX_DAYS = 365;
/** The lifetimes the console offers besides a date of one's own. */
export const API_KEY_LIFETIME_DAYS = [30, 90, 365] as const;
/** Permission that lets a user manage their own keys. */
export const API_KEY_PERMISSION = 'apikey:own';

export const ZPermissionCode = z.string().min(1, 'must not be empty').max(100);

export const ZApiKeyCreate = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(64),
    expireTime: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }),
    permissions: z
      .array(ZPermissionCode)
      .min(1, 'must name at least one permission code')
      .max(500, 'must name at most 500 permission codes'),
  })
  .strict();
export type TApiKeyCreate = z.infer<typeof ZApiKeyCreate>;

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
/** Why a key stopped working: its owner revoked it, an administrator did, or the user left. */
export const API_KEY_REVOKE_REASONS = ['user', 'admin', 'frozen', 'deleted'] as const;

export const ZApiKey = z.object({
  id: ZId,
  name: z.string(),
  /** The public part (`blrms_<id>`): names a key in logs and lists without revealing it. */
  prefix: z.string(),
  permissions: z.array(z.string()),
  status: z.enum(API_KEY_STATUSES),
  revokeReason: z.enum(API_KEY_REVOKE_REASONS).nullable(),
  userId: ZId,
  username: z.string(),
  createTime: ZTimestamp,
  expireTime: ZTimestamp,
  revokeTime: ZTimestamp.nullable(),
  lastUsedTime: ZTimestamp.nullable(),
  lastUsedIp: z.string().nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

/** What creating a key answers: the key itself, shown this once and never again. */
export const ZApiKeyCreated = z.object({ apiKey: ZApiKey, key: z.string() });
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

export const ZApiKeyIdQuery = ZCacheBuster.extend({ id: ZId }).strict();

export const ZApiKeyAdminQuery = ZCacheBuster.extend({
  userId: ZId.optional().describe('Only the keys of this user'),
}).strict();
