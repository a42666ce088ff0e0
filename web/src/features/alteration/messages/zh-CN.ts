import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  alteration: {
    title: '找回密码',
    stepVerify: '验证身份',
    stepPassword: '设置新密码',
    stepDone: '完成',
    byEmail: '通过邮箱',
    byPhone: '通过手机',
    email: '注册邮箱',
    phone: '手机号码',
    code: '验证码',
    newPassword: '新密码',
    confirmPassword: '确认新密码',
    submit: '重置密码',
    failed: '重置密码失败',
    doneTitle: '密码重置成功!',
    countdown: '{{seconds}} 秒后返回登录页',
    toLogin: '立即登录',
    backToLogin: '返回登录',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
