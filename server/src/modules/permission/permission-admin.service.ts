import {
  DATA_RULE_COLUMNS,
  DATA_RULE_VARIABLES,
  type TDataRule,
  type TPermissionAdd,
  type TPermissionDataRule,
  type TPermissionEdit,
  type TPermissionNode,
  type TPermissionRuleAdd,
  type TPermissionRuleEdit,
  type TPermissionTree,
  type TPermissionTreeNode,
} from '@blrms/contracts';
import type { PermissionRow, PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysPermissionDataRuleTable } from '../../platform/db/schema.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import type { PermissionAdminRepository, PermissionFields } from './permission-admin.repository.js';

const BUTTON = 2;

export function toDataRule(row: SysPermissionDataRuleTable): TPermissionDataRule {
  return {
    id: row.id,
    permissionId: row.permission_id,
    ruleName: row.rule_name,
    ruleColumn: row.rule_column,
    ruleConditions: row.rule_conditions as TPermissionDataRule['ruleConditions'],
    ruleValue: row.rule_value,
    status: row.status === '0' ? '0' : '1',
    createTime: new Date(Number(row.create_time)).toISOString(),
  };
}

/** The columns rules of a permission may filter on: the union over its perms codes. */
export function ruleColumnsOf(perms: string | null): string[] {
  const codes = (perms ?? '').split(',').map((c) => c.trim());
  const columns = codes.flatMap((code) =>
    code in DATA_RULE_COLUMNS ? [...DATA_RULE_COLUMNS[code as keyof typeof DATA_RULE_COLUMNS]] : [],
  );
  return [...new Set(columns)];
}

function fieldsOf(input: TPermissionAdd): PermissionFields {
  return {
    parent_id: input.parentId,
    name: input.name,
    name_en: input.nameEn || null,
    url: input.url || null,
    component: input.component || null,
    component_name: input.componentName || null,
    redirect: input.redirect || null,
    menu_type: input.menuType,
    perms: input.perms || null,
    perms_type: input.permsType,
    status: input.status,
    sort_no: input.sortNo,
    icon: input.icon || null,
    hidden: input.hidden ? 1 : 0,
    keep_alive: input.keepAlive ? 1 : 0,
    always_show: input.alwaysShow ? 1 : 0,
    route: input.route ? 1 : 0,
    internal_or_external: input.internalOrExternal ? 1 : 0,
  };
}

/**
 * A menu's path or redirect is followed by the console's router or opened as a link: a console
 * path (`/...`, never `//` or `/\`, which browsers read as another host) or an http(s) address,
 * as announcements already require. `javascript:`, `data:` and the like are refused.
 */
function isSafeMenuUrl(value: string): boolean {
  // Browsers drop control characters and spaces around and inside a scheme before reading it.
  if ([...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) return false;
  if (/^\/(?![/\\])/.test(value)) return true;
  if (!/^https?:\/\//i.test(value)) return false;
  return URL.canParse(value);
}

/**
 * The menu and button catalogue, and the data rules defined on it. The catalogue is global (one
 * for all companies), so only platform administrators change it; company administrators read it.
 */
export class PermissionAdminService {
  constructor(
    private readonly repository: PermissionAdminRepository,
    private readonly permissions: PermissionService,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<TPermissionNode[]> {
    const [rows, counts] = await Promise.all([
      this.repository.live(),
      this.repository.ruleCounts(),
    ]);
    return treeOf<TPermissionNode>(rows, (row, children) => ({
      id: row.id,
      parentId: row.parent_id,
      name: row.name,
      nameEn: row.name_en,
      menuType: row.menu_type,
      url: row.url,
      component: row.component,
      componentName: row.component_name,
      redirect: row.redirect,
      perms: row.perms,
      permsType: row.perms_type === '2' ? '2' : '1',
      status: row.status === '0' ? '0' : '1',
      sortNo: row.sort_no,
      icon: row.icon,
      hidden: row.hidden === 1,
      keepAlive: row.keep_alive === 1,
      alwaysShow: row.always_show === 1,
      route: row.route === 1,
      internalOrExternal: row.internal_or_external === 1,
      ruleCount: counts.get(row.id) ?? 0,
      ...(children.length > 0 ? { children } : {}),
    }));
  }

  /** What the caller may grant: everything for platform administrators, else what they hold. */
  async grantableTree(scope: Scope, lang: Lang): Promise<TPermissionTree> {
    const grants = await this.permissions.grantsIn(scope);
    const [rows, counts] = await Promise.all([
      this.repository.live(scope.companyId),
      this.repository.ruleCounts(),
    ]);
    const visible = grants.platformAdmin ? rows : rows.filter((r) => grants.ids.has(r.id));
    const treeList = treeOf<TPermissionTreeNode>(visible, (row, children) => ({
      key: row.id,
      title: lang === 'en-US' ? (row.name_en ?? row.name) : row.name,
      menuType: row.menu_type,
      perms: row.perms,
      ruleCount: counts.get(row.id) ?? 0,
      ...(children.length > 0 ? { children } : {}),
    }));
    const ids: string[] = [];
    const collect = (nodes: TPermissionTreeNode[]) => {
      for (const n of nodes) {
        ids.push(n.key);
        collect(n.children ?? []);
      }
    };
    collect(treeList);
    return { treeList, ids };
  }

  async add(scope: Scope, input: TPermissionAdd): Promise<string> {
    await this.assertPlatformAdmin(scope);
    await this.assertValid(input, undefined);
    const id = newId();
    await this.repository.insert(id, fieldsOf(input), this.clock());
    await this.catalogueChanged();
    return id;
  }

  async edit(scope: Scope, input: TPermissionEdit): Promise<void> {
    await this.assertPlatformAdmin(scope);
    const row = await this.repository.findLive(input.id);
    if (!row) throw notFound();
    await this.assertValid(input, row.id);
    await this.repository.update(row.id, row.parent_id, fieldsOf(input));
    await this.catalogueChanged();
  }

  /** Deletes the row and everything below it. */
  async remove(scope: Scope, id: string): Promise<void> {
    await this.assertPlatformAdmin(scope);
    const row = await this.repository.findLive(id);
    if (!row) throw notFound();
    const rows = await this.repository.live();
    const doomed = [row.id, ...descendantsOf(rows, row.id)];
    await this.repository.softDelete(doomed, row.parent_id);
    await this.catalogueChanged();
  }

  async rules(permissionId: string): Promise<TPermissionDataRule[]> {
    if (!(await this.repository.findLive(permissionId))) throw notFound();
    return (await this.repository.rulesOf(permissionId)).map(toDataRule);
  }

  async addRule(scope: Scope, input: TPermissionRuleAdd): Promise<TPermissionDataRule> {
    await this.assertPlatformAdmin(scope);
    const permission = await this.repository.findLive(input.permissionId);
    if (!permission) throw notFound();
    this.assertValidRule(permission, input);
    const row: SysPermissionDataRuleTable = {
      id: newId(),
      permission_id: permission.id,
      rule_name: input.ruleName,
      rule_column: input.ruleColumn,
      rule_conditions: input.ruleConditions,
      rule_value: input.ruleValue,
      status: input.status,
      create_time: this.clock(),
    };
    await this.repository.insertRule(row);
    await this.catalogueChanged();
    return toDataRule(row);
  }

  async editRule(scope: Scope, input: TPermissionRuleEdit): Promise<void> {
    await this.assertPlatformAdmin(scope);
    const rule = await this.repository.findRule(input.id);
    const permission = rule ? await this.repository.findLive(rule.permission_id) : undefined;
    if (!rule || !permission) throw notFound();
    this.assertValidRule(permission, input);
    await this.repository.updateRule(rule.id, {
      rule_name: input.ruleName,
      rule_column: input.ruleColumn,
      rule_conditions: input.ruleConditions,
      rule_value: input.ruleValue,
      status: input.status,
    });
    await this.catalogueChanged();
  }

  async removeRule(scope: Scope, id: string): Promise<void> {
    await this.assertPlatformAdmin(scope);
    const rule = await this.repository.findRule(id);
    if (!rule) throw notFound();
    await this.repository.deleteRule(rule.id, rule.permission_id);
    await this.catalogueChanged();
  }

  private async assertPlatformAdmin(scope: Scope): Promise<void> {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }

  private async assertValid(input: TPermissionAdd, id: string | undefined): Promise<void> {
    if (input.parentId) {
      const rows = await this.repository.live();
      const parent = rows.find((r) => r.id === input.parentId);
      const cycle =
        id !== undefined &&
        (input.parentId === id || descendantsOf(rows, id).includes(input.parentId));
      if (!parent || parent.menu_type === BUTTON || cycle) {
        throw new AppError('adminPermissionParent', 400);
      }
    } else if (input.menuType === BUTTON) {
      throw new AppError('adminPermissionParent', 400);
    }
    if (input.menuType !== BUTTON && !input.url) {
      throw new AppError('adminFieldRequired', 400, { field: 'url' });
    }
    for (const field of ['url', 'redirect'] as const) {
      const value = input[field];
      if (value && !isSafeMenuUrl(value)) throw new AppError('menuUrlScheme', 400, { field });
    }
    if (input.perms && (await this.repository.permsTaken(input.perms, id))) {
      throw new AppError('adminPermsTaken', 409);
    }
  }

  /** Column from the permission's whitelist; a `#{...}` value must be one of the variables. */
  private assertValidRule(permission: PermissionRow, rule: TDataRule): void {
    const columns = ruleColumnsOf(permission.perms);
    if (columns.length === 0) throw new AppError('adminNoRuleColumns', 400);
    if (!columns.includes(rule.ruleColumn)) {
      throw new AppError('adminRuleColumn', 400, { columns: columns.join(', ') });
    }
    const values = rule.ruleConditions === 'IN' ? rule.ruleValue.split(',') : [rule.ruleValue];
    const variables: readonly string[] = DATA_RULE_VARIABLES;
    if (values.some((v) => v.includes('#{') && !variables.includes(v.trim()))) {
      throw new AppError('adminRuleVariable', 400, { variables: DATA_RULE_VARIABLES.join(', ') });
    }
  }

  /** Rows, rules and grants are cached everywhere: every node resolves them again. */
  private async catalogueChanged(): Promise<void> {
    await this.bus.publish('auth.permissions-changed', {});
  }
}

function treeOf<T>(rows: PermissionRow[], build: (row: PermissionRow, children: T[]) => T): T[] {
  const ids = new Set(rows.map((r) => r.id));
  const childrenOf = new Map<string | null, PermissionRow[]>();
  for (const row of rows) {
    // A row whose parent is not in the set (not granted) hangs at the top, so nothing held is lost.
    const parent = row.parent_id && ids.has(row.parent_id) ? row.parent_id : null;
    const siblings = childrenOf.get(parent) ?? [];
    siblings.push(row);
    childrenOf.set(parent, siblings);
  }
  const walk = (parent: string | null): T[] =>
    (childrenOf.get(parent) ?? []).map((row) => build(row, walk(row.id)));
  return walk(null);
}

function descendantsOf(rows: PermissionRow[], id: string): string[] {
  const found: string[] = [];
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const r of rows) {
      if (r.parent_id === current && !found.includes(r.id)) {
        found.push(r.id);
        queue.push(r.id);
      }
    }
  }
  return found;
}
