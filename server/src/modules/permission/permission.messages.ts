import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const permissionMessages = defineMessages({
  adminPermissionParent: {
    'zh-CN': 'parentId: 上级菜单无效（按钮必须属于菜单，且不能成环）',
    'en-US': 'parentId: invalid parent (a button needs a menu parent; no cycles)',
  },
  adminFieldRequired: {
    'zh-CN': (p) => `${p.field}: 不能为空`,
    'en-US': (p) => `${p.field}: is required`,
  },
  adminPermsTaken: {
    'zh-CN': 'perms: 授权标识已存在',
    'en-US': 'perms: this permission code already exists',
  },
  adminNoRuleColumns: {
    'zh-CN': '该权限没有可用于数据规则的字段',
    'en-US': 'This permission has no columns data rules may use',
  },
  adminRuleColumn: {
    'zh-CN': (p) => `ruleColumn: 只能是 ${p.columns}`,
    'en-US': (p) => `ruleColumn: must be one of ${p.columns}`,
  },
  adminRuleVariable: {
    'zh-CN': (p) => `ruleValue: 变量只能是 ${p.variables}`,
    'en-US': (p) => `ruleValue: variables must be one of ${p.variables}`,
  },
  menuUrlScheme: {
    'zh-CN': (p) => `${p.field}: 必须是以 / 开头的控制台路径或 http(s):// 地址`,
    'en-US': (p) => `${p.field}: must be a console path starting with / or an http(s):// address`,
  },
});

type PermissionMessages = typeof permissionMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends PermissionMessages {}
}
