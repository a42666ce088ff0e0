import type {
  TCurrentUserDeparts,
  TDepart,
  TUserInfo,
  TUpdatePasswordRequest,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { SysUserTable } from '../../platform/db/schema.js';
import { AppError, forbidden, unauthorized } from '../../platform/http/app-error.js';
import type { DepartService } from '../depart/depart.service.js';
import type { RoleService } from '../role/role.service.js';
import { weakPasswordReason } from './password-policy.rules.js';
import type { UserLinks, UserRepository } from './user.repository.js';

export type UserRow = SysUserTable;

export type LoginField = 'username' | 'phone' | 'email';

/** A new live user row: the one place that knows a new user's defaults. */
export function newUserRow(
  fields: Omit<SysUserTable, 'avatar' | 'org_code' | 'del_flag' | 'create_by' | 'update_time'> &
    Partial<Pick<SysUserTable, 'org_code' | 'create_by'>>,
): SysUserTable {
  return {
    avatar: null,
    org_code: null,
    del_flag: 0,
    create_by: null,
    update_time: null,
    ...fields,
  };
}

export function toUserInfo(user: UserRow): TUserInfo {
  return {
    id: user.id,
    username: user.username,
    realname: user.realname,
    avatar: user.avatar,
    phone: user.phone,
    email: user.email,
    orgCode: user.org_code,
    companyId: user.company_id,
  };
}

export class UserService {
  constructor(
    private readonly repository: UserRepository,
    private readonly roles: RoleService,
    private readonly departs: DepartService,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  findForLogin(username: string): Promise<UserRow | undefined> {
    return this.repository.findBy('username', username);
  }

  /** A live user by a unique login field (account flows: reset by email or phone). */
  findBy(field: LoginField, value: string): Promise<UserRow | undefined> {
    return this.repository.findBy(field, value);
  }

  /** Whether any user has the value, deleted ones included (their names stay reserved). */
  isTaken(field: LoginField, value: string): Promise<boolean> {
    return this.repository.taken(field, value, undefined);
  }

  /**
   * Creates the user with its links; inside the caller's transaction when `executor` is one (a
   * company is created with its first administrator, all or nothing).
   */
  async create(user: UserRow, links: UserLinks, executor?: Db): Promise<void> {
    await this.repository.insert(
      user,
      links.positionIds,
      (trx) => this.writeOwnedLinks(user.id, user.company_id, links, trx),
      executor,
    );
  }

  /**
   * Changes the user's details and replaces their links inside the company (the user form), all
   * or nothing. The caller has checked that the links are the company's.
   */
  async update(
    id: string,
    fields: Pick<UserRow, 'realname' | 'phone' | 'email' | 'update_time'>,
    links: UserLinks,
    companyId: string,
  ): Promise<void> {
    await this.repository.update(id, fields, links, companyId, (trx) =>
      this.writeOwnedLinks(id, companyId, links, trx),
    );
  }

  /** Stores a new password hash; the caller ends the user's sessions. */
  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.repository.setPasswordHash(userId, passwordHash, this.clock());
  }

  /**
   * The users stop having the department as their current one, inside the caller's transaction
   * (they leave the department).
   */
  async clearCurrentDepart(userIds: string[], orgCode: string, executor: Db): Promise<void> {
    await this.repository.clearCurrentDepart(userIds, orgCode, this.clock(), executor);
  }

  async departsOf(userId: string, companyId: string): Promise<TDepart[]> {
    const rows = await this.repository.departsOf(userId, companyId);
    return rows.map((d) => ({
      id: d.id,
      orgCode: d.org_code,
      departName: d.depart_name,
      departNameEn: d.depart_name_en,
      parentId: d.parent_id,
    }));
  }

  /** The default company comes first: the console acts in the first one after login. */
  async companiesOf(user: UserRow) {
    const companies = await this.repository.companiesOf(user.id, user.company_id);
    return companies.sort(
      (a, b) => Number(b.id === user.company_id) - Number(a.id === user.company_id),
    );
  }

  /** A user with exactly one department works in it without having to choose. */
  async ensureCurrentDepart(user: UserRow, departs: TDepart[]): Promise<UserRow> {
    const only = departs.length === 1 ? departs[0] : undefined;
    if (user.org_code || !only) return user;
    await this.repository.setOrgCode(user.id, only.orgCode, this.clock());
    return { ...user, org_code: only.orgCode };
  }

  async currentUserDeparts(scope: Scope): Promise<TCurrentUserDeparts> {
    const user = await this.requireUser(scope);
    return { list: await this.departsOf(user.id, scope.companyId), orgCode: user.org_code };
  }

  async selectDepart(
    scope: Scope,
    input: { username: string; orgCode: string },
  ): Promise<TUserInfo> {
    if (input.username !== scope.username) throw forbidden('notYourself');
    const departs = await this.departsOf(scope.userId, scope.companyId);
    if (!departs.some((d) => d.orgCode === input.orgCode)) throw forbidden('notYourDepartment');
    await this.repository.setOrgCode(scope.userId, input.orgCode, this.clock());
    await this.bus.publish('auth.user-changed', { userId: scope.userId });
    return toUserInfo(await this.requireUser(scope));
  }

  /** Ends every session of the user, the current one included: a new password means a new login. */
  async updatePassword(scope: Scope, input: TUpdatePasswordRequest): Promise<void> {
    if (input.username !== scope.username) throw forbidden('notYourself');
    const user = await this.requireUser(scope);
    if (!(await this.hasher.verify(user.password_hash, input.oldpassword))) {
      throw new AppError('oldPasswordWrong', 400);
    }
    const reason = weakPasswordReason(input.password, {
      username: user.username,
      oldPassword: input.oldpassword,
    });
    if (reason) throw new AppError('weakPassword', 400, { reason });
    await this.setPasswordHash(user.id, await this.hasher.hash(input.password));
    await this.sessions.revokeAllOf(user.id);
  }

  /** A user's roles and departments are the role and depart modules' rows. */
  private async writeOwnedLinks(
    userId: string,
    companyId: string,
    links: UserLinks,
    trx: Db,
  ): Promise<void> {
    await this.roles.setUserRoles({ userId, companyId, roleIds: links.roleIds }, trx);
    await this.departs.setUserDeparts({ userId, companyId, departIds: links.departIds }, trx);
  }

  private async requireUser(scope: Scope): Promise<UserRow> {
    const user = await this.repository.findById(scope.userId);
    if (!user) throw unauthorized();
    return user;
  }
}
