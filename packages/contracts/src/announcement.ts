import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';

/** Priority (spec section 3): L normal (blue 一般消息), M important (orange), H urgent (red). */
export const ANNOUNCEMENT_PRIORITIES = ['L', 'M', 'H'] as const;
export const ZAnnouncementPriority = z.enum(ANNOUNCEMENT_PRIORITIES);
export type TAnnouncementPriority = z.infer<typeof ZAnnouncementPriority>;

/** `1` an announcement written by an administrator, `2` a message the platform sends itself. */
export const ANNOUNCEMENT_CATEGORY = { announcement: '1', system: '2' } as const;
export const ZAnnouncementCategory = z.enum(['1', '2']);

/** Who receives it: everyone of the company, or the chosen users, departments or roles. */
export const ZAnnouncementAudience = z.enum(['all', 'user', 'depart', 'role']);
export type TAnnouncementAudience = z.infer<typeof ZAnnouncementAudience>;

export const ZAnnouncementOpenType = z.enum(['url', 'component']);

/** `0` draft, `1` published, `2` revoked. */
export const ANNOUNCEMENT_SEND_STATUS = { draft: '0', published: '1', revoked: '2' } as const;
export const ZAnnouncementSendStatus = z.enum(['0', '1', '2']);

/** Largest announcement body the server keeps, after sanitizing. */
export const ANNOUNCEMENT_CONTENT_MAX = 64 * 1024;
/** Most recipients one announcement may name by id (users, departments or roles). */
export const ANNOUNCEMENT_AUDIENCE_IDS_MAX = 1000;

const ZOptionalTime = z.iso.datetime({ offset: true }).nullable().optional();

const ZAnnouncementFields = z.object({
  titile: z.string().trim().min(1).max(100).describe('Title (the spelling is the contract)'),
  msgContent: z.string().max(ANNOUNCEMENT_CONTENT_MAX).describe('Rich text (HTML), sanitized'),
  priority: ZAnnouncementPriority,
  msgCategory: ZAnnouncementCategory.default('1'),
  msgType: ZAnnouncementAudience,
  userIds: z.array(ZId).max(ANNOUNCEMENT_AUDIENCE_IDS_MAX).default([]),
  departIds: z.array(ZId).max(ANNOUNCEMENT_AUDIENCE_IDS_MAX).default([]),
  roleIds: z.array(ZId).max(ANNOUNCEMENT_AUDIENCE_IDS_MAX).default([]),
  openType: ZAnnouncementOpenType.nullable().default(null),
  openPage: z.string().trim().max(255).nullable().default(null),
  busId: z.string().trim().max(64).nullable().default(null),
  startTime: ZOptionalTime,
  endTime: ZOptionalTime,
});

export const ZAnnouncementCreate = ZAnnouncementFields.strict();
export type TAnnouncementCreate = z.infer<typeof ZAnnouncementCreate>;
export type TAnnouncementCreateInput = z.input<typeof ZAnnouncementCreate>;

export const ZAnnouncementEdit = ZAnnouncementFields.extend({ id: ZId }).strict();
export type TAnnouncementEdit = z.infer<typeof ZAnnouncementEdit>;

/** An announcement as its administrators see it. */
export const ZAnnouncement = z.object({
  id: ZId,
  titile: z.string(),
  msgContent: z.string(),
  priority: ZAnnouncementPriority,
  msgCategory: ZAnnouncementCategory,
  msgType: ZAnnouncementAudience,
  userIds: z.array(ZId),
  departIds: z.array(ZId),
  roleIds: z.array(ZId),
  openType: ZAnnouncementOpenType.nullable(),
  openPage: z.string().nullable(),
  busId: z.string().nullable(),
  startTime: ZTimestamp.nullable(),
  endTime: ZTimestamp.nullable(),
  sendStatus: ZAnnouncementSendStatus,
  sender: z.string().nullable(),
  sendTime: ZTimestamp.nullable(),
  cancelTime: ZTimestamp.nullable(),
  createTime: ZTimestamp,
  recipients: z.number().int().describe('Delivery rows made at publish time'),
  readCount: z.number().int(),
});
export type TAnnouncement = z.infer<typeof ZAnnouncement>;

export const ANNOUNCEMENT_SORT_COLUMNS = ['createTime', 'sendTime', 'priority'] as const;

export const ZAnnouncementQuery = ZPageQuery.extend({
  titile: z.string().max(100).optional().describe('Substring of the title'),
  sendStatus: ZAnnouncementSendStatus.optional(),
  priority: ZAnnouncementPriority.optional(),
  msgCategory: ZAnnouncementCategory.optional(),
  column: z.enum(ANNOUNCEMENT_SORT_COLUMNS).default('createTime'),
}).strict();
export type TAnnouncementQuery = z.infer<typeof ZAnnouncementQuery>;

export const ZAnnouncementPage = pageOf(ZAnnouncement);
export type TAnnouncementPage = z.infer<typeof ZAnnouncementPage>;

/** One announcement as its recipient sees it (spec section 3). */
export const ZUserAnnouncement = z.object({
  id: ZId.describe('Announcement id (anntId)'),
  sendId: ZId.describe('Delivery row id'),
  titile: z.string(),
  msgContent: z.string(),
  sender: z.string().nullable(),
  sendTime: ZTimestamp.nullable(),
  priority: ZAnnouncementPriority,
  msgCategory: ZAnnouncementCategory,
  openType: ZAnnouncementOpenType.nullable(),
  openPage: z.string().nullable(),
  busId: z.string().nullable(),
  readFlag: z.enum(['0', '1']).describe('1 is read'),
  readTime: ZTimestamp.nullable(),
  createTime: ZTimestamp,
});
export type TUserAnnouncement = z.infer<typeof ZUserAnnouncement>;

/** Entries per list in the bell; the totals count every unread one. */
export const BELL_LIST_SIZE = 5;

export const ZListByUser = z.object({
  anntMsgList: z.array(ZUserAnnouncement),
  anntMsgTotal: z.number().int().describe('Unread announcements'),
  sysMsgList: z.array(ZUserAnnouncement),
  sysMsgTotal: z.number().int().describe('Unread system messages'),
});
export type TListByUser = z.infer<typeof ZListByUser>;

export const ZUserAnnouncementQuery = ZPageQuery.extend({
  titile: z.string().max(100).optional(),
  msgCategory: ZAnnouncementCategory.optional(),
  readFlag: z.enum(['0', '1']).optional(),
  priority: ZAnnouncementPriority.optional(),
}).strict();
export type TUserAnnouncementQuery = z.infer<typeof ZUserAnnouncementQuery>;

export const ZUserAnnouncementPage = pageOf(ZUserAnnouncement);
export type TUserAnnouncementPage = z.infer<typeof ZUserAnnouncementPage>;

export const ZMarkReadRequest = z.object({ anntId: ZId }).strict();
export type TMarkReadRequest = z.infer<typeof ZMarkReadRequest>;

/** Who an administrator can address, in the current company. */
export const ZAudienceDepart: z.ZodType<TAudienceDepart> = z.lazy(() =>
  z.object({
    id: ZId,
    title: z.string(),
    orgCode: z.string(),
    children: z.array(ZAudienceDepart),
  }),
);
export type TAudienceDepart = {
  id: string;
  title: string;
  orgCode: string;
  children: TAudienceDepart[];
};

export const ZAudienceOptions = z.object({
  users: z.array(z.object({ id: ZId, username: z.string(), realname: z.string() })),
  departs: z.array(ZAudienceDepart),
  roles: z.array(z.object({ id: ZId, roleCode: z.string(), roleName: z.string() })),
});
export type TAudienceOptions = z.infer<typeof ZAudienceOptions>;
