import type { TForceLogout, TOnlineUserPage, TOnlineUserQuery } from '@blrms/contracts';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import { AppError, forbidden } from '../../platform/http/app-error.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * 在线用户: the sessions that can still be used, of every company, and force logout, which ends a
 * session on every node (its token stops resolving and its console sockets close). Platform
 * administrators only.
 */
export class OnlineUserService {
  constructor(
    private readonly sessions: SessionService,
    private readonly permissions: PermissionService,
  ) {}

  async list(scope: Scope, query: TOnlineUserQuery): Promise<TOnlineUserPage> {
    await this.requirePlatformAdmin(scope);
    const { total, rows } = await this.sessions.listLive({
      username: query.username || undefined,
      offset: (query.pageNo - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return {
      records: rows.map((row) => ({
        id: row.id,
        userId: row.userId,
        username: row.username,
        realname: row.realname,
        companyId: row.companyId,
        companyName: row.companyName,
        ip: row.ip,
        userAgent: row.userAgent,
        loginTime: iso(row.createTime),
        lastSeen: row.lastSeenTime === null ? null : iso(row.lastSeenTime),
        expireTime: iso(row.expireTime),
        current: row.id === scope.sessionId,
      })),
      total,
      size: query.pageSize,
      current: query.pageNo,
      pages: Math.ceil(total / query.pageSize),
    };
  }

  async forceLogout(scope: Scope, input: TForceLogout): Promise<void> {
    await this.requirePlatformAdmin(scope);
    if (input.id === scope.sessionId) throw new AppError('onlineOwnSession', 400);
    if (!(await this.sessions.revokeById(input.id))) {
      throw new AppError('onlineSessionNotFound', 404);
    }
  }

  private async requirePlatformAdmin(scope: Scope): Promise<void> {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }
}
