import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const companyMessages = defineMessages({
  orgCompanyCodeTaken: {
    'zh-CN': 'code: 客户编码已存在',
    'en-US': 'code: this company code already exists',
  },
  orgAdminTaken: {
    'zh-CN': (p) =>
      `admin.${p.field}: ${p.field === 'username' ? '用户名' : p.field === 'phone' ? '手机号' : '邮箱'}已存在`,
    'en-US': (p) => `admin.${p.field}: this ${p.field} already exists`,
  },
  orgPlatformCompanyFixed: {
    'zh-CN': '平台公司不能冻结',
    'en-US': 'The platform company cannot be frozen',
  },
  orgPlatformAdminOnly: {
    'zh-CN': '只有平台管理员可以管理客户',
    'en-US': 'Only platform administrators manage companies',
  },
});

type CompanyMessages = typeof companyMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends CompanyMessages {}
}
