import { z } from 'zod';

/**
 * Data rules narrow the rows a permission shows (JeecgBoot's "data permission rules"). A rule
 * belongs to one permission row (`sys_permission_data_rule.permission_id`) and is granted to a
 * role together with that permission (`data_rule_ids` of the grant). Semantics:
 * - the enabled rules of one grant combine with AND;
 * - a user holding the permission through several grants sees the union (OR) of them;
 * - a grant without rules leaves the permission unrestricted.
 * Rules never carry SQL: a column comes from the whitelist of the permission it belongs to, an
 * operator from the fixed set below, and a value is a literal or one of the variables.
 */
export const DATA_RULE_OPERATORS = [
  'EQ',
  'NE',
  'GT',
  'GE',
  'LT',
  'LE',
  'IN',
  'LIKE',
  'LEFT_LIKE',
  'RIGHT_LIKE',
] as const;
export const ZDataRuleOperator = z.enum(DATA_RULE_OPERATORS);
export type TDataRuleOperator = z.infer<typeof ZDataRuleOperator>;

/**
 * Values replaced by the caller's own at query time: user id, username, and the org code of
 * the department currently selected. `IN` takes a comma-separated list.
 */
export const DATA_RULE_VARIABLES = [
  '#{sys_user_id}',
  '#{sys_user_code}',
  '#{sys_org_code}',
] as const;

/** Per permission code, the API field names a rule may filter on. */
export const DATA_RULE_COLUMNS = {
  'device:list': ['ownerId', 'sysOrgCode', 'series', 'groupId', 'status', 'tokenId'],
} as const satisfies Record<string, readonly string[]>;
export type TDataRulePermission = keyof typeof DATA_RULE_COLUMNS;

export const ZDataRule = z.object({
  ruleName: z.string().trim().min(1).max(64),
  ruleColumn: z.string().min(1).max(64),
  ruleConditions: ZDataRuleOperator,
  ruleValue: z.string().max(255),
  status: z.enum(['0', '1']).describe('1 enabled, 0 disabled'),
});
export type TDataRule = z.infer<typeof ZDataRule>;
