import {
  DATA_RULE_COLUMNS,
  type TDataRulePermission,
  type TRole,
  type TRoleAdd,
  type TRoleDataRules,
  type TRoleEdit,
  type TRolePage,
  type TRoleQuery,
  type TSaveRoleDataRule,
  type TSaveRolePermission,
} from '@blrms/contracts';
import type { DataRuleService } from '../../platform/auth/data-rules.js';
import type { Grants, PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/db/ids.js';
import type { SysRoleTable } from '../../platform/db/schema.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import { toDataRule } from '../permission/permission-admin.service.js';
import type { RoleRepository } from './role.repository.js';
import { pageResult } from '../../platform/http/paging.js';

/** The role that makes its holders the company's administrators (the platform's: of everything). */
export const ADMIN_ROLE_CODE = 'admin';

/** Users checked for a rule that other roles make void (the warning is about any, not all). */
const BYPASS_CHECK_MAX = 200;

/** More affected users than this and every cached grant is dropped at once. */
const PER_USER_EVENTS_MAX = 200;

function toRole(row: SysRoleTable): TRole {
  return {
    id: row.id,
    companyId: row.company_id,
    roleCode: row.role_code,
    roleName: row.role_name,
    roleNameEn: row.role_name_en,
    description: row.description,
    createTime: new Date(Number(row.create_time)).toISOString(),
  };
}

/**
 * Roles of a company and what they grant. Roles are tenant rows: another company's role is not
 * found. A caller who is not a platform administrator can only hand out, or take back,
 * permissions they hold themselves.
 */
export class RoleService {
  constructor(
    private readonly repository: RoleRepository,
    private readonly permissions: PermissionService,
    private readonly ruleResolver: DataRuleService,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  /** Of `roleIds`, those of the company (`found`), and the users holding them (alarm receivers). */
  async usersOfRoles(
    companyId: string,
    roleIds: readonly string[],
  ): Promise<{ found: string[]; userIds: string[] }> {
    if (roleIds.length === 0) return { found: [], userIds: [] };
    const rows = await this.repository.members(companyId, roleIds);
    return {
      found: [...new Set(rows.map((r) => r.roleId))],
      userIds: [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))],
    };
  }

  /**
   * A new company's `admin` role with its grants, inside the transaction that creates the
   * company.
   */
  async addCompanyAdminRole(
    role: { id: string; companyId: string; permissionIds: string[]; now: number },
    trx: Db,
  ): Promise<void> {
    await this.repository.insertWithGrants(
      {
        id: role.id,
        company_id: role.companyId,
        role_code: 'admin',
        role_name: '管理员',
        role_name_en: 'Administrator',
        description: null,
        create_time: role.now,
      },
      role.permissionIds,
      trx,
    );
  }

  /**
   * The user's roles of the company become `roleIds` (the user form), inside the caller's
   * transaction; the caller has checked the roles and the caller's right to hand them out.
   */
  async setUserRoles(
    user: { userId: string; companyId: string; roleIds: string[] },
    trx: Db,
  ): Promise<void> {
    await this.repository.setUserRoles(user.userId, user.companyId, user.roleIds, trx);
  }

  async list(scope: Scope, query: TRoleQuery): Promise<TRolePage> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    const counts = await this.repository.userCounts(records.map((r) => r.id));
    return pageResult(
      records.map((r) => ({ ...toRole(r), userCount: counts.get(r.id) ?? 0 })),
      total,
      query,
    );
  }

  async all(scope: Scope, companyId: string | undefined): Promise<TRole[]> {
    if (companyId && companyId !== scope.companyId && !(await this.grants(scope)).platformAdmin) {
      throw forbidden('adminPlatformOnly');
    }
    return (await this.repository.all(companyId ?? scope.companyId)).map(toRole);
  }

  async byId(scope: Scope, id: string): Promise<TRole> {
    return toRole(await this.role(scope, id));
  }

  async add(scope: Scope, input: TRoleAdd): Promise<TRole> {
    if (await this.repository.codeTaken(scope.companyId, input.roleCode, undefined)) {
      throw new AppError('adminRoleCodeTaken', 409);
    }
    const row: SysRoleTable = {
      id: newId(),
      company_id: scope.companyId,
      role_code: input.roleCode,
      role_name: input.roleName,
      role_name_en: input.roleNameEn ?? null,
      description: input.description ?? null,
      create_time: this.clock(),
    };
    await this.repository.insert(row);
    return toRole(row);
  }

  async edit(scope: Scope, input: TRoleEdit): Promise<void> {
    const role = await this.role(scope, input.id);
    if (role.role_code === ADMIN_ROLE_CODE && input.roleCode !== ADMIN_ROLE_CODE) {
      throw new AppError('adminRoleProtected', 400);
    }
    if (await this.repository.codeTaken(scope.companyId, input.roleCode, role.id)) {
      throw new AppError('adminRoleCodeTaken', 409);
    }
    await this.repository.update(scope.companyId, role.id, {
      role_code: input.roleCode,
      role_name: input.roleName,
      role_name_en: input.roleNameEn ?? null,
      description: input.description ?? null,
    });
  }

  async remove(scope: Scope, ids: string[]): Promise<void> {
    const roles = [];
    for (const id of new Set(ids)) roles.push(await this.role(scope, id));
    if (roles.some((r) => r.role_code === ADMIN_ROLE_CODE)) {
      throw new AppError('adminRoleProtected', 400);
    }
    const grants = await this.grants(scope);
    if (!grants.platformAdmin) {
      const held = await this.repository.grantsOf(roles.map((r) => r.id));
      if (held.some((g) => !grants.ids.has(g.permission_id))) {
        throw forbidden('adminPermissionNotHeld');
      }
    }
    const users = await this.repository.userIdsOf(roles.map((r) => r.id));
    const roleIds = roles.map((r) => r.id);
    await this.repository.delete(scope.companyId, roleIds);
    await this.permissionsChanged(users, roleIds);
  }

  async permissionIds(scope: Scope, roleId: string): Promise<string[]> {
    const role = await this.role(scope, roleId);
    return (await this.repository.grantsOf([role.id])).map((g) => g.permission_id);
  }

  /**
   * Sets what the role grants. Permissions the caller does not hold must stay as they are: a
   * company administrator can neither hand them out nor take them away.
   */
  async savePermissions(scope: Scope, input: TSaveRolePermission): Promise<void> {
    const role = await this.role(scope, input.roleId);
    const grants = await this.grants(scope);
    const wanted = [...new Set(input.permissionIds)];
    const live = await this.repository.livePermissionIds(wanted, role.company_id);
    if (wanted.some((id) => !live.has(id))) {
      throw new AppError('adminUnknownPermission', 400, { field: 'permissionIds' });
    }
    if (!grants.platformAdmin) {
      if (role.role_code === ADMIN_ROLE_CODE) throw forbidden('adminRoleProtected');
      const before = new Set(
        (await this.repository.grantsOf([role.id])).map((g) => g.permission_id),
      );
      const after = new Set(wanted);
      const changed = [
        ...[...before].filter((id) => !after.has(id)),
        ...wanted.filter((id) => !before.has(id)),
      ];
      if (changed.some((id) => !grants.ids.has(id))) throw forbidden('adminPermissionNotHeld');
    }
    await this.repository.replaceGrants(role.id, wanted);
    await this.permissionsChanged(await this.repository.userIdsOf([role.id]), [role.id]);
  }

  async dataRules(scope: Scope, roleId: string, permissionId: string): Promise<TRoleDataRules> {
    const role = await this.role(scope, roleId);
    const grant = (await this.repository.grantsOf([role.id])).find(
      (g) => g.permission_id === permissionId,
    );
    const rules = await this.repository.rulesOf(permissionId);
    return {
      datarule: rules.map(toDataRule),
      drChecked: grant?.data_rule_ids ? grant.data_rule_ids.split(',') : [],
    };
  }

  /**
   * Sets the rules the role's grant of a permission carries. Answers how many of the role's users
   * the rules still leave unrestricted, because another of their roles grants the same code
   * without a rule (roles combine with OR): the console warns instead of a silent bypass.
   */
  async saveDataRules(scope: Scope, input: TSaveRoleDataRule): Promise<number> {
    const role = await this.role(scope, input.roleId);
    const grant = (await this.repository.grantsOf([role.id])).find(
      (g) => g.permission_id === input.permissionId,
    );
    if (!grant) throw new AppError('adminRuleNotGranted', 400);
    const grants = await this.grants(scope);
    if (!grants.platformAdmin && !grants.ids.has(input.permissionId)) {
      throw forbidden('adminPermissionNotHeld');
    }
    const ruleIds = new Set((await this.repository.rulesOf(input.permissionId)).map((r) => r.id));
    const chosen = [...new Set(input.dataRuleIds)];
    if (chosen.some((id) => !ruleIds.has(id))) {
      throw new AppError('adminUnknownRule', 400, { field: 'dataRuleIds' });
    }
    await this.repository.setDataRules(
      role.id,
      input.permissionId,
      chosen.length > 0 ? chosen.join(',') : null,
    );
    const users = await this.repository.userIdsOf([role.id]);
    await this.permissionsChanged(users);
    if (chosen.length === 0) return 0;
    const codes = (await this.repository.permsOf(input.permissionId)).filter(
      (code): code is TDataRulePermission => code in DATA_RULE_COLUMNS,
    );
    let bypassed = 0;
    for (const userId of users.slice(0, BYPASS_CHECK_MAX)) {
      for (const code of codes) {
        if (await this.ruleResolver.unrestricted(userId, role.company_id, code)) {
          bypassed += 1;
          break;
        }
      }
    }
    return bypassed;
  }

  private grants(scope: Scope): Promise<Grants> {
    return this.permissions.grantsIn(scope);
  }

  private async role(scope: Scope, id: string): Promise<SysRoleTable> {
    const role = await this.repository.findById(scope.companyId, id);
    if (!role) throw notFound();
    return role;
  }

  /**
   * Every node drops what it cached of the roles whose grants changed (`roleIds`: what they grant
   * changed, or they are gone), then the affected users' cached grants and data rules; their next
   * request sees the change. The roles' own event comes first: the users' events only say that
   * the users are affected, not again that the roles changed.
   */
  private async permissionsChanged(userIds: string[], roleIds: string[] = []): Promise<void> {
    if (roleIds.length > 0) await this.bus.publish('auth.roles-changed', { roleIds });
    if (userIds.length > PER_USER_EVENTS_MAX) {
      await this.bus.publish('auth.permissions-changed', {});
      return;
    }
    for (const userId of userIds) {
      await this.bus.publish('auth.permissions-changed', { userId, rolesUnchanged: true });
    }
  }
}
