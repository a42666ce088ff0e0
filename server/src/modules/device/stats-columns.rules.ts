import type { DATA_RULE_COLUMNS, TDataRulePermission } from '@blrms/contracts';
import { sql, type Expression } from 'kysely';

type DeviceRuleField = (typeof DATA_RULE_COLUMNS)['device:list'][number];

export const DEVICE_RULES: TDataRulePermission = 'device:list';

/** Data-rule fields of `device:list` on the `device` table . */
export const DEVICE_RULE_COLUMNS: Record<DeviceRuleField, Expression<unknown>> = {
  ownerId: sql.ref('device.owner_id'),
  sysOrgCode: sql.ref('device.sys_org_code'),
  series: sql.ref('device.series'),
  groupId: sql.ref('device.group_id'),
  status: sql.ref('device.status'),
  tokenId: sql.ref('device.token_id'),
};

/**
 * The same fields on `device_stats` , where NULL is stored as '': `nullif` restores
 * the NULL so that every rule matches exactly the devices it matches on `device`.
 */
export const STATS_RULE_COLUMNS: Record<DeviceRuleField, Expression<unknown>> = {
  ownerId: sql.ref('device_stats.owner_id'),
  sysOrgCode: sql`nullif(${sql.ref('device_stats.sys_org_code')}, '')`,
  series: sql.ref('device_stats.series'),
  groupId: sql`nullif(${sql.ref('device_stats.group_id')}, '')`,
  status: sql.ref('device_stats.status'),
  tokenId: sql.ref('device_stats.token_id'),
};
