import {
  DATA_RULE_COLUMNS,
  DATA_RULE_OPERATORS,
  type TDataRuleOperator,
  type TDataRulePermission,
} from '@blrms/contracts';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { DataRuleRepository } from './data-rule.repository.js';
import { PermissionRepository } from './permission.repository.js';
import type { Scope } from './scope.js';

/** One test of a rule, its variables already replaced; `value: null` can match nothing. */
export interface DataRuleCondition {
  field: string;
  operator: TDataRuleOperator;
  value: string | null;
}

/**
 * The rows a caller may see through one permission code: everything, or the union (OR) over the
 * caller's roles of each role's condition list, combining with AND (docs/api.md, Data rules).
 */
export type DataRuleFilter =
  { kind: 'all' } | { kind: 'some'; alternatives: DataRuleCondition[][] };

export const UNRESTRICTED: DataRuleFilter = { kind: 'all' };

/** A rule as stored, before its variables are replaced by the caller's values. */
interface StoredCondition {
  field: string;
  operator: TDataRuleOperator | 'INVALID';
  value: string;
}

type Resolved = { kind: 'all' } | { kind: 'some'; grants: StoredCondition[][] };

const CACHE_TTL_MS = 60_000;
const OPERATORS = new Set<string>(DATA_RULE_OPERATORS);

function variablesOf(scope: Scope): Record<string, string | null> {
  return {
    '#{sys_user_id}': scope.userId,
    '#{sys_user_code}': scope.username,
    '#{sys_org_code}': scope.orgCode,
  };
}

/** Replaces the variables; a variable the caller has no value for (no department) yields null. */
function substitute(value: string, scope: Scope): string | null {
  let result = value;
  for (const [variable, actual] of Object.entries(variablesOf(scope))) {
    if (!result.includes(variable)) continue;
    if (actual === null) return null;
    result = result.replaceAll(variable, actual);
  }
  return result;
}

/**
 * Resolves the data rules of a caller's grants of a permission. The rules a user holds are cached
 * like permissions (per user and company) and dropped on the same bus event; variables are
 * replaced on every call, so switching department takes effect at once.
 */
export class DataRuleService {
  private readonly repository: DataRuleRepository;
  private readonly permissions: PermissionRepository;
  private readonly cache = new Map<string, { resolved: Promise<Resolved>; loadedAt: number }>();

  constructor(
    db: Db,
    bus: Bus,
    private readonly clock: Clock,
  ) {
    this.repository = new DataRuleRepository(db);
    this.permissions = new PermissionRepository(db);
    bus.subscribe('auth.permissions-changed', ({ userId }) => {
      if (!userId) return this.cache.clear();
      for (const key of this.cache.keys()) if (key.startsWith(`${userId}|`)) this.cache.delete(key);
    });
    bus.subscribe('bus.resumed', () => this.cache.clear());
  }

  async filterFor(scope: Scope, code: TDataRulePermission): Promise<DataRuleFilter> {
    const resolved = await this.resolvedFor(scope.userId, scope.companyId, code);
    if (resolved.kind === 'all') return UNRESTRICTED;
    return {
      kind: 'some',
      alternatives: resolved.grants.map((conditions) =>
        conditions.map((c) => ({
          field: c.field,
          // An unknown operator can never be applied safely: it matches nothing.
          operator: c.operator === 'INVALID' ? 'EQ' : c.operator,
          value: c.operator === 'INVALID' ? null : substitute(c.value, scope),
        })),
      ),
    };
  }

  /** Whether nothing narrows what the user sees through the code (to warn an administrator). */
  async unrestricted(userId: string, companyId: string, code: TDataRulePermission) {
    return (await this.resolvedFor(userId, companyId, code)).kind === 'all';
  }

  private resolvedFor(userId: string, companyId: string, code: TDataRulePermission) {
    const key = `${userId}|${companyId}|${code}`;
    const now = this.clock();
    const cached = this.cache.get(key);
    if (cached && now - cached.loadedAt < CACHE_TTL_MS) return cached.resolved;
    const resolved = this.resolve(userId, companyId, code);
    this.cache.set(key, { resolved, loadedAt: now });
    resolved.catch(() => this.cache.delete(key));
    return resolved;
  }

  private async resolve(
    userId: string,
    companyId: string,
    code: TDataRulePermission,
  ): Promise<Resolved> {
    if (await this.permissions.isPlatformAdmin(userId)) return { kind: 'all' };
    const permissionIds = await this.repository.permissionIdsOf(code);
    const grants = await this.repository.grantsOf(userId, companyId, permissionIds);
    const rules = await this.repository.rulesByIds([...new Set(grants.flatMap((g) => g.ruleIds))]);
    const columns: readonly string[] = DATA_RULE_COLUMNS[code];
    // Rules belong to the code, not to the menu row that happened to be ticked: the rows of one
    // role (or department role) carrying the code pool their rules (AND), so a second row with the
    // same code (the device detail page) cannot undo a rule set on the list page.
    const byHolder = new Map<string, typeof rules>();
    for (const grant of grants) {
      const enabled = rules.filter(
        (r) =>
          grant.ruleIds.includes(r.id) &&
          r.permission_id === grant.permissionId &&
          r.status === '1',
      );
      const pooled = byHolder.get(grant.holder) ?? [];
      byHolder.set(grant.holder, [...pooled, ...enabled.filter((r) => !pooled.includes(r))]);
    }
    const lists: StoredCondition[][] = [];
    for (const enabled of byHolder.values()) {
      // A role granting the code without any (enabled) rule leaves it unrestricted: roles OR.
      if (enabled.length === 0) return { kind: 'all' };
      lists.push(
        enabled.map((r) => ({
          field: r.rule_column,
          operator:
            OPERATORS.has(r.rule_conditions) && columns.includes(r.rule_column)
              ? (r.rule_conditions as TDataRuleOperator)
              : 'INVALID',
          value: r.rule_value,
        })),
      );
    }
    return { kind: 'some', grants: lists };
  }
}
