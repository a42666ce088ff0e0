import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const roleMessages = defineMessages({
  adminRoleCodeTaken: {
    'zh-CN': 'roleCode: 角色编码已存在',
    'en-US': 'roleCode: this role code already exists',
  },
  adminRoleProtected: {
    'zh-CN': '管理员角色不能删除或修改编码与授权',
    'en-US': 'The admin role cannot be deleted, recoded or re-authorised',
  },
  adminUnknownPermission: {
    'zh-CN': (p) => `${p.field}: 含有不存在的权限`,
    'en-US': (p) => `${p.field}: contains an unknown permission`,
  },
  adminUnknownRule: {
    'zh-CN': (p) => `${p.field}: 含有不属于该权限的数据规则`,
    'en-US': (p) => `${p.field}: contains a rule of another permission`,
  },
  adminRuleNotGranted: {
    'zh-CN': 'permissionId: 该角色未被授予此权限',
    'en-US': 'permissionId: the role is not granted this permission',
  },
  dataRuleBypassed: {
    'zh-CN': (p) =>
      `已保存。注意：该角色有 ${p.count} 个用户通过其他未设数据规则的角色拥有同一权限，规则不会限制他们（多个角色的授权取并集）`,
    'en-US': (p) =>
      `Saved. Note: ${p.count} user(s) of this role hold the same permission through another role without data rules, so these rules do not narrow what they see (grants of several roles add up)`,
  },
});

type RoleMessages = typeof roleMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends RoleMessages {}
}
