import { z } from 'zod';
import { ZId, ZPageQuery, ZTimeZone, ZTimestamp } from './common.js';

/**
 * Device management: token keys, groups, devices and device logs (product spec §3, device
 * protocol v1). Device series are the `device_series` dictionary's values.
 */

export const DEVICE_SERIES = ['R40', 'BL10X', 'S27X'] as const;
export const ZDeviceSeries = z
  .enum(DEVICE_SERIES)
  .describe('Device series (dictionary device_series)');
export type TDeviceSeries = z.infer<typeof ZDeviceSeries>;

export const DEVICE_STATUS = ['online', 'offline'] as const;
export const ZDeviceStatus = z.enum(DEVICE_STATUS);
export type TDeviceStatus = z.infer<typeof ZDeviceStatus>;

/**
 * Restarts the platform causes: a `reboot` command, a firmware upgrade (from its `updating`
 * step), a configuration that needs a restart. A disconnect within the expected window raises no
 * offline or unstable-connection alert, and the device shows as restarting rather than offline.
 */
export const RESTART_KINDS = ['reboot', 'upgrade', 'config'] as const;
export type TRestartKind = (typeof RESTART_KINDS)[number];
/** How long each restart may keep a device away before it counts as an outage. */
export const RESTART_WINDOW_MS: Record<TRestartKind, number> = {
  reboot: 5 * 60_000,
  upgrade: 15 * 60_000,
  config: 5 * 60_000,
};
export const ZExpectedRestart = z
  .object({
    kind: z.enum(RESTART_KINDS),
    until: ZTimestamp.describe('End of the window: a device still away then is offline'),
  })
  .describe('A restart the platform caused and expects, while its window lasts; else null');
export type TExpectedRestart = z.infer<typeof ZExpectedRestart>;

/** Device serial number: also its MQTT client id and username. */
export const SN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const ZSn = z
  .string()
  .regex(SN_PATTERN, 'must be 1 to 64 letters, digits, _ or -')
  .describe('Serial number: 1 to 64 of A-Z a-z 0-9 _ -');

const ZName = z.string().trim().min(1).max(64);
const ZRemark = z.string().max(255);
/** Comma-separated ids, as in `deleteBatch?ids=a,b`. */
export const ZIdList = z
  .string()
  .transform((text) => text.split(',').filter(Boolean))
  .pipe(z.array(ZId).min(1).max(1000))
  .describe('Comma-separated ids (at most 1000)');

export const ZIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
export const ZIdsQuery = z.object({ ids: ZIdList }).strict();

// ---------------------------------------------------------------- token keys

/**
 * A token key is the secret devices connect with (MQTT password). It is shown masked; the full
 * key only by `revealKey`, and once in the answer to `add` and `regenerate`. Its public `code`
 * names it in device tag codes, which must not carry the secret.
 */
export const ZDeviceToken = z.object({
  id: ZId,
  code: z.string().describe('Public code of the token, part of device tag codes'),
  name: z.string(),
  remark: z.string().nullable(),
  tokenKeyMasked: z.string().describe('First and last 4 characters of the key'),
  autoRegister: z.boolean().describe('Unknown SNs connecting with this key are registered'),
  enabled: z.boolean(),
  ownerId: ZId,
  ownerName: z.string().describe('Username of the owner'),
  deviceCount: z.number().int(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TDeviceToken = z.infer<typeof ZDeviceToken>;

export const ZDeviceTokenWithKey = ZDeviceToken.extend({
  tokenKey: z.string().describe('The full secret key'),
});
export type TDeviceTokenWithKey = z.infer<typeof ZDeviceTokenWithKey>;

export const TOKEN_SORT_COLUMNS = ['createTime', 'name'] as const;
export const ZDeviceTokenQuery = ZPageQuery.extend({
  name: z.string().max(64).optional().describe('Substring of the name'),
  enabled: z.enum(['true', 'false']).optional(),
  column: z.enum(TOKEN_SORT_COLUMNS).default('createTime'),
}).strict();
export type TDeviceTokenQuery = z.infer<typeof ZDeviceTokenQuery>;

export const ZDeviceTokenCreate = z
  .object({
    name: ZName,
    remark: ZRemark.optional(),
    autoRegister: z.boolean().default(true),
  })
  .strict();
export type TDeviceTokenCreate = z.infer<typeof ZDeviceTokenCreate>;

export const ZDeviceTokenEdit = z
  .object({
    id: ZId,
    name: ZName,
    remark: ZRemark.nullable().optional(),
    autoRegister: z.boolean(),
    enabled: z.boolean(),
  })
  .strict();
export type TDeviceTokenEdit = z.infer<typeof ZDeviceTokenEdit>;

export const ZTokenKey = z.object({ tokenKey: z.string() });

/**
 * An SN deleted from a token: auto-registration refuses it (`device-removed`) until it is allowed
 * again on the token page or the device is added by hand.
 */
export const ZRemovedSn = z.object({
  sn: z.string(),
  removedAt: ZTimestamp,
  removedBy: z.string().nullable().describe('Username who deleted the device'),
});
export type TRemovedSn = z.infer<typeof ZRemovedSn>;

export const ZRemovedSnQuery = ZPageQuery.extend({
  tokenId: ZId,
  sn: z.string().max(64).optional().describe('Substring of the SN'),
}).strict();
export type TRemovedSnQuery = z.infer<typeof ZRemovedSnQuery>;

export const ZRemovedSnAllow = z
  .object({ tokenId: ZId, sns: z.array(ZSn).min(1).max(1000) })
  .strict();
export type TRemovedSnAllow = z.infer<typeof ZRemovedSnAllow>;
export const ZIdBody = z.object({ id: ZId }).strict();

// ---------------------------------------------------------------- groups

export const ZDeviceGroup = z.object({
  id: ZId,
  name: z.string(),
  remark: z.string().nullable(),
  deviceCount: z.number().int(),
  onlineCount: z.number().int(),
  offlineCount: z.number().int(),
  createTime: ZTimestamp,
});
export type TDeviceGroup = z.infer<typeof ZDeviceGroup>;

export const GROUP_SORT_COLUMNS = ['createTime', 'name'] as const;
export const ZDeviceGroupQuery = ZPageQuery.extend({
  name: z.string().max(64).optional().describe('Substring of the name'),
  column: z.enum(GROUP_SORT_COLUMNS).default('createTime'),
}).strict();
export type TDeviceGroupQuery = z.infer<typeof ZDeviceGroupQuery>;

export const ZDeviceGroupCreate = z.object({ name: ZName, remark: ZRemark.optional() }).strict();
export type TDeviceGroupCreate = z.infer<typeof ZDeviceGroupCreate>;

export const ZDeviceGroupEdit = z
  .object({ id: ZId, name: ZName, remark: ZRemark.nullable().optional() })
  .strict();
export type TDeviceGroupEdit = z.infer<typeof ZDeviceGroupEdit>;

/** All groups of the company, for selects. */
export const ZDeviceGroupOption = z.object({ id: ZId, name: z.string() });
export type TDeviceGroupOption = z.infer<typeof ZDeviceGroupOption>;

// ---------------------------------------------------------------- device tags

/**
 * A free tag on a device (issue 20): 1 to 32 characters once trimmed, no commas (lists of tags
 * travel comma-separated in query strings and sheet cells). At most DEVICE_TAGS_MAX per device.
 */
export const DEVICE_TAG_MAX_LENGTH = 32;
export const DEVICE_TAGS_MAX = 20;
export const ZDeviceTag = z
  .string()
  .trim()
  .min(1)
  .max(DEVICE_TAG_MAX_LENGTH)
  .refine((t) => !t.includes(','), 'must not contain a comma')
  .describe('A device tag: 1 to 32 characters, no commas');
export type TDeviceTag = z.infer<typeof ZDeviceTag>;
export const ZDeviceTags = z
  .array(ZDeviceTag)
  .max(DEVICE_TAGS_MAX)
  .describe('Tags of a device (at most 20)');

/** Comma-separated tags, as in `list?tags=a,b`: devices with any of them. */
export const ZDeviceTagList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(ZDeviceTag).min(1).max(DEVICE_TAGS_MAX))
  .describe('Comma-separated tags (at most 20): devices with any of them');

/** Tags added to or taken from devices of a list selection. */
export const ZDeviceTagsChange = z
  .object({
    ids: z.array(ZId).min(1).max(1000),
    tags: z.array(ZDeviceTag).min(1).max(DEVICE_TAGS_MAX),
  })
  .strict();
export type TDeviceTagsChange = z.infer<typeof ZDeviceTagsChange>;

/** The tag counts answer at most this many tags, the most used first. */
export const DEVICE_TAG_COUNTS_MAX = 500;
export const ZDeviceTagCount = z.object({
  tag: z.string(),
  count: z.number().int().describe('Devices of the company with the tag'),
});
export type TDeviceTagCount = z.infer<typeof ZDeviceTagCount>;

// ---------------------------------------------------------------- devices

/** What separates the names of a device's location path in the device list, form and sheets. */
export const DEVICE_LOCATION_SEPARATOR = ' / ';

export const ZDevice = z.object({
  id: ZId,
  tagCode: z.string().describe('Device tag code: token code + ":" + SN'),
  sn: z.string(),
  name: z.string(),
  series: ZDeviceSeries,
  model: z.string().nullable(),
  version: z.string().nullable().describe('Firmware version'),
  groupId: ZId.nullable(),
  groupName: z.string().nullable(),
  status: ZDeviceStatus,
  enabled: z.boolean().describe('A disabled device is refused by the broker'),
  tokenId: ZId,
  tokenName: z.string(),
  ownerId: ZId,
  ownerName: z.string().describe('Username of the owner'),
  remark: z.string().nullable(),
  ip: z.string().nullable(),
  location: z.string().nullable().describe('Installation note (free text)'),
  goodsId: ZId.nullable().describe('The goods (base data) the device is'),
  goodsModel: z.string().nullable().describe('Model of the goods'),
  locationId: ZId.nullable().describe('Where the device is (base data location)'),
  locationPath: z
    .string()
    .nullable()
    .describe('Names from the top location down, joined by " / " (华东 / 上海站 / 柜1)'),
  vendorId: ZId.nullable().describe('The vendor (base data) of the device'),
  vendorName: z.string().nullable(),
  tags: z.array(z.string()).describe('The device’s tags, sorted'),
  lastSeenAt: ZTimestamp.nullable(),
  lastConnectAt: ZTimestamp.nullable(),
  lastDisconnectAt: ZTimestamp.nullable(),
  disconnectReason: z.string().nullable().describe('Why the device last went offline'),
  expectedRestart: ZExpectedRestart.nullable(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TDevice = z.infer<typeof ZDevice>;

export const DEVICE_SORT_COLUMNS = [
  'createTime',
  'sn',
  'name',
  'series',
  'version',
  'status',
  'lastSeenAt',
] as const;

/** Filters of the device list; export takes the same ones. */
export const ZDeviceFilter = z.object({
  sn: z.string().max(64).optional().describe('Substring of the SN'),
  name: z.string().max(64).optional().describe('Substring of the name'),
  series: ZDeviceSeries.optional(),
  version: z.string().max(64).optional().describe('Substring of the firmware version'),
  groupId: z
    .union([ZId, z.literal('none')])
    .optional()
    .describe('A group id, or none for devices in no group'),
  status: ZDeviceStatus.optional(),
  ownerId: ZId.optional(),
  tokenId: ZId.optional(),
  goodsId: ZId.optional(),
  locationId: ZId.optional().describe('A location: devices there or at any location under it'),
  vendorId: ZId.optional(),
  tags: ZDeviceTagList.optional(),
  createTime_begin: z.iso.datetime({ offset: true }).optional(),
  createTime_end: z.iso.datetime({ offset: true }).optional(),
});
export type TDeviceFilter = z.infer<typeof ZDeviceFilter>;

export const ZDeviceQuery = ZPageQuery.extend(ZDeviceFilter.shape)
  .extend({ column: z.enum(DEVICE_SORT_COLUMNS).default('createTime') })
  .strict();
export type TDeviceQuery = z.infer<typeof ZDeviceQuery>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const ZDeviceExportQuery = ZDeviceFilter.extend({
  format: z.enum(EXPORT_FORMATS).default('xlsx'),
  column: z.enum(DEVICE_SORT_COLUMNS).default('createTime'),
  order: z.enum(['asc', 'desc']).default('desc'),
  tz: ZTimeZone.optional(),
  _t: z.string().optional(),
}).strict();
export type TDeviceExportQuery = z.infer<typeof ZDeviceExportQuery>;

const ZOptionalText = z.string().trim().max(64);

export const ZDeviceCreate = z
  .object({
    tokenId: ZId,
    sn: ZSn,
    name: ZName,
    series: ZDeviceSeries,
    model: ZOptionalText.optional(),
    version: ZOptionalText.optional(),
    groupId: ZId.nullable().optional(),
    remark: ZRemark.optional(),
    location: z.string().trim().max(128).optional(),
    goodsId: ZId.nullable().optional(),
    locationId: ZId.nullable().optional(),
    vendorId: ZId.nullable().optional(),
    tags: ZDeviceTags.optional(),
  })
  .strict();
export type TDeviceCreate = z.infer<typeof ZDeviceCreate>;

/** SN and token are the device's identity and cannot change. */
export const ZDeviceEdit = z
  .object({
    id: ZId,
    name: ZName,
    series: ZDeviceSeries,
    model: ZOptionalText.nullable().optional(),
    version: ZOptionalText.nullable().optional(),
    groupId: ZId.nullable().optional(),
    remark: ZRemark.nullable().optional(),
    location: z.string().trim().max(128).nullable().optional(),
    goodsId: ZId.nullable().optional(),
    locationId: ZId.nullable().optional(),
    vendorId: ZId.nullable().optional(),
    tags: ZDeviceTags.optional().describe('The device’s tags: replaces them all when given'),
    enabled: z.boolean(),
  })
  .strict();
export type TDeviceEdit = z.infer<typeof ZDeviceEdit>;

export const ZDeviceMoveToGroup = z
  .object({
    ids: z.array(ZId).min(1).max(1000),
    groupId: ZId.nullable().describe('Target group, or null to take the devices out of groups'),
  })
  .strict();
export type TDeviceMoveToGroup = z.infer<typeof ZDeviceMoveToGroup>;

export const ZBatchResult = z.object({ count: z.number().int() });
export type TBatchResult = z.infer<typeof ZBatchResult>;

/**
 * Import: columns of the sheet, by header (Chinese or English header names are accepted).
 * All devices of one import go to the token chosen in the dialog.
 */
export const IMPORT_COLUMNS = [
  'sn',
  'name',
  'series',
  'model',
  'version',
  'group',
  'remark',
  'location',
  'goods',
  'locationPath',
  'vendor',
  'tags',
] as const;
export const IMPORT_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_ROWS_MAX = 50_000;

/** Multipart fields besides the file. */
export const ZDeviceImportQuery = z
  .object({
    tokenId: ZId,
    dryRun: z.enum(['true', 'false']).default('true').describe('true: validate only (preview)'),
  })
  .strict();
export type TDeviceImportQuery = z.infer<typeof ZDeviceImportQuery>;

export const ZImportRowError = z.object({
  row: z.number().int().describe('Row number in the sheet, header is row 1'),
  field: z.string().describe('Column key, one of IMPORT_COLUMNS, or "row"'),
  message: z.string(),
});
export type TImportRowError = z.infer<typeof ZImportRowError>;

/**
 * Valid rows are imported and invalid rows are skipped (and reported): the import keeps good
 * rows. A preview (`dryRun=true`) reports the same figures and writes nothing.
 */
export const ZDeviceImportResult = z.object({
  dryRun: z.boolean(),
  total: z.number().int().describe('Data rows in the file'),
  valid: z.number().int(),
  invalid: z.number().int(),
  imported: z.number().int().describe('Rows written (0 in a preview)'),
  preview: z
    .array(
      z.object({
        row: z.number().int(),
        sn: z.string(),
        name: z.string(),
        series: z.string(),
        model: z.string(),
        version: z.string(),
        group: z.string(),
        remark: z.string(),
        location: z.string(),
        goods: z.string(),
        locationPath: z.string(),
        vendor: z.string(),
        tags: z.string(),
      }),
    )
    .describe('The first 100 data rows as read'),
  errors: z.array(ZImportRowError).describe('At most 1000 errors, in row order'),
});
export type TDeviceImportResult = z.infer<typeof ZDeviceImportResult>;

// ---------------------------------------------------------------- device logs

export const DEVICE_LOG_STATES = [
  'pending',
  'sent',
  'acked',
  'succeeded',
  'failed',
  'timeout',
] as const;
export const ZDeviceLogState = z.enum(DEVICE_LOG_STATES);
export type TDeviceLogState = z.infer<typeof ZDeviceLogState>;

/** Log content limit (spec: 64K). */
export const DEVICE_LOG_CONTENT_MAX_BYTES = 64 * 1024;

export const ZDeviceLog = z.object({
  id: ZId,
  deviceId: ZId.nullable(),
  sn: z.string().nullable(),
  requestUrl: z.string().describe('Topic or API path of the action'),
  sourceUser: z.string().nullable().describe('Username who acted, null for the platform'),
  targetUser: z.string().nullable().describe('Username of the device owner'),
  subject: z.string(),
  content: z.string().describe('At most 64 KiB; often JSON'),
  sourceIp: z.string().nullable(),
  logTime: ZTimestamp,
  state: ZDeviceLogState,
});
export type TDeviceLog = z.infer<typeof ZDeviceLog>;

export const DEVICE_LOG_SORT_COLUMNS = ['logTime', 'subject', 'state'] as const;
export const ZDeviceLogQuery = ZPageQuery.extend({
  deviceId: ZId.optional(),
  sn: z.string().max(64).optional().describe('Substring of the SN'),
  user: z.string().max(64).optional().describe('Substring of the source or target username'),
  subject: z.string().max(128).optional().describe('Substring of the subject'),
  state: ZDeviceLogState.optional(),
  logTime_begin: z.iso.datetime({ offset: true }).optional(),
  logTime_end: z.iso.datetime({ offset: true }).optional(),
  column: z.enum(DEVICE_LOG_SORT_COLUMNS).default('logTime'),
}).strict();
export type TDeviceLogQuery = z.infer<typeof ZDeviceLogQuery>;

// ---------------------------------------------------------------- dashboard

export const ZDeviceSummary = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  seen24h: z.number().int().describe('Devices seen in the last 24 hours'),
  bySeries: z.array(
    z.object({
      series: ZDeviceSeries,
      total: z.number().int(),
      online: z.number().int(),
    }),
  ),
  byVersion: z
    .array(z.object({ version: z.string().nullable(), total: z.number().int() }))
    .describe('The 10 most common firmware versions, most common first'),
  recentLogs: z.array(ZDeviceLog).describe('The 10 latest device logs'),
});
export type TDeviceSummary = z.infer<typeof ZDeviceSummary>;
