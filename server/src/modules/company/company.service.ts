import {
  COMPANY_STATUS,
  type TCompany,
  type TCompanyAdd,
  type TCompanyAdmin,
  type TCompanyEdit,
  type TCompanyQuery,
  type TCompanyStatus,
} from '@blrms/contracts';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysCompanyTable } from '../../platform/db/schema.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
// A customer's admin role gets the same grants as a self-registered company's: all but these.
import { PLATFORM_ONLY_PERMS } from '../../db/seed/menu.js';
import type { DepartService } from '../depart/depart.service.js';
import type { RoleService } from '../role/role.service.js';
import { weakPasswordReason } from '../user/password-policy.rules.js';
import { newUserRow, type UserService } from '../user/user.service.js';
import type { CompanyRepository } from './company.repository.js';
import { pageResult } from '../../platform/http/paging.js';

function toCompany(
  row: SysCompanyTable & {
    user_count: number | string | null;
    storage_used: number | string | null;
  },
): TCompany {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    status: row.status,
    isPlatform: row.is_platform === 1,
    userCount: Number(row.user_count ?? 0),
    createTime: new Date(row.create_time).toISOString(),
    storageQuota: row.storage_quota === null ? null : Number(row.storage_quota),
    storageUsed: Number(row.storage_used ?? 0),
  };
}

export interface NewCompanyWithAdmin {
  name: string;
  /** The root department's English name. */
  nameEn: string | null;
  /** The company's own code; its id when omitted. */
  code?: string;
  admin: TCompanyAdd['admin'];
  createBy: string;
}

/** Customers (companies) and their administrators: platform administrators only. */
export class CompanyService {
  constructor(
    private readonly repository: CompanyRepository,
    private readonly permissions: PermissionService,
    private readonly users: UserService,
    private readonly departs: DepartService,
    private readonly roles: RoleService,
    private readonly sessions: SessionService,
    private readonly bus: Bus,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TCompanyQuery) {
    await this.requirePlatformAdmin(scope);
    const { records, total } = await this.repository.page(query, query);
    return pageResult(records.map(toCompany), total, query);
  }

  async byId(scope: Scope, id: string): Promise<TCompany> {
    await this.requirePlatformAdmin(scope);
    return toCompany(await this.requireCompany(id));
  }

  async add(scope: Scope, input: TCompanyAdd): Promise<TCompany> {
    await this.requirePlatformAdmin(scope);
    if (await this.repository.codeTaken(input.code)) throw new AppError('orgCompanyCodeTaken', 409);
    const { admin } = input;
    for (const field of ['username', 'phone', 'email'] as const) {
      const value = admin[field];
      if (value && (await this.users.isTaken(field, value))) {
        throw new AppError('orgAdminTaken', 409, { field });
      }
    }
    const reason = weakPasswordReason(admin.password, {
      username: admin.username,
      oldPassword: '',
    });
    if (reason) throw new AppError('weakPassword', 400, { reason });
    const companyId = await this.createWithAdmin({
      name: input.name,
      nameEn: null,
      code: input.code,
      admin,
      createBy: scope.username,
    });
    return toCompany(await this.requireCompany(companyId));
  }

  /**
   * A company with its root department, its `admin` role (granted all but the platform-only
   * permissions) and its first administrator holding that role. The caller has checked the input
   * (unique code and user fields, password strength). Returns the company id.
   */
  async createWithAdmin(company: NewCompanyWithAdmin): Promise<string> {
    const orgCode = await this.departs.nextRootOrgCode();
    if (!orgCode) throw new AppError('orgCodeExhausted', 409);
    const companyId = newId();
    const roleId = newId();
    const departId = newId();
    const now = this.clock();
    const { admin } = company;
    const firstAdmin = newUserRow({
      id: newId(),
      company_id: companyId,
      username: admin.username,
      realname: admin.realname,
      password_hash: await this.hasher.hash(admin.password),
      phone: admin.phone ?? null,
      email: admin.email ?? null,
      status: 1,
      org_code: orgCode,
      create_by: company.createBy,
      create_time: now,
    });
    const permissionIds = await this.repository.companyAdminPermissionIds(PLATFORM_ONLY_PERMS);
    await this.repository.create(
      { companyId, name: company.name, code: company.code ?? companyId, now },
      async (trx) => {
        await this.departs.addRoot(
          { id: departId, companyId, name: company.name, nameEn: company.nameEn, orgCode, now },
          trx,
        );
        await this.roles.addCompanyAdminRole({ id: roleId, companyId, permissionIds, now }, trx);
        await this.users.create(
          firstAdmin,
          { roleIds: [roleId], departIds: [departId], positionIds: [] },
          trx,
        );
      },
    );
    return companyId;
  }

  async edit(scope: Scope, input: TCompanyEdit): Promise<TCompany> {
    await this.requirePlatformAdmin(scope);
    await this.requireCompany(input.id);
    await this.repository.rename(input.id, input.name, this.clock());
    if (input.storageQuota !== undefined) {
      await this.repository.setStorageQuota(input.id, input.storageQuota, this.clock());
    }
    return toCompany(await this.requireCompany(input.id));
  }

  /**
   * Freezing ends the sessions opened in the company (its users cannot sign in until unfrozen)
   * and closes its devices' connections on every node (they are refused until unfrozen).
   */
  async setStatus(scope: Scope, input: TCompanyStatus): Promise<TCompany> {
    await this.requirePlatformAdmin(scope);
    const company = await this.requireCompany(input.id);
    if (company.is_platform === 1 && input.status === COMPANY_STATUS.frozen) {
      throw new AppError('orgPlatformCompanyFixed', 400);
    }
    await this.repository.setStatus(input.id, input.status, this.clock());
    if (input.status === COMPANY_STATUS.frozen) {
      await this.sessions.endCompany(input.id);
      await this.bus.publish('device.kick', { companyIds: [input.id], reason: 'company-frozen' });
    }
    return toCompany(await this.requireCompany(input.id));
  }

  async admins(scope: Scope, id: string): Promise<TCompanyAdmin[]> {
    await this.requirePlatformAdmin(scope);
    await this.requireCompany(id);
    return this.repository.admins(id);
  }

  /**
   * The permission code alone is not enough: a customer's administrator could be handed it through
   * a role, and must still never see other companies.
   */
  private async requirePlatformAdmin(scope: Scope): Promise<void> {
    if (!(await this.permissions.isPlatformAdmin(scope.userId))) {
      throw forbidden('orgPlatformAdminOnly');
    }
  }

  private async requireCompany(id: string) {
    const company = await this.repository.find(id);
    if (!company) throw notFound();
    return company;
  }
}
