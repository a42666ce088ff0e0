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
import type { SysUserTable } from '../../platform/db/schema.js';
import { AppError, forbidden, unauthorized } from '../../platform/http/app-error.js';
import { weakPasswordReason } from './password-policy.js';
import type { UserRepository } from './user.repository.js';

export type UserRow = SysUserTable;

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
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  findForLogin(username: string): Promise<UserRow | undefined> {
    return this.repository.findByUsername(username);
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
    await this.repository.setPasswordHash(
      user.id,
      await this.hasher.hash(input.password),
      this.clock(),
    );
    await this.sessions.revokeAllOf(user.id);
  }

  private async requireUser(scope: Scope): Promise<UserRow> {
    const user = await this.repository.findById(scope.userId);
    if (!user) throw unauthorized();
    return user;
  }
}
