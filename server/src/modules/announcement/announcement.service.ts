import {
  ANNOUNCEMENT_CATEGORY,
  ANNOUNCEMENT_SEND_STATUS,
  BELL_LIST_SIZE,
  type TAnnouncement,
  type TAnnouncementAudience,
  type TAnnouncementCreate,
  type TAnnouncementEdit,
  type TAnnouncementPage,
  type TAnnouncementPriority,
  type TAnnouncementQuery,
  type TAudienceDepart,
  type TAudienceOptions,
  type TListByUser,
  type TUserAnnouncement,
  type TUserAnnouncementPage,
  type TUserAnnouncementQuery,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysAnnouncementTable } from '../../platform/db/schema.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import type { AnnouncementRepository } from './announcement.repository.js';
import { sanitizeRichText } from './sanitize.rules.js';
import {
  renderStored,
  renderSystemMessage,
  type RenderedTexts,
  type SystemMessageCode,
  type SystemMessageParams,
} from './system-messages.rules.js';
import { pageResult } from '../../platform/http/paging.js';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());
const epoch = (time: string | null | undefined) => (time ? Date.parse(time) : null);
const ids = (joined: string) => (joined ? joined.split(',') : []);

/** The 去处理 button opens it: web addresses and console paths only, never `javascript:`. */
const SAFE_URL = /^(https?:\/\/|\/(?!\/))/i;

const AUDIENCE_FIELD = { user: 'userIds', depart: 'departIds', role: 'roleIds' } as const;

type InboxRow = {
  id: string;
  titile: string;
  msg_content: string;
  sender: string | null;
  send_time: number | null;
  priority: string;
  msg_category: string;
  open_type: string | null;
  open_page: string | null;
  bus_id: string | null;
  create_time: number;
  msg_code: string | null;
  msg_params: string | null;
  send_id: string;
  read_flag: number;
  read_time: number | null;
};

function toUserAnnouncement(row: InboxRow, lang: Lang): TUserAnnouncement {
  const text = renderStored(row, lang);
  return {
    id: row.id,
    sendId: row.send_id,
    titile: text.title,
    msgContent: text.content,
    sender: row.sender,
    sendTime: iso(row.send_time),
    priority: row.priority as TAnnouncementPriority,
    msgCategory: row.msg_category as TUserAnnouncement['msgCategory'],
    openType: row.open_type as TUserAnnouncement['openType'],
    openPage: row.open_page,
    busId: row.bus_id,
    readFlag: row.read_flag === 1 ? '1' : '0',
    readTime: iso(row.read_time),
    createTime: new Date(row.create_time).toISOString(),
  };
}

function toAnnouncement(
  row: SysAnnouncementTable & { recipients?: number | string | null; read_count?: number | null },
  lang: Lang,
): TAnnouncement {
  const audience = row.msg_type as TAnnouncementAudience;
  const chosen = ids(row.audience_ids);
  const text = renderStored(row, lang);
  return {
    id: row.id,
    titile: text.title,
    msgContent: text.content,
    priority: row.priority as TAnnouncementPriority,
    msgCategory: row.msg_category as TAnnouncement['msgCategory'],
    msgType: audience,
    userIds: audience === 'user' ? chosen : [],
    departIds: audience === 'depart' ? chosen : [],
    roleIds: audience === 'role' ? chosen : [],
    openType: row.open_type as TAnnouncement['openType'],
    openPage: row.open_page,
    busId: row.bus_id,
    startTime: iso(row.start_time),
    endTime: iso(row.end_time),
    sendStatus: row.send_status as TAnnouncement['sendStatus'],
    sender: row.sender,
    sendTime: iso(row.send_time),
    cancelTime: iso(row.cancel_time),
    createTime: new Date(row.create_time).toISOString(),
    recipients: Number(row.recipients ?? 0),
    readCount: Number(row.read_count ?? 0),
  };
}

/** The title in each language, for the websocket message of each recipient's console. */
type Titles = Record<Lang, string>;
const NO_TITLE: Titles = { 'zh-CN': '', 'en-US': '' };

function titlesOf(row: Parameters<typeof renderStored>[0]): Titles {
  return {
    'zh-CN': renderStored(row, 'zh-CN').title,
    'en-US': renderStored(row, 'en-US').title,
  };
}

/** What another module gives to send a message from the platform itself. */
export interface SystemMessage {
  companyId: string;
  /** Recipients by user id; combined with `roles`. */
  userIds?: string[];
  /** Recipients by role code of the company (e.g. `admin`). */
  roles?: string[];
  /** What it says, rendered in each reader's language when read. */
  code: SystemMessageCode;
  params: SystemMessageParams;
  priority: TAnnouncementPriority;
  openType?: 'url' | 'component' | null;
  openPage?: string | null;
  busId?: string | null;
}

/** What the message center gives: a template rendered in both languages (`code` its code). */
export interface RenderedSystemMessage extends Omit<SystemMessage, 'code' | 'params'> {
  code: string;
  texts: RenderedTexts;
}

/**
 * Announcements (spec sections 2, 3, 4): drafts, publishing to an audience (one delivery row per
 * recipient), revoking, and each user's read state. Publishing tells the recipients' sockets on
 * every node through the bus.
 */
export class AnnouncementService {
  constructor(
    private readonly repository: AnnouncementRepository,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TAnnouncementQuery, lang: Lang): Promise<TAnnouncementPage> {
    const { records, total } = await this.repository.page(scope.companyId, query, query);
    return pageResult(
      records.map((row) => toAnnouncement(row, lang)),
      total,
      query,
    );
  }

  async get(scope: Scope, id: string, lang: Lang): Promise<TAnnouncement> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('announcementNotFound');
    return toAnnouncement(row, lang);
  }

  async add(scope: Scope, input: TAnnouncementCreate, lang: Lang): Promise<TAnnouncement> {
    const row: SysAnnouncementTable = {
      id: newId(),
      company_id: scope.companyId,
      ...(await this.checkedFields(scope.companyId, input)),
      send_status: ANNOUNCEMENT_SEND_STATUS.draft,
      sender: null,
      send_time: null,
      cancel_time: null,
      del_flag: 0,
      create_by: scope.username,
      create_time: this.clock(),
      update_time: null,
      msg_code: null,
      msg_params: null,
    };
    await this.repository.insert(row);
    return toAnnouncement(row, lang);
  }

  async edit(scope: Scope, input: TAnnouncementEdit, lang: Lang): Promise<TAnnouncement> {
    const { id, ...fields } = input;
    const existing = await this.repository.find(scope.companyId, id);
    if (!existing) throw notFound('announcementNotFound');
    if (existing.send_status !== ANNOUNCEMENT_SEND_STATUS.draft) {
      throw new AppError('announcementNotDraft', 409);
    }
    const changes = {
      ...(await this.checkedFields(scope.companyId, fields)),
      update_time: this.clock(),
    };
    await this.repository.update(scope.companyId, id, changes);
    return toAnnouncement({ ...existing, ...changes }, lang);
  }

  async delete(scope: Scope, ids: string[]): Promise<void> {
    const recipients = await Promise.all(
      ids.map(async (id) => ({
        id,
        users: await this.repository.recipientsOf(scope.companyId, id),
      })),
    );
    const deleted = await this.repository.delete(scope.companyId, ids);
    if (deleted === 0) throw notFound('announcementNotFound');
    for (const { id, users } of recipients) {
      if (users.length > 0) await this.notify(scope.companyId, id, NO_TITLE, 'revoke', users);
    }
  }

  /** `doReleaseData`: makes the delivery rows and tells the recipients' consoles. */
  async release(scope: Scope, id: string): Promise<void> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('announcementNotFound');
    if (row.send_status !== ANNOUNCEMENT_SEND_STATUS.draft) {
      throw new AppError('announcementNotDraft', 409);
    }
    await this.publish(row, scope.username);
  }

  /** `doReovkeData` (the spelling is the contract): recipients no longer see it. */
  async revoke(scope: Scope, id: string): Promise<void> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('announcementNotFound');
    if (!(await this.repository.revoke(scope.companyId, id, this.clock()))) {
      throw new AppError('announcementNotPublished', 409);
    }
    const users = await this.repository.recipientsOf(scope.companyId, id);
    await this.notify(
      scope.companyId,
      id,
      titlesOf(row),
      'revoke',
      row.msg_type === 'all' ? null : users,
    );
  }

  /**
   * A message from the platform itself (device offline, campaign finished, configuration failed):
   * published at once to the given users and roles of the company, as a system message.
   */
  async sendSystemMessage(input: SystemMessage): Promise<string> {
    // The stored text is the Chinese rendering: the title filter searches it.
    return this.sendSystem(input, renderSystemMessage(input.code, input.params, 'zh-CN'), {
      code: input.code,
      params: JSON.stringify(input.params),
    });
  }

  /**
   * A system message the message center rendered from a template in both languages: each reader
   * reads their language, like the platform's coded messages.
   */
  async sendRenderedMessage(input: RenderedSystemMessage): Promise<string> {
    const texts: RenderedTexts = {
      'zh-CN': { ...input.texts['zh-CN'], content: sanitizeRichText(input.texts['zh-CN'].content) },
      'en-US': { ...input.texts['en-US'], content: sanitizeRichText(input.texts['en-US'].content) },
    };
    return this.sendSystem(input, texts['zh-CN'], {
      code: input.code,
      params: JSON.stringify({ texts }),
    });
  }

  private async sendSystem(
    input: Omit<SystemMessage, 'code' | 'params'>,
    text: { title: string; content: string },
    stored: { code: string; params: string },
  ): Promise<string> {
    const roleIds = await this.repository.roleIdsByCode(input.companyId, input.roles ?? []);
    const byRole = await this.repository.recipients(input.companyId, 'role', roleIds);
    const byId = await this.repository.recipients(input.companyId, 'user', input.userIds ?? []);
    const users = [...new Set([...byRole, ...byId])];
    const row: SysAnnouncementTable = {
      id: newId(),
      company_id: input.companyId,
      titile: text.title,
      msg_content: sanitizeRichText(text.content),
      priority: input.priority,
      msg_category: ANNOUNCEMENT_CATEGORY.system,
      msg_type: 'user',
      audience_ids: users.join(','),
      open_type: input.openType ?? null,
      open_page: input.openPage ?? null,
      bus_id: input.busId ?? null,
      start_time: null,
      end_time: null,
      send_status: ANNOUNCEMENT_SEND_STATUS.draft,
      sender: null,
      send_time: null,
      cancel_time: null,
      del_flag: 0,
      create_by: null,
      create_time: this.clock(),
      update_time: null,
      msg_code: stored.code,
      msg_params: stored.params,
    };
    await this.repository.insert(row);
    await this.publish(row, null);
    return row.id;
  }

  async listByUser(scope: Scope, lang: Lang): Promise<TListByUser> {
    const now = this.clock();
    const [annt, sys] = await Promise.all([
      this.repository.unread(
        scope.companyId,
        scope.userId,
        now,
        ANNOUNCEMENT_CATEGORY.announcement,
        BELL_LIST_SIZE,
      ),
      this.repository.unread(
        scope.companyId,
        scope.userId,
        now,
        ANNOUNCEMENT_CATEGORY.system,
        BELL_LIST_SIZE,
      ),
    ]);
    const read = (row: InboxRow) => toUserAnnouncement(row, lang);
    return {
      anntMsgList: annt.records.map(read),
      anntMsgTotal: annt.total,
      sysMsgList: sys.records.map(read),
      sysMsgTotal: sys.total,
    };
  }

  async myAnnouncements(
    scope: Scope,
    query: TUserAnnouncementQuery,
    lang: Lang,
  ): Promise<TUserAnnouncementPage> {
    const { records, total } = await this.repository.inboxPage(
      scope.companyId,
      scope.userId,
      this.clock(),
      {
        titile: query.titile,
        msgCategory: query.msgCategory,
        priority: query.priority,
        readFlag: query.readFlag === undefined ? undefined : Number(query.readFlag),
      },
      query,
    );
    return pageResult(
      records.map((row) => toUserAnnouncement(row, lang)),
      total,
      query,
    );
  }

  /** Only an announcement addressed to the caller; anything else is "not found". */
  async queryForUser(scope: Scope, anntId: string, lang: Lang): Promise<TUserAnnouncement> {
    const row = await this.repository.inboxEntry(
      scope.companyId,
      scope.userId,
      this.clock(),
      anntId,
    );
    if (!row) throw notFound('announcementNotFound');
    return toUserAnnouncement(row, lang);
  }

  async markRead(scope: Scope, anntId: string): Promise<void> {
    const now = this.clock();
    const row = await this.repository.inboxEntry(scope.companyId, scope.userId, now, anntId);
    if (!row) throw notFound('announcementNotFound');
    await this.repository.markRead(scope.companyId, scope.userId, anntId, now);
    // The user's other tabs update their bells too.
    await this.notify(scope.companyId, anntId, titlesOf(row), 'read', [scope.userId]);
  }

  async markAllRead(scope: Scope): Promise<void> {
    const changed = await this.repository.markAllRead(scope.companyId, scope.userId, this.clock());
    if (changed > 0) await this.notify(scope.companyId, '', NO_TITLE, 'read', [scope.userId]);
  }

  async audienceOptions(scope: Scope, lang: Lang): Promise<TAudienceOptions> {
    const [users, departs, roles] = await Promise.all([
      this.repository.audienceUsers(scope.companyId),
      this.repository.audienceDeparts(scope.companyId),
      this.repository.audienceRoles(scope.companyId),
    ]);
    const english = lang === 'en-US';
    const nodes = new Map<string, TAudienceDepart>(
      departs.map((d) => [
        d.id,
        {
          id: d.id,
          title: (english && d.depart_name_en) || d.depart_name,
          orgCode: d.org_code,
          children: [],
        },
      ]),
    );
    const roots: TAudienceDepart[] = [];
    for (const d of departs) {
      const node = nodes.get(d.id);
      const parent = d.parent_id ? nodes.get(d.parent_id) : undefined;
      if (!node) continue;
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return {
      users,
      departs: roots,
      roles: roles.map((r) => ({
        id: r.id,
        roleCode: r.role_code,
        roleName: (english && r.role_name_en) || r.role_name,
      })),
    };
  }

  private async publish(row: SysAnnouncementTable, sender: string | null) {
    const audience = row.msg_type as TAnnouncementAudience;
    const published = await this.repository.publish(
      row.company_id,
      row.id,
      { send_status: ANNOUNCEMENT_SEND_STATUS.published, sender, send_time: this.clock() },
      { kind: audience, ids: ids(row.audience_ids) },
    );
    if (!published) throw new AppError('announcementNotDraft', 409);
    const users =
      audience === 'all' ? null : await this.repository.recipientsOf(row.company_id, row.id);
    await this.notify(row.company_id, row.id, titlesOf(row), 'publish', users);
  }

  /** `userIds` null: every user of the company (a `topic` message); else those users only. */
  private async notify(
    companyId: string,
    msgId: string,
    msgTxt: Titles,
    cmd: 'publish' | 'revoke' | 'read',
    userIds: string[] | null,
  ) {
    await this.bus.publish('notice.delivered', { companyId, userIds, msgId, msgTxt, cmd });
  }

  /** Sanitizes the content and checks that every chosen recipient belongs to the company. */
  private async checkedFields(
    companyId: string,
    input: Omit<TAnnouncementCreate, 'id'>,
  ): Promise<
    Pick<
      SysAnnouncementTable,
      | 'titile'
      | 'msg_content'
      | 'priority'
      | 'msg_category'
      | 'msg_type'
      | 'audience_ids'
      | 'open_type'
      | 'open_page'
      | 'bus_id'
      | 'start_time'
      | 'end_time'
    >
  > {
    const startTime = epoch(input.startTime);
    const endTime = epoch(input.endTime);
    if (startTime !== null && endTime !== null && endTime <= startTime) {
      throw new AppError('announcementTimeRange', 400);
    }
    if (input.openType && !input.openPage) throw new AppError('announcementOpenPage', 400);
    if (input.openType === 'url' && !SAFE_URL.test(input.openPage ?? '')) {
      throw new AppError('announcementOpenPage', 400);
    }
    let chosen: string[] = [];
    if (input.msgType !== 'all') {
      const field = AUDIENCE_FIELD[input.msgType];
      chosen = [...new Set(input[field])];
      if (chosen.length === 0) throw new AppError('announcementAudienceEmpty', 400, { field });
      const owned = await this.repository.countOwned(companyId, input.msgType, chosen);
      if (owned !== chosen.length)
        throw new AppError('announcementAudienceInvalid', 400, { field });
    }
    return {
      titile: input.titile,
      msg_content: sanitizeRichText(input.msgContent),
      priority: input.priority,
      msg_category: input.msgCategory,
      msg_type: input.msgType,
      audience_ids: chosen.join(','),
      open_type: input.openType,
      open_page: input.openType ? input.openPage : null,
      bus_id: input.busId,
      start_time: startTime,
      end_time: endTime,
    };
  }
}
