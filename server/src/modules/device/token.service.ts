import { randomBytes } from 'node:crypto';
import type {
  TDeviceToken,
  TDeviceTokenCreate,
  TDeviceTokenEdit,
  TDeviceTokenQuery,
  TDeviceTokenWithKey,
  TRemovedSn,
  TRemovedSnAllow,
  TRemovedSnQuery,
} from '@blrms/contracts';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import type { DeviceRepository } from './device.repository.js';
import type { TokenRepository } from './token.repository.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CODE_LENGTH = 8;

/** The secret devices log in with: 256 random bits. */
function newTokenKey(): string {
  return randomBytes(32).toString('base64url');
}

/** 40 random bits in base32: short enough for a tag code, never the secret. */
function newTokenCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  return Array.from(bytes, (b) => BASE32[b % 32]).join('');
}

export function maskKey(key: string): string {
  return `${key.slice(0, 4)}${'*'.repeat(8)}${key.slice(-4)}`;
}

type TokenRow = NonNullable<Awaited<ReturnType<TokenRepository['findById']>>>;

function toToken(row: TokenRow): TDeviceToken {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    remark: row.remark,
    tokenKeyMasked: maskKey(row.token_key),
    autoRegister: row.auto_register === 1,
    enabled: row.enabled === 1,
    ownerId: row.owner_id,
    ownerName: row.owner_name,
    deviceCount: Number(row.device_count),
    createTime: iso(row.create_time),
    updateTime: row.update_time === null ? null : iso(row.update_time),
  };
}

/** What devices need of their token: its public code and the owner they inherit. */
export interface TokenForDevices {
  id: string;
  code: string;
  name: string;
  ownerId: string;
  ownerName: string;
  ownerOrgCode: string | null;
}

export class TokenService {
  constructor(
    private readonly repository: TokenRepository,
    /** The removed-SN list is written by the device repository, with the devices. */
    private readonly devices: DeviceRepository,
    private readonly clock: Clock,
    private readonly bus: Bus,
  ) {}

  async list(scope: Scope, query: TDeviceTokenQuery): Promise<Page<TDeviceToken>> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(records.map(toToken), total, query);
  }

  async get(scope: Scope, id: string): Promise<TDeviceToken> {
    return toToken(await this.require(scope.companyId, id));
  }

  /** A token of the caller's company, for devices added or imported with it (404 otherwise). */
  async forDevices(scope: Scope, id: string): Promise<TokenForDevices> {
    const row = await requireAccess(
      this.repository.findById(scope.companyId, id),
      'deviceTokenNotFound',
    );
    return {
      id: row.id,
      code: row.code,
      name: row.name,
      ownerId: row.owner_id,
      ownerName: row.owner_name,
      ownerOrgCode: row.owner_org_code,
    };
  }

  async add(scope: Scope, input: TDeviceTokenCreate): Promise<TDeviceTokenWithKey> {
    const id = newId();
    const tokenKey = newTokenKey();
    let code = newTokenCode();
    while (await this.repository.codeExists(code)) code = newTokenCode();
    await this.repository.insert({
      id,
      company_id: scope.companyId,
      owner_id: scope.userId,
      code,
      name: input.name,
      remark: input.remark ?? null,
      token_key: tokenKey,
      key_hash: sha256(tokenKey),
      auto_register: input.autoRegister ? 1 : 0,
      enabled: 1,
      create_time: this.clock(),
      update_time: null,
    });
    return { ...(await this.get(scope, id)), tokenKey };
  }

  async edit(scope: Scope, input: TDeviceTokenEdit): Promise<TDeviceToken> {
    const updated = await this.repository.update(scope.companyId, input.id, {
      name: input.name,
      ...(input.remark !== undefined ? { remark: input.remark } : {}),
      auto_register: input.autoRegister ? 1 : 0,
      enabled: input.enabled ? 1 : 0,
      update_time: this.clock(),
    });
    if (!updated) throw notFound();
    if (!input.enabled) await this.kick([input.id]);
    return this.get(scope, input.id);
  }

  /** A new key: devices using the old one can no longer log in. */
  async regenerate(scope: Scope, id: string): Promise<{ tokenKey: string }> {
    const tokenKey = newTokenKey();
    const updated = await this.repository.update(scope.companyId, id, {
      token_key: tokenKey,
      key_hash: sha256(tokenKey),
      update_time: this.clock(),
    });
    if (!updated) throw notFound();
    await this.kick([id]);
    return { tokenKey };
  }

  async revealKey(scope: Scope, id: string): Promise<{ tokenKey: string }> {
    return { tokenKey: (await this.require(scope.companyId, id)).token_key };
  }

  /** The SNs deleted from a token, which auto-registration refuses. */
  async removedSns(scope: Scope, query: TRemovedSnQuery): Promise<Page<TRemovedSn>> {
    await this.require(scope.companyId, query.tokenId);
    const { records, total } = await this.repository.removedSns(scope.companyId, query);
    return pageResult(
      records.map((r) => ({ sn: r.sn, removedAt: iso(r.removed_at), removedBy: r.removed_by })),
      total,
      query,
    );
  }

  /** Lets removed SNs register with the token again. */
  async allowSns(scope: Scope, input: TRemovedSnAllow): Promise<number> {
    await this.require(scope.companyId, input.tokenId);
    return this.devices.allowSns(scope.companyId, input.tokenId, [...new Set(input.sns)]);
  }

  /** All or nothing: a token that devices still use is refused with their count. */
  async delete(scope: Scope, ids: string[]): Promise<number> {
    await requireAccessToAll(ids, (unique) => this.repository.existingIds(scope.companyId, unique));
    const inUse = await this.repository.deviceCounts(scope.companyId, ids);
    const count = inUse.reduce((sum, t) => sum + t.count, 0);
    if (count > 0) throw new AppError('deviceTokenInUse', 409, { count });
    const deleted = await this.repository.delete(scope.companyId, ids);
    await this.kick(ids);
    return deleted;
  }

  /** Devices connected with these tokens' keys lose their connections, on every node. */
  private async kick(tokenIds: string[]): Promise<void> {
    await this.bus.publish('device.kick', { tokenIds, reason: 'token-disabled' });
  }

  private require(companyId: string, id: string): Promise<TokenRow> {
    return requireAccess(this.repository.findById(companyId, id));
  }
}
