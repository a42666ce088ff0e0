import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const userMessages = defineMessages({
  notYourself: {
    'zh-CN': '只能操作当前登录用户',
    'en-US': 'You can only act on your own account',
  },
  notYourDepartment: {
    'zh-CN': '拒绝访问：不是您的部门',
    'en-US': 'Access denied: not your department',
  },
  // A field problem (issue 16): the console shows it under the old password field.
  oldPasswordWrong: {
    'zh-CN': 'oldpassword: 旧密码输入错误',
    'en-US': 'oldpassword: Old password is incorrect',
  },
  passwordChanged: { 'zh-CN': '密码修改成功', 'en-US': 'Password changed successfully' },
  departSelected: { 'zh-CN': '部门切换成功', 'en-US': 'Department switched' },
  adminPasswordReset: {
    'zh-CN': '密码已重置，该用户需要重新登录',
    'en-US': 'Password reset: the user must log in again',
  },
  adminImported: {
    'zh-CN': (p) => `导入完成：新增 ${p.created} 个用户`,
    'en-US': (p) => `Import finished: ${p.created} users added`,
  },
  adminImportBadFile: {
    'zh-CN': 'file: 请上传含 username 列的 XLSX 或 CSV 文件',
    'en-US': 'file: upload an XLSX or CSV file with a username column',
  },
  adminImportTooLarge: {
    'zh-CN': (p) => `file: 一次最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows per import`,
  },
  adminImportInvalid: {
    'zh-CN': (p) => `${p.field}: 格式不正确`,
    'en-US': (p) => `${p.field}: invalid format`,
  },
  userColumnUsername: { 'zh-CN': '用户账号', 'en-US': 'Username' },
  userColumnRealname: { 'zh-CN': '用户姓名', 'en-US': 'Name' },
  userColumnPhone: { 'zh-CN': '手机号', 'en-US': 'Phone' },
  userColumnEmail: { 'zh-CN': '邮箱', 'en-US': 'Email' },
  userColumnStatus: { 'zh-CN': '状态', 'en-US': 'Status' },
  userColumnCreateTime: { 'zh-CN': '创建时间', 'en-US': 'Created' },
  userStatusNormal: { 'zh-CN': '正常', 'en-US': 'Normal' },
  userStatusFrozen: { 'zh-CN': '冻结', 'en-US': 'Frozen' },
  userExportSheet: { 'zh-CN': '用户列表', 'en-US': 'Users' },
  adminBadIds: { 'zh-CN': 'ids: 不是有效的 ID 列表', 'en-US': 'ids: not a valid list of ids' },
  adminNotInCompany: {
    'zh-CN': (p) => `${p.field}: 含有不属于该公司的项`,
    'en-US': (p) => `${p.field}: contains an entry of another company`,
  },
  adminNotOnYourself: {
    'zh-CN': '不能对自己的账号执行此操作',
    'en-US': 'You cannot do this to your own account',
  },
  adminLastAdmin: {
    'zh-CN': '不能删除、冻结或撤销最后一个管理员',
    'en-US': 'The last administrator cannot be deleted, frozen or demoted',
  },
  adminUserOutranks: {
    'zh-CN': '拒绝访问：该用户拥有您没有的权限',
    'en-US': 'Access denied: this user holds permissions you do not have',
  },
});

type UserMessages = typeof userMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends UserMessages {}
}
