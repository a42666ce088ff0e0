import { randomBytes } from 'node:crypto';
import {
  ADMIN_USER_STATUS,
  ZAdminEmail,
  ZAdminPhone,
  ZUsername,
  type TAdminChangePassword,
  type TAdminUser,
  type TAdminUserAdd,
  type TAdminUserEdit,
  type TAdminUserExportQuery,
  type TAdminUserPage,
  type TAdminUserQuery,
  type TCheckOnlyUserQuery,
  type TUserImportResult,
} from '@blrms/contracts';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { Grants, PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysUserTable } from '../../platform/db/schema.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message } from '../../platform/http/messages.js';
import { weakPasswordReason } from './password-policy.rules.js';
import { newUserRow, type UserService } from './user.service.js';
import type {
  NamedRow,
  UserRepository,
  UserFilter,
  UserLinkRows,
  UserLinks,
} from './user.repository.js';
import { pageResult } from '../../platform/http/paging.js';

/** Rows of an export, and of an import, at most. */
export const USER_FILE_MAX_ROWS = 5000;

type UserRow = SysUserTable & { company_name: string };

const nameIn = (row: NamedRow, lang: Lang) =>
  lang === 'en-US' ? (row.nameEn ?? row.name) : row.name;

/** Who is acting: the caller's scope and grants in the current company. */
interface Actor {
  scope: Scope;
  grants: Grants;
}

export interface ImportRow {
  /** The row's number in the sheet (the header is row 1), for its error. */
  row: number;
  username: string;
  realname: string;
  phone: string;
  email: string;
  status: string;
}

/**
 * Login accounts as administrators manage them. Besides the route's permission code, every
 * change goes through three rules: a company administrator acts only inside their company (other
 * companies' users are not found), never on a user who holds more than they do, and never changes
 * their own roles, status or existence.
 */
export class UserAdminService {
  constructor(
    private readonly repository: UserRepository,
    private readonly users: UserService,
    private readonly permissions: PermissionService,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TAdminUserQuery, lang: Lang): Promise<TAdminUserPage> {
    const actor = await this.actor(scope);
    const { records, total } = await this.repository.page(this.filterOf(actor, query), query);
    return pageResult(await this.toAdminUsers(records, lang), total, query);
  }

  async exportRows(scope: Scope, query: TAdminUserExportQuery, lang: Lang) {
    const actor = await this.actor(scope);
    const rows = await this.repository.all(this.filterOf(actor, query), USER_FILE_MAX_ROWS);
    return this.toAdminUsers(rows, lang);
  }

  async queryUserRole(scope: Scope, userId: string): Promise<string[]> {
    const actor = await this.actor(scope);
    const user = await this.target(actor, userId);
    return (await this.repository.linksOf([user.id])).get(user.id)?.roles.map((r) => r.id) ?? [];
  }

  async usersOfDepart(scope: Scope, departId: string, lang: Lang): Promise<TAdminUser[]> {
    const owned = await this.repository.ownedIds('sys_depart', scope.companyId, [departId]);
    if (!owned.has(departId)) throw notFound();
    return this.toAdminUsers(await this.repository.usersOfDepart(departId, scope.companyId), lang);
  }

  /** Throws the duplicate message of the first taken field; passes when nothing is taken. */
  async checkOnly(query: TCheckOnlyUserQuery): Promise<void> {
    await this.assertUnique(query, query.id);
  }

  async add(scope: Scope, input: TAdminUserAdd, lang: Lang): Promise<TAdminUser> {
    const actor = await this.actor(scope);
    const companyId = input.companyId ?? scope.companyId;
    if (companyId !== scope.companyId) {
      if (!actor.grants.platformAdmin) throw forbidden('adminPlatformOnly');
      if (!(await this.repository.company(companyId))) {
        throw new AppError('adminNotInCompany', 400, { field: 'companyId' });
      }
    }
    await this.assertUnique(input, undefined);
    this.assertStrongPassword(input.password, input.username);
    const links = await this.checkedLinks(companyId, input);
    await this.assertMayAssign(actor, links.roleIds);

    const now = this.clock();
    const id = newId();
    await this.users.create(
      newUserRow({
        id,
        company_id: companyId,
        username: input.username,
        realname: input.realname,
        password_hash: await this.hasher.hash(input.password),
        phone: input.phone ?? null,
        email: input.email ?? null,
        status: ADMIN_USER_STATUS.normal,
        create_by: scope.username,
        create_time: now,
      }),
      links,
    );
    return this.detail(id, lang);
  }

  async edit(scope: Scope, input: TAdminUserEdit): Promise<void> {
    const actor = await this.actor(scope);
    const user = await this.target(actor, input.id);
    await this.assertOutranks(actor, user);
    await this.assertUnique(input, user.id);
    const links = await this.checkedLinks(user.company_id, input);

    const before = (await this.repository.linksOf([user.id])).get(user.id);
    const beforeRoles = new Set(before?.roles.map((r) => r.id));
    const changedRoles = symmetricDifference(beforeRoles, new Set(links.roleIds));
    if (changedRoles.length > 0) {
      if (user.id === scope.userId) throw forbidden('adminNotOnYourself');
      await this.assertMayAssign(actor, changedRoles);
      if (beforeRoles.size > 0 && (await this.removesLastAdmin(user, links.roleIds))) {
        throw new AppError('adminLastAdmin', 400);
      }
    }

    await this.users.update(
      user.id,
      {
        realname: input.realname,
        phone: input.phone ?? null,
        email: input.email ?? null,
        update_time: this.clock(),
      },
      links,
      user.company_id,
    );
    const changedDeparts = symmetricDifference(
      new Set(before?.departs.map((d) => d.id)),
      new Set(links.departIds),
    );
    // Department roles come and go with departments, so a department change is a grants change.
    if (changedRoles.length > 0 || changedDeparts.length > 0) {
      await this.bus.publish('auth.permissions-changed', { userId: user.id });
    }
    await this.bus.publish('auth.user-changed', { userId: user.id });
  }

  /** Freezing ends the users' sessions: a frozen user is out on their next request. */
  async setFrozen(scope: Scope, ids: string[], frozen: boolean): Promise<void> {
    const actor = await this.actor(scope);
    const users = await this.targets(actor, ids);
    if (frozen) {
      if (users.some((u) => u.id === scope.userId)) throw new AppError('adminNotOnYourself', 400);
      await this.assertKeepsAnAdmin(users);
    }
    for (const user of users) await this.assertOutranks(actor, user);
    await this.repository.setStatus(
      users.map((u) => u.id),
      frozen ? ADMIN_USER_STATUS.frozen : ADMIN_USER_STATUS.normal,
      this.clock(),
    );
    for (const user of users) {
      if (frozen) await this.sessions.revokeAllOf(user.id);
      await this.bus.publish('auth.user-changed', { userId: user.id });
    }
  }

  async remove(scope: Scope, ids: string[]): Promise<void> {
    const actor = await this.actor(scope);
    const users = await this.targets(actor, ids);
    if (users.some((u) => u.id === scope.userId)) throw new AppError('adminNotOnYourself', 400);
    await this.assertKeepsAnAdmin(users);
    for (const user of users) await this.assertOutranks(actor, user);
    await this.repository.softDelete(
      users.map((u) => u.id),
      this.clock(),
    );
    for (const user of users) {
      await this.sessions.revokeAllOf(user.id);
      await this.bus.publish('auth.permissions-changed', { userId: user.id });
    }
  }

  /** An administrator sets another user's password; the user's sessions end. */
  async changePassword(scope: Scope, input: TAdminChangePassword): Promise<void> {
    const actor = await this.actor(scope);
    const found = await this.repository.findBy('username', input.username);
    const user = found ? await this.target(actor, found.id) : undefined;
    if (!user) throw notFound();
    await this.assertOutranks(actor, user);
    this.assertStrongPassword(input.password, user.username);
    await this.repository.setPasswordHash(
      user.id,
      await this.hasher.hash(input.password),
      this.clock(),
    );
    await this.sessions.revokeAllOf(user.id);
  }

  /**
   * Creates the valid rows of a file in the current company. Each gets an unguessable random
   * password: an administrator sets one later, or the user resets it by email or phone.
   */
  async importRows(scope: Scope, rows: ImportRow[], lang: Lang): Promise<TUserImportResult> {
    const errors: TUserImportResult['errors'] = [];
    if (rows.length > USER_FILE_MAX_ROWS) {
      throw new AppError('adminImportTooLarge', 400, { max: USER_FILE_MAX_ROWS });
    }
    let created = 0;
    const now = this.clock();
    for (const row of rows) {
      const problem = await this.importProblem(row, lang);
      if (problem) {
        errors.push({ row: row.row, message: problem });
        continue;
      }
      await this.users.create(
        newUserRow({
          id: newId(),
          company_id: scope.companyId,
          username: row.username,
          realname: row.realname || row.username,
          password_hash: await this.hasher.hash(randomBytes(24).toString('base64url')),
          phone: row.phone || null,
          email: row.email || null,
          status: row.status === String(ADMIN_USER_STATUS.frozen) ? 2 : 1,
          create_by: scope.username,
          create_time: now,
        }),
        { roleIds: [], departIds: [], positionIds: [] },
      );
      created += 1;
    }
    return { created, errors };
  }

  private async importProblem(row: ImportRow, lang: Lang): Promise<string | null> {
    const checks: [string, boolean][] = [
      ['username', ZUsername.safeParse(row.username).success],
      ['realname', row.realname.length <= 100],
      ['phone', row.phone === '' || ZAdminPhone.safeParse(row.phone).success],
      ['email', row.email === '' || ZAdminEmail.safeParse(row.email).success],
      ['status', ['', '1', '2'].includes(row.status)],
    ];
    const invalid = checks.find(([, valid]) => !valid);
    if (invalid) return message(lang, 'adminImportInvalid', { field: invalid[0] });
    try {
      await this.assertUnique(row, undefined);
    } catch (e) {
      if (e instanceof AppError) return message(lang, e.code, e.params);
      throw e;
    }
    return null;
  }

  private async detail(id: string, lang: Lang): Promise<TAdminUser> {
    const row = await this.repository.findWithCompany(id, null);
    if (!row) throw notFound();
    const [user] = await this.toAdminUsers([row], lang);
    if (!user) throw notFound();
    return user;
  }

  private async actor(scope: Scope): Promise<Actor> {
    return { scope, grants: await this.permissions.grantsIn(scope) };
  }

  private filterOf(
    actor: Actor,
    query: Omit<UserFilter, 'companyId'> & { companyId?: string | undefined },
  ): UserFilter {
    if (query.companyId && !actor.grants.platformAdmin) throw forbidden('adminPlatformOnly');
    const companyId = actor.grants.platformAdmin
      ? (query.companyId ?? null)
      : actor.scope.companyId;
    return { ...query, companyId };
  }

  /** Platform administrators reach every company's users; anyone else, their company's only. */
  private async target(actor: Actor, id: string): Promise<UserRow> {
    const companyId = actor.grants.platformAdmin ? null : actor.scope.companyId;
    const user = await this.repository.findWithCompany(id, companyId);
    if (!user) throw notFound();
    return user;
  }

  private async targets(actor: Actor, ids: string[]): Promise<UserRow[]> {
    const users: UserRow[] = [];
    for (const id of new Set(ids)) users.push(await this.target(actor, id));
    return users;
  }

  /** No one but a platform administrator acts on a user who holds permissions they lack. */
  private async assertOutranks(actor: Actor, user: UserRow): Promise<void> {
    if (actor.grants.platformAdmin || user.id === actor.scope.userId) return;
    const theirs = await this.permissions.grantsOf(user.id, user.company_id);
    if (theirs.platformAdmin || [...theirs.ids].some((id) => !actor.grants.ids.has(id))) {
      throw forbidden('adminUserOutranks');
    }
  }

  /** Handing out or taking away a role needs every permission the role carries. */
  private async assertMayAssign(actor: Actor, roleIds: string[]): Promise<void> {
    if (actor.grants.platformAdmin || roleIds.length === 0) return;
    const needed = await this.repository.permissionIdsOfRoles(roleIds);
    if ([...needed].some((id) => !actor.grants.ids.has(id))) {
      throw forbidden('adminPermissionNotHeld');
    }
  }

  private async assertKeepsAnAdmin(users: UserRow[]): Promise<void> {
    const byCompany = new Map<string, Set<string>>();
    for (const u of users) {
      const set = byCompany.get(u.company_id) ?? new Set<string>();
      set.add(u.id);
      byCompany.set(u.company_id, set);
    }
    for (const [companyId, leaving] of byCompany) {
      const admins = await this.repository.activeAdminIds(companyId);
      if (admins.length > 0 && admins.every((id) => leaving.has(id))) {
        throw new AppError('adminLastAdmin', 400);
      }
    }
  }

  private async removesLastAdmin(user: UserRow, newRoleIds: string[]): Promise<boolean> {
    const admins = await this.repository.activeAdminIds(user.company_id);
    if (!(admins.length === 1 && admins[0] === user.id)) return false;
    const adminRole = await this.repository.adminRoleId(user.company_id);
    return adminRole !== undefined && !newRoleIds.includes(adminRole);
  }

  private async assertUnique(
    input: {
      username?: string | undefined;
      phone?: string | null | undefined;
      email?: string | null | undefined;
    },
    exceptId: string | undefined,
  ): Promise<void> {
    if (input.username && (await this.repository.taken('username', input.username, exceptId))) {
      throw new AppError('usernameExists', 409);
    }
    if (input.phone && (await this.repository.taken('phone', input.phone, exceptId))) {
      throw new AppError('phoneExists', 409);
    }
    if (input.email && (await this.repository.taken('email', input.email, exceptId))) {
      throw new AppError('emailExists', 409);
    }
  }

  private assertStrongPassword(password: string, username: string): void {
    const reason = weakPasswordReason(password, { username, oldPassword: '' });
    if (reason) throw new AppError('weakPassword', 400, { reason });
  }

  /** Roles, departments and positions must be rows of the user's company. */
  private async checkedLinks(companyId: string, input: UserLinks): Promise<UserLinks> {
    const links: UserLinks = {
      roleIds: [...new Set(input.roleIds)],
      departIds: [...new Set(input.departIds)],
      positionIds: [...new Set(input.positionIds)],
    };
    const tables = [
      ['roleIds', 'sys_role'],
      ['departIds', 'sys_depart'],
      ['positionIds', 'sys_position'],
    ] as const;
    for (const [field, table] of tables) {
      const owned = await this.repository.ownedIds(table, companyId, links[field]);
      if (links[field].some((id) => !owned.has(id))) {
        throw new AppError('adminNotInCompany', 400, { field });
      }
    }
    return links;
  }

  private async toAdminUsers(rows: UserRow[], lang: Lang): Promise<TAdminUser[]> {
    const links = await this.repository.linksOf(rows.map((r) => r.id));
    const none: UserLinkRows = { roles: [], departs: [], positionIds: [] };
    return rows.map((u) => {
      const l = links.get(u.id) ?? none;
      return {
        id: u.id,
        username: u.username,
        realname: u.realname,
        phone: u.phone,
        email: u.email,
        status: u.status,
        companyId: u.company_id,
        companyName: u.company_name,
        orgCode: u.org_code,
        roleIds: l.roles.map((r) => r.id),
        roleNames: l.roles.map((r) => nameIn(r, lang)),
        departIds: l.departs.map((d) => d.id),
        departNames: l.departs.map((d) => nameIn(d, lang)),
        positionIds: l.positionIds,
        createTime: new Date(Number(u.create_time)).toISOString(),
      };
    });
  }
}

function symmetricDifference(a: Set<string>, b: Set<string>): string[] {
  return [...[...a].filter((x) => !b.has(x)), ...[...b].filter((x) => !a.has(x))];
}
