import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ADMIN_USER_STATUS,
  API_KEY_MAX_DAYS,
  API_KEY_PREFIX,
  API_KEY_REVOKE_REASONS,
  COMPANY_STATUS,
  type TApiKey,
  type TApiKeyCreate,
  type TApiKeyCreated,
} from '@blrms/contracts';
import type { ApiKeyAuthenticator, ApiKeyIdentity } from '../../platform/auth/api-key-auth.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, forbidden } from '../../platform/http/app-error.js';
import type { ApiKeyRepository, ApiKeyRow } from './api-key.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** `last used` is written at most this often per key and node, unless the address changes. */
const TOUCH_INTERVAL_MS = 10_000;
const WINDOW_MS = 60_000;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}([0-9a-f]{32})_([A-Za-z0-9_-]{43})$`);

type RevokeReason = (typeof API_KEY_REVOKE_REASONS)[number];

const iso = (time: number) => new Date(time).toISOString();

function reasonOf(value: string | null): RevokeReason | null {
  return (API_KEY_REVOKE_REASONS as readonly string[]).includes(value ?? '')
    ? (value as RevokeReason)
    : null;
}

function permissionsOf(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
}

export interface ApiKeyOptions {
  /** Calls a key may make per minute (per server node). */
  ratePerMinute: number;
}

/**
 * Personal API keys: made by a signed-in user with a subset of what they hold, shown once, stored
 * as the SHA-256 of their secret. The guard authenticates every call with one on the database (no
 * cache), so revoking, freezing the user or freezing the company applies at once on every node.
 */
export class ApiKeyService implements ApiKeyAuthenticator {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly touched = new Map<string, { time: number; ip: string }>();

  constructor(
    private readonly repository: ApiKeyRepository,
    private readonly permissions: PermissionService,
    bus: Bus,
    private readonly clock: Clock,
    private readonly options: ApiKeyOptions,
  ) {
    // Freezing and deleting a user end their sessions; their keys end with them. Revoking (not
    // only refusing) keeps them ended when the user is unfrozen.
    bus.subscribe('auth.sessions-revoked', ({ userId }) => {
      if (userId) void this.revokeIfUserInactive(userId);
    });
    bus.subscribe('auth.user-changed', ({ userId }) => void this.revokeIfUserInactive(userId));
  }

  async create(scope: Scope, input: TApiKeyCreate): Promise<TApiKeyCreated> {
    const now = this.clock();
    const expireTime = Date.parse(input.expireTime);
    if (expireTime <= now) throw new AppError('apiKeyExpiryPast', 400);
    if (expireTime > now + API_KEY_MAX_DAYS * DAY_MS) {
      throw new AppError('apiKeyExpiryTooLate', 400, { days: API_KEY_MAX_DAYS });
    }
    // What the user holds now, never what a key of theirs holds: keys cannot make keys anyway.
    const held = await this.permissions.grantsOf(scope.userId, scope.companyId);
    const codes = [...new Set(input.permissions.map((c) => c.trim()))];
    const missing = codes.find((code) => !held.codes.has(code));
    if (missing !== undefined)
      throw new AppError('apiKeyPermissionNotHeld', 403, { code: missing });

    const id = newId();
    const secret = randomBytes(32).toString('base64url');
    await this.repository.insert({
      id,
      user_id: scope.userId,
      company_id: scope.companyId,
      name: input.name,
      secret_hash: sha256(secret),
      permissions: JSON.stringify(codes.sort()),
      create_time: now,
      expire_time: expireTime,
      revoke_time: null,
      revoke_reason: null,
      last_used_time: null,
      last_used_ip: null,
    });
    const row = await this.repository.byId(id);
    if (!row) throw new AppError('apiKeyNotFound', 404);
    return { apiKey: this.toApiKey(row), key: `${API_KEY_PREFIX}${id}_${secret}` };
  }

  async listOwn(scope: Scope): Promise<TApiKey[]> {
    return (await this.repository.listOfUser(scope.userId)).map((r) => this.toApiKey(r));
  }

  async revokeOwn(scope: Scope, id: string): Promise<void> {
    const row = await this.repository.byId(id);
    if (!row || row.user_id !== scope.userId) throw new AppError('apiKeyNotFound', 404);
    await this.repository.revoke(row.company_id, id, 'user', this.clock());
  }

  /** Keys of the company (of every company for platform administrators). */
  async listAll(scope: Scope, userId: string | undefined): Promise<TApiKey[]> {
    const rows = (await this.isPlatformAdmin(scope))
      ? await this.repository.listOfEveryCompany(userId)
      : await this.repository.listOfCompany(scope.companyId, userId);
    return rows.map((r) => this.toApiKey(r));
  }

  async revokeAny(scope: Scope, id: string): Promise<void> {
    const row = await this.repository.byId(id);
    const visible =
      row && (row.company_id === scope.companyId || (await this.isPlatformAdmin(scope)));
    if (!row || !visible) throw new AppError('apiKeyNotFound', 404);
    const reason = row.user_id === scope.userId ? 'user' : 'admin';
    await this.repository.revoke(row.company_id, id, reason, this.clock());
  }

  async authenticate(key: string, ip: string): Promise<ApiKeyIdentity> {
    const match = KEY_PATTERN.exec(key);
    const row = match ? await this.repository.forAuthentication(match[1]!) : undefined;
    // Compared in constant time, so the answer's timing says nothing about the stored hash.
    const presented = Buffer.from(sha256(match?.[2] ?? ''), 'hex');
    const stored = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
    const secretOk = stored.length === presented.length && timingSafeEqual(stored, presented);
    if (!row || !secretOk) throw new AppError('apiKeyInvalid', 401);

    const now = this.clock();
    if (row.userDeleted !== 0 || row.userStatus === ADMIN_USER_STATUS.frozen) {
      // The bus event may not have reached this node: the key is revoked here all the same.
      await this.repository.revokeIfUserInactive(row.userId, now);
      throw row.userDeleted !== 0
        ? new AppError('apiKeyRevoked', 401)
        : new AppError('userFrozen', 401);
    }
    if (row.revokeTime !== null) throw new AppError('apiKeyRevoked', 401);
    if (row.expireTime <= now)
      throw new AppError('apiKeyExpired', 401, { time: iso(row.expireTime) });
    if (row.userStatus !== 1) throw new AppError('apiKeyInvalid', 401);
    if (row.companyStatus !== COMPANY_STATUS.active) throw new AppError('apiKeyCompanyFrozen', 403);
    if (!(await this.repository.isMember(row.userId, row.companyId)))
      throw forbidden('companyDenied');

    const last = this.touched.get(row.id);
    if (!last || last.ip !== ip || now - last.time >= TOUCH_INTERVAL_MS) {
      this.touched.set(row.id, { time: now, ip });
      await this.repository.touch(row.companyId, row.id, now, ip);
    }
    return {
      keyId: row.id,
      name: row.name,
      userId: row.userId,
      username: row.username,
      companyId: row.companyId,
      orgCode: row.orgCode,
      permissions: new Set(permissionsOf(row.permissions)),
    };
  }

  /** A fixed one-minute window per key on this node. */
  consume(keyId: string): number {
    const now = this.clock();
    let window = this.windows.get(keyId);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.windows.size >= 100_000) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
    }
    window.count += 1;
    if (window.count <= this.options.ratePerMinute) return 0;
    return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  }

  private async revokeIfUserInactive(userId: string): Promise<void> {
    // A failure here is not lost: the guard revokes the keys of an inactive user on their next use.
    await this.repository.revokeIfUserInactive(userId, this.clock()).catch(() => undefined);
  }

  private async isPlatformAdmin(scope: Scope): Promise<boolean> {
    return (await this.permissions.grantsIn(scope)).platformAdmin;
  }

  private toApiKey(row: ApiKeyRow): TApiKey {
    const now = this.clock();
    const status =
      row.revoke_time !== null ? 'revoked' : row.expire_time <= now ? 'expired' : 'active';
    return {
      id: row.id,
      name: row.name,
      prefix: `${API_KEY_PREFIX}${row.id}`,
      permissions: permissionsOf(row.permissions),
      status,
      revokeReason: reasonOf(row.revoke_reason),
      userId: row.user_id,
      username: row.username,
      createTime: iso(row.create_time),
      expireTime: iso(row.expire_time),
      revokeTime: row.revoke_time === null ? null : iso(row.revoke_time),
      lastUsedTime: row.last_used_time === null ? null : iso(row.last_used_time),
      lastUsedIp: row.last_used_ip,
    };
  }
}
