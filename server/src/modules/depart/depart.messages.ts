import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const departMessages = defineMessages({
  orgDepartHasChildren: {
    'zh-CN': '该部门下还有子部门，请先删除子部门',
    'en-US': 'This department has sub-departments: delete them first',
  },
  orgDepartHasMembers: {
    'zh-CN': (p) => `该部门下还有 ${p.count} 名成员，请先移除成员`,
    'en-US': (p) => `This department still has ${p.count} members: remove them first`,
  },
  orgNotMember: {
    'zh-CN': 'userIds: 用户不是该部门的成员',
    'en-US': 'userIds: the user is not a member of this department',
  },
  orgBeyondYourPermissions: {
    'zh-CN': (p) => `permissionIds: 不能授予或收回您自己没有的权限「${p.name}」`,
    'en-US': (p) =>
      `permissionIds: you cannot grant or take away a permission you do not hold: ${p.nameEn}`,
  },
  orgBeyondDepartPermissions: {
    'zh-CN': 'permissionIds: 超出了部门的权限范围',
    'en-US': "permissionIds: beyond the department's permissions",
  },
  orgDepartRoleCodeTaken: {
    'zh-CN': 'roleCode: 该部门下已存在此角色编码',
    'en-US': 'roleCode: this department already has a role with this code',
  },
  // Security hardening: escalation, data rules, frozen companies, menu URLs, quotas (issue 14).
  orgRoleNotOnYourself: {
    'zh-CN': 'userIds: 不能给自己分配或收回部门角色',
    'en-US': 'userIds: you cannot give yourself a department role or take one from yourself',
  },
});

type DepartMessages = typeof departMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends DepartMessages {}
}
