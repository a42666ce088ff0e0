import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  register: {
    title: '注册账户',
    stepAccount: '用户账户',
    stepEmail: '邮箱验证',
    stepPassword: '设置密码',
    stepDone: '完成',
    username: '用户名',
    usernameRule: '用户名只能包含字母和数字',
    phone: '手机号码',
    email: '邮箱',
    emailCode: '邮箱验证码',
    codeSent: '验证码已发送，请查收邮件',
    password: '密码',
    confirmPassword: '确认密码',
    submit: '注册',
    haveAccount: '使用已有账户登录',
    failed: '注册失败',
    doneTitle: '你的账户 {{username}} 注册成功',
    doneSubtitle: '你已成为自己公司的管理员。邮箱 {{email}} 可用于找回密码。',
    toLogin: '去登录',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
