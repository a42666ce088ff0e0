import type {
  TDepartAdd,
  TDepartEdit,
  TDepartMember,
  TDepartMemberQuery,
  TDepartMembersAdd,
  TDepartRole,
  TDepartRoleAdd,
  TDepartRoleEdit,
  TDepartRoleQuery,
  TDepartTreeNode,
  TGrantTree,
  TGrantTreeNode,
  TMemberCandidateQuery,
  TSaveDepartPermission,
  TSaveDeptRolePermission,
  TSaveDeptRoleUsers,
} from '@blrms/contracts';
import type { PermissionRow, PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/db/ids.js';
import type { SysDepartRoleTable, SysDepartTable } from '../../platform/db/schema.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import type { DepartRepository } from './depart.repository.js';
import { nextOrgCode } from './org-code.rules.js';
import { pageResult } from '../../platform/http/paging.js';

function departTitle(row: SysDepartTable, lang: Lang): string {
  return lang === 'en-US' ? (row.depart_name_en ?? row.depart_name) : row.depart_name;
}

function toNode(row: SysDepartTable, lang: Lang): TDepartTreeNode {
  return {
    id: row.id,
    key: row.id,
    value: row.id,
    title: departTitle(row, lang),
    parentId: row.parent_id,
    orgCode: row.org_code,
    orgCategory: String(row.org_category) as TDepartTreeNode['orgCategory'],
    departName: row.depart_name,
    departNameEn: row.depart_name_en,
    departOrder: row.depart_order,
    children: [],
  };
}

/** Rows whose parent is not among them become roots. */
function treeOf(rows: SysDepartTable[], lang: Lang): TDepartTreeNode[] {
  const nodes = new Map(rows.map((r) => [r.id, toNode(r, lang)]));
  const roots: TDepartTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

function grantTreeOf(rows: PermissionRow[], lang: Lang): TGrantTree {
  const nodes = new Map<string, TGrantTreeNode & { parentId: string | null }>();
  for (const row of rows) {
    nodes.set(row.id, {
      key: row.id,
      title: lang === 'en-US' ? (row.name_en ?? row.name) : row.name,
      menuType: row.menu_type,
      perms: row.perms,
      children: [],
      parentId: row.parent_id,
    });
  }
  const roots: TGrantTreeNode[] = [];
  for (const { parentId, ...node } of nodes.values()) {
    const parent = parentId ? nodes.get(parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const strip = (node: TGrantTreeNode): TGrantTreeNode => ({
    key: node.key,
    title: node.title,
    menuType: node.menuType,
    perms: node.perms,
    children: node.children.map(strip),
  });
  return { treeList: roots.map(strip), ids: [...nodes.keys()] };
}

/** Ids in exactly one of the two lists: what a save adds or takes away. */
function symmetricDifference(before: string[], after: string[]): string[] {
  const a = new Set(before);
  const b = new Set(after);
  return [...[...a].filter((id) => !b.has(id)), ...[...b].filter((id) => !a.has(id))];
}

function toRole(row: SysDepartRoleTable): TDepartRole {
  return {
    id: row.id,
    departId: row.depart_id,
    roleName: row.role_name,
    roleCode: row.role_code,
    createTime: new Date(row.create_time).toISOString(),
  };
}

/** Work another module does in the transaction in which users leave a department. */
export type MembersLeaveHandler = (
  leave: { userIds: string[]; orgCode: string },
  trx: Db,
) => Promise<void>;

/**
 * Departments of a company, their members, and their permissions. A department's grants are the
 * ceiling of what its department roles may hold; what a department role holds counts for its
 * users like a role's grants (see PermissionRepository.heldRoles).
 */
export class DepartService {
  private readonly leaveHandlers: MembersLeaveHandler[] = [];

  constructor(
    private readonly repository: DepartRepository,
    private readonly permissions: PermissionService,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  /**
   * Lets a module do its part when users leave a department, in the same transaction (the user
   * module clears the department as their current one; users depend on departments, so
   * departments cannot call them).
   */
  onMembersLeave(handler: MembersLeaveHandler): void {
    this.leaveHandlers.push(handler);
  }

  /** Of `departIds`, those of the company (`found`), and their direct members (alarm receivers). */
  async membersOf(
    companyId: string,
    departIds: readonly string[],
  ): Promise<{ found: string[]; userIds: string[] }> {
    if (departIds.length === 0) return { found: [], userIds: [] };
    const rows = await this.repository.membersOfDeparts(companyId, departIds);
    return {
      found: [...new Set(rows.map((r) => r.departId))],
      userIds: [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))],
    };
  }

  /** The org code of a new company's root department; null when every code is taken. */
  async nextRootOrgCode(): Promise<string | null> {
    return nextOrgCode('', await this.repository.topLevelCodes());
  }

  /** A new company's root department, inside the transaction that creates the company. */
  async addRoot(
    root: {
      id: string;
      companyId: string;
      name: string;
      nameEn: string | null;
      orgCode: string;
      now: number;
    },
    trx: Db,
  ): Promise<void> {
    await this.repository.insert(
      {
        id: root.id,
        company_id: root.companyId,
        parent_id: null,
        depart_name: root.name,
        depart_name_en: root.nameEn,
        org_code: root.orgCode,
        org_category: 1,
        depart_order: 0,
        status: 1,
        create_time: root.now,
      },
      trx,
    );
  }

  /**
   * The user's departments of the company become `departIds` (the user form), inside the
   * caller's transaction; the caller has checked that they are the company's.
   */
  async setUserDeparts(
    user: { userId: string; companyId: string; departIds: string[] },
    trx: Db,
  ): Promise<void> {
    await this.repository.setUserDeparts(user.userId, user.companyId, user.departIds, trx);
  }

  async tree(scope: Scope, lang: Lang): Promise<TDepartTreeNode[]> {
    return treeOf(await this.repository.all(scope.companyId), lang);
  }

  /** The caller's departments with everything below them. */
  async myTree(scope: Scope, lang: Lang): Promise<TDepartTreeNode[]> {
    const [rows, mine] = await Promise.all([
      this.repository.all(scope.companyId),
      this.repository.departsOfUser(scope.companyId, scope.userId),
    ]);
    const codes = rows.filter((r) => mine.some((m) => m.id === r.id)).map((r) => r.org_code);
    return treeOf(
      rows.filter((r) => codes.some((code) => r.org_code.startsWith(code))),
      lang,
    );
  }

  async search(scope: Scope, keyWord: string, lang: Lang): Promise<TDepartTreeNode[]> {
    const rows = await this.repository.search(scope.companyId, keyWord);
    return rows.map((r) => toNode(r, lang));
  }

  async add(scope: Scope, input: TDepartAdd, lang: Lang): Promise<TDepartTreeNode> {
    const parent = input.parentId ? await this.requireDepart(scope, input.parentId) : null;
    const siblings = parent
      ? await this.repository.childCodes(scope.companyId, parent.id)
      : await this.repository.topLevelCodes();
    const orgCode = nextOrgCode(parent?.org_code ?? '', siblings);
    if (!orgCode) throw new AppError('orgCodeExhausted', 409);
    const row: SysDepartTable = {
      id: newId(),
      company_id: scope.companyId,
      parent_id: parent?.id ?? null,
      depart_name: input.departName,
      depart_name_en: input.departNameEn || null,
      org_code: orgCode,
      org_category: Number(input.orgCategory),
      depart_order: input.departOrder,
      status: 1,
      create_time: this.clock(),
    };
    await this.repository.insert(row);
    return toNode(row, lang);
  }

  async edit(scope: Scope, input: TDepartEdit, lang: Lang): Promise<TDepartTreeNode> {
    const existing = await this.requireDepart(scope, input.id);
    const values = {
      depart_name: input.departName,
      depart_name_en: input.departNameEn || null,
      org_category: Number(input.orgCategory),
      depart_order: input.departOrder,
    };
    await this.repository.update(scope.companyId, input.id, values);
    return toNode({ ...existing, ...values }, lang);
  }

  async delete(scope: Scope, id: string): Promise<void> {
    const depart = await this.requireDepart(scope, id);
    if ((await this.repository.countChildren(scope.companyId, id)) > 0) {
      throw new AppError('orgDepartHasChildren', 409);
    }
    const members = await this.repository.countMembers(id);
    if (members > 0) throw new AppError('orgDepartHasMembers', 409, { count: members });
    const roleIds = await this.repository.delete(scope.companyId, depart.id);
    // Only deleted users can still have held its roles: no user events, the roles' event is enough.
    if (roleIds.length > 0) await this.bus.publish('auth.roles-changed', { roleIds });
  }

  async members(scope: Scope, query: TDepartMemberQuery) {
    await this.requireDepart(scope, query.depId);
    const { records, total } = await this.repository.memberPage(query.depId, query.username, query);
    return pageResult<TDepartMember>(records, total, query);
  }

  async candidates(scope: Scope, query: TMemberCandidateQuery): Promise<TDepartMember[]> {
    await this.requireDepart(scope, query.depId);
    return this.repository.candidates(scope.companyId, query.depId, query.keyWord);
  }

  async addMembers(scope: Scope, input: TDepartMembersAdd): Promise<void> {
    await this.requireDepart(scope, input.depId);
    const wanted = [...new Set(input.userIdList)];
    const ofCompany = await this.repository.usersOfCompany(scope.companyId, wanted);
    if (ofCompany.length !== wanted.length) throw notFound();
    await this.repository.addMembers(input.depId, wanted);
    await this.userChanged(wanted);
  }

  async removeMembers(scope: Scope, depId: string, userIds: string[]): Promise<void> {
    const depart = await this.requireDepart(scope, depId);
    const members = await this.repository.membersAmong(depId, [...new Set(userIds)]);
    if (members.length === 0) throw notFound();
    // Leaving also ends the department as the members' current one (the user module's handler).
    const leave = { userIds: members, orgCode: depart.org_code };
    await this.repository.removeMembers(depId, members, async (trx) => {
      for (const handler of this.leaveHandlers) await handler(leave, trx);
    });
    await this.userChanged(members);
    await this.permissionsChanged(members, []);
  }

  /** What the caller may hand to a department: their own grants in the company. */
  async grantableTree(scope: Scope, departId: string, lang: Lang): Promise<TGrantTree> {
    await this.requireDepart(scope, departId);
    const grants = await this.permissions.grantsIn(scope);
    return grantTreeOf(grants.rows, lang);
  }

  async departPermissionIds(scope: Scope, departId: string): Promise<string[]> {
    await this.requireDepart(scope, departId);
    return this.repository.departPermissionIds(departId);
  }

  async saveDepartPermission(scope: Scope, input: TSaveDepartPermission): Promise<void> {
    await this.requireDepart(scope, input.departId);
    const wanted = [...new Set(input.permissionIds)];
    const before = await this.repository.departPermissionIds(input.departId);
    await this.assertHolds(scope, symmetricDifference(before, wanted));
    const affected = await this.repository.saveDepartPermissions(input.departId, wanted);
    await this.permissionsChanged(affected.userIds, affected.roleIds);
  }

  async roles(scope: Scope, query: TDepartRoleQuery) {
    await this.requireDepart(scope, query.deptId);
    const { records, total } = await this.repository.rolePage(
      scope.companyId,
      query.deptId,
      query.roleName,
      query,
    );
    return pageResult(records.map(toRole), total, query);
  }

  async addRole(scope: Scope, input: TDepartRoleAdd): Promise<TDepartRole> {
    await this.requireDepart(scope, input.departId);
    if (await this.repository.roleCodeTaken(input.departId, input.roleCode, null)) {
      throw new AppError('orgDepartRoleCodeTaken', 409);
    }
    const row: SysDepartRoleTable = {
      id: newId(),
      depart_id: input.departId,
      role_name: input.roleName,
      role_code: input.roleCode,
      create_time: this.clock(),
    };
    await this.repository.insertRole(row);
    return toRole(row);
  }

  async editRole(scope: Scope, input: TDepartRoleEdit): Promise<TDepartRole> {
    const role = await this.requireRole(scope, input.id);
    if (await this.repository.roleCodeTaken(role.depart_id, input.roleCode, role.id)) {
      throw new AppError('orgDepartRoleCodeTaken', 409);
    }
    const values = { role_name: input.roleName, role_code: input.roleCode };
    await this.repository.updateRole(role.id, values);
    return toRole({ ...role, ...values });
  }

  /** Deleting a role takes its grants from its users: the caller must hold them all. */
  async deleteRoles(scope: Scope, roleIds: string[]): Promise<void> {
    const unique = [...new Set(roleIds)];
    for (const id of unique) await this.requireRole(scope, id);
    for (const id of unique)
      await this.assertHolds(scope, await this.repository.rolePermissionIds(id));
    const affected = await this.repository.deleteRoles(unique);
    await this.permissionsChanged(affected, unique);
  }

  async roleUserIds(scope: Scope, roleId: string): Promise<string[]> {
    await this.requireRole(scope, roleId);
    return this.repository.roleUserIds(roleId);
  }

  /**
   * Only members of the role's department may hold it. As with company roles, nobody gives a role
   * to (or takes it from) themselves, and handing it out or taking it back needs every permission
   * it carries.
   */
  async saveRoleUsers(scope: Scope, input: TSaveDeptRoleUsers): Promise<void> {
    const role = await this.requireRole(scope, input.roleId);
    const wanted = [...new Set(input.userIds)];
    const members = await this.repository.membersAmong(role.depart_id, wanted);
    if (members.length !== wanted.length) throw new AppError('orgNotMember', 400);
    const before = await this.repository.roleUserIds(role.id);
    const changed = symmetricDifference(before, wanted);
    if (changed.includes(scope.userId)) throw forbidden('orgRoleNotOnYourself');
    if (changed.length > 0) {
      await this.assertHolds(scope, await this.repository.rolePermissionIds(role.id));
    }
    await this.repository.saveRoleUsers(role.id, wanted);
    await this.permissionsChanged([...new Set([...before, ...wanted])], []);
  }

  /** The department's grants: all a role of it may be given. */
  async ceilingTree(scope: Scope, departId: string, lang: Lang): Promise<TGrantTree> {
    await this.requireDepart(scope, departId);
    const [catalogue, ceiling] = await Promise.all([
      this.permissions.catalogue(scope.companyId),
      this.repository.departPermissionIds(departId),
    ]);
    const allowed = new Set(ceiling);
    return grantTreeOf(
      catalogue.filter((p) => allowed.has(p.id)),
      lang,
    );
  }

  async rolePermissionIds(scope: Scope, roleId: string): Promise<string[]> {
    await this.requireRole(scope, roleId);
    return this.repository.rolePermissionIds(roleId);
  }

  async saveRolePermission(scope: Scope, input: TSaveDeptRolePermission): Promise<void> {
    const role = await this.requireRole(scope, input.roleId);
    const wanted = [...new Set(input.permissionIds)];
    const ceiling = new Set(await this.repository.departPermissionIds(role.depart_id));
    if (!wanted.every((id) => ceiling.has(id))) {
      throw new AppError('orgBeyondDepartPermissions', 403);
    }
    const before = await this.repository.rolePermissionIds(role.id);
    await this.assertHolds(scope, symmetricDifference(before, wanted));
    await this.repository.saveRolePermissions(role.id, role.depart_id, wanted);
    await this.permissionsChanged(await this.repository.roleUserIds(role.id), [role.id]);
  }

  /**
   * The no-escalation rule of company roles: a caller who is not a platform administrator can
   * neither grant nor take away a permission they do not hold. The refusal names the first such
   * permission so the administrator knows what to untick.
   */
  private async assertHolds(scope: Scope, permissionIds: string[]): Promise<void> {
    if (permissionIds.length === 0) return;
    const grants = await this.permissions.grantsIn(scope);
    if (grants.platformAdmin) return;
    const missing = permissionIds.find((id) => !grants.ids.has(id));
    if (missing === undefined) return;
    const row = (await this.permissions.catalogue(scope.companyId)).find((p) => p.id === missing);
    throw new AppError('orgBeyondYourPermissions', 403, {
      name: row?.name ?? missing,
      nameEn: row?.name_en ?? row?.name ?? missing,
    });
  }

  private async requireDepart(scope: Scope, id: string): Promise<SysDepartTable> {
    const depart = await this.repository.find(scope.companyId, id);
    if (!depart) throw notFound();
    return depart;
  }

  private async requireRole(scope: Scope, id: string): Promise<SysDepartRoleTable> {
    const role = await this.repository.findRole(scope.companyId, id);
    if (!role) throw notFound();
    return role;
  }

  /**
   * Their next request resolves their permissions again, on every node. `roleIds`: the department
   * roles whose grants changed (or which are gone), announced first; none when only who holds
   * which role changed.
   */
  private async permissionsChanged(userIds: string[], roleIds: string[]): Promise<void> {
    if (roleIds.length > 0) await this.bus.publish('auth.roles-changed', { roleIds });
    for (const userId of userIds) {
      await this.bus.publish('auth.permissions-changed', { userId, rolesUnchanged: true });
    }
  }

  /** Their sessions reload what they carry about departments. */
  private async userChanged(userIds: string[]): Promise<void> {
    for (const userId of userIds) await this.bus.publish('auth.user-changed', { userId });
  }
}
