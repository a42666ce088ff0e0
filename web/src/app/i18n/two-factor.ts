import i18n from 'i18next';
import type { Widen } from '../../shared/i18n-catalog';

/*
 * Texts of two-factor login and of the login lockout (issue 14, helper authflow), in a namespace
 * of their own that the screens needing them add when they load (the login page's second step,
 * the user menu, the user list): the login route's initial JavaScript has a 350 KB budget, and
 * only users with two-factor login ever see these. Those screens are lazy chunks, loaded after
 * main.tsx has initialised i18next.
 */

export const TWO_FACTOR_NS = 'twoFactor';

const zhCN = {
  menu: '二次验证',
  title: '二次验证（动态验证码）',
  intro:
    '开启后，登录时除密码外还需输入身份验证器 App（如 Google Authenticator、Microsoft Authenticator）生成的 6 位动态码。',
  statusOn: '已开启',
  statusOff: '未开启',
  required: '所在企业或平台要求开启二次验证',
  recoveryLeft: '剩余恢复码：{{count}} 个',
  start: '开启二次验证',
  scan: '用身份验证器 App 扫描二维码，或手动输入下面的密钥：',
  secret: '密钥',
  code: '6 位动态码',
  codeRequired: '请输入 6 位动态码',
  confirm: '确认开启',
  recoveryTitle: '请保存恢复码',
  recoveryIntro: '手机丢失时可用恢复码登录，每个只能使用一次。恢复码只显示这一次，请妥善保存。',
  done: '我已保存',
  disable: '关闭二次验证',
  disableIntro: '输入当前动态码或登录密码以关闭：',
  disableCode: '动态码或恢复码',
  password: '登录密码',
  proofRequired: '请输入动态码或密码',
  loginTitle: '二次验证',
  loginIntro: '请输入身份验证器 App 中的 6 位动态码，或一个恢复码。',
  loginCode: '动态码或恢复码',
  loginCodeRequired: '请输入动态码或恢复码',
  verify: '验证',
  back: '返回登录',
  enrolTitle: '请先开启二次验证',
  enrolIntro: '管理员要求您的账号使用二次验证。请先完成设置再进入系统。',
  continue: '进入系统',
  policyCompany: '要求本企业用户开启二次验证',
  policyPlatform: '要求平台所有用户开启二次验证',
  reset: '重置二次验证',
  resetConfirm: '重置 {{username}} 的二次验证？该用户下次登录只需密码（若要求开启则需重新设置）。',
  enabledTag: '二次验证',
  locked: '登录锁定',
  lockReason: '{{ip}}：失败 {{count}} 次，锁定至 {{until}}',
  failReason: '{{ip}}：失败 {{count}} 次',
  unlock: '解除登录锁定',
} as const;

const enUS: Widen<typeof zhCN> = {
  menu: 'Two-factor login',
  title: 'Two-factor login (authentication codes)',
  intro:
    'When on, logging in also asks for the 6-digit code of an authenticator app (Google Authenticator, Microsoft Authenticator and the like).',
  statusOn: 'On',
  statusOff: 'Off',
  required: 'Your company or the platform requires two-factor login',
  recoveryLeft: 'Recovery codes left: {{count}}',
  start: 'Turn on two-factor login',
  scan: 'Scan the QR code with an authenticator app, or type in the key below:',
  secret: 'Key',
  code: '6-digit code',
  codeRequired: 'Enter the 6-digit code',
  confirm: 'Turn on',
  recoveryTitle: 'Save your recovery codes',
  recoveryIntro:
    'If you lose your phone, log in with a recovery code; each works once. They are shown only this time: keep them safe.',
  done: 'I have saved them',
  disable: 'Turn off two-factor login',
  disableIntro: 'Enter a current code or your password to turn it off:',
  disableCode: 'Code or recovery code',
  password: 'Password',
  proofRequired: 'Enter a code or your password',
  loginTitle: 'Two-factor login',
  loginIntro: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  loginCode: 'Code or recovery code',
  loginCodeRequired: 'Enter a code or a recovery code',
  verify: 'Verify',
  back: 'Back to login',
  enrolTitle: 'Set up two-factor login first',
  enrolIntro:
    'Your administrator requires two-factor login for your account. Set it up to enter the console.',
  continue: 'Enter the console',
  policyCompany: "Require two-factor login of the company's users",
  policyPlatform: 'Require two-factor login of every user of the platform',
  reset: 'Reset two-factor login',
  resetConfirm:
    'Reset the two-factor login of {{username}}? They will log in with the password alone (or set it up again if required).',
  enabledTag: '2FA',
  locked: 'Login locked',
  lockReason: '{{ip}}: {{count}} failures, locked until {{until}}',
  failReason: '{{ip}}: {{count}} failures',
  unlock: 'Lift login lock',
};

export type TwoFactorTexts = typeof zhCN;

i18n.addResourceBundle('zh-CN', TWO_FACTOR_NS, zhCN, true, true);
i18n.addResourceBundle('en-US', TWO_FACTOR_NS, enUS, true, true);
