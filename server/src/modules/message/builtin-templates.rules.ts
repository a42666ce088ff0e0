import type { TMessageChannel } from '@blrms/contracts';
import type { Vars } from './message-render.rules.js';

/** A template the platform ships: seeded into the platform company when missing. */
export interface BuiltInTemplate {
  code: string;
  channel: TMessageChannel;
  name: string;
  subject: string;
  subjectEn: string;
  content: string;
  contentEn: string;
  testData: Vars;
}

const CODE_TEXT = '【BLRMS】您的验证码是 {{code}}，{{minutes}} 分钟内有效，请勿告诉他人。';
const CODE_TEXT_EN =
  '[BLRMS] Your verification code is {{code}}. It is valid for {{minutes}} minutes; do not share it.';

const ALARM_VARS = {
  rule: 'Signal low',
  severity: 'major',
  severityZh: '重要',
  device: 'R40-001',
  sn: 'R40-001',
  message: 'R40-001 信号 -105 低于 -100 已持续 5 分钟',
  messageEn: 'R40-001 signal -105 below -100 for 5 min',
  value: -105,
  time: '2026-11-27 10:00:00',
};

/**
 * The alarm module's messages, one template per channel (a rule chooses its channels). The
 * alarm's text comes in both languages (`message`, `messageEn`), as does its severity.
 */
const ALARM_TEMPLATES: BuiltInTemplate[] = (['system', 'email', 'sms', 'webhook'] as const).flatMap(
  (channel) => [
    {
      code: 'alarm_raised',
      channel,
      name: '告警通知',
      subject: '【{{severityZh}}】{{rule}}：{{device}}',
      subjectEn: '[{{severity}}] {{rule}}: {{device}}',
      content: '{{message}}（设备 {{device}}，SN {{sn}}，值 {{value}}，时间 {{time}}）',
      contentEn: '{{messageEn}} (device {{device}}, SN {{sn}}, value {{value}}, at {{time}})',
      testData: ALARM_VARS,
    },
    {
      code: 'alarm_cleared',
      channel,
      name: '告警恢复通知',
      subject: '【已恢复】{{rule}}：{{device}}',
      subjectEn: '[Cleared] {{rule}}: {{device}}',
      content: '告警已清除：{{message}}（设备 {{device}}，SN {{sn}}，时间 {{time}}）',
      contentEn: 'Alarm cleared: {{messageEn}} (device {{device}}, SN {{sn}}, at {{time}})',
      testData: ALARM_VARS,
    },
  ],
);

/**
 * The platform's own messages. Platform administrators edit their texts (both languages) on the
 * templates screen; a company can override one for itself. Codes and channels are fixed: the
 * modules that send them name them.
 */
export const BUILT_IN_TEMPLATES: BuiltInTemplate[] = [
  {
    code: 'verify_code_sms',
    channel: 'sms',
    name: '短信验证码',
    subject: '',
    subjectEn: '',
    content: CODE_TEXT,
    contentEn: CODE_TEXT_EN,
    testData: { code: '123456', minutes: 10 },
  },
  {
    code: 'verify_code_email',
    channel: 'email',
    name: '邮箱验证码',
    subject: 'BLRMS 验证码',
    subjectEn: 'Your BLRMS verification code',
    content: CODE_TEXT,
    contentEn: CODE_TEXT_EN,
    testData: { code: '123456', minutes: 10 },
  },
  {
    code: 'device_offline',
    channel: 'system',
    name: '设备离线提醒',
    subject: '{{count}} 台设备离线',
    subjectEn: '{{count}} device(s) offline',
    content: '以下设备已离线超过 {{seconds}} 秒：{{devices}}',
    contentEn: 'These devices have been offline for more than {{seconds}} s: {{devices}}',
    testData: { count: 2, seconds: 60, devices: 'R40-001, Gateway (BL10X-002)' },
  },
  {
    code: 'device_unstable',
    channel: 'system',
    name: '设备连接不稳定提醒',
    subject: '{{count}} 台设备连接不稳定',
    subjectEn: '{{count}} device(s) with an unstable connection',
    content:
      '以下设备在 {{minutes}} 分钟内断线 {{times}} 次以上：{{devices}}。设备稳定 {{minutes}} 分钟之前不再提醒。',
    contentEn:
      'These devices went offline {{times}} times or more within {{minutes}} minutes: {{devices}}. No further alerts until they have been stable for {{minutes}} minutes.',
    testData: { count: 1, minutes: 10, times: 4, devices: 'R40-001' },
  },
  {
    code: 'campaign_finished',
    channel: 'system',
    name: '任务完成通知',
    subject: '任务「{{campaign}}」已完成',
    subjectEn: 'Campaign "{{campaign}}" completed',
    content:
      '任务「{{campaign}}」已完成：成功 {{updated}} 台，失败 {{failed}} 台，共 {{total}} 台。',
    contentEn:
      'Campaign "{{campaign}}" completed: {{updated}} updated, {{failed}} failed, {{total}} in all.',
    testData: { campaign: 'R40 v2.1.0', updated: 98, failed: 2, total: 100 },
  },
  {
    code: 'campaign_failed',
    channel: 'system',
    name: '任务失败通知',
    subject: '任务「{{campaign}}」失败',
    subjectEn: 'Campaign "{{campaign}}" failed',
    content:
      '任务「{{campaign}}」已结束但失败：成功 {{updated}} 台，失败 {{failed}} 台，共 {{total}} 台。请查看任务详情。',
    contentEn:
      'Campaign "{{campaign}}" ended as failed: {{updated}} updated, {{failed}} failed, {{total}} in all. See the campaign for details.',
    testData: { campaign: 'R40 v2.1.0', updated: 3, failed: 17, total: 20 },
  },
  {
    code: 'fleet_report',
    channel: 'system',
    name: '设备日报',
    subject: '设备日报 {{date}}',
    subjectEn: 'Fleet report {{date}}',
    content:
      '在线 {{online}} 台，离线 {{offline}} 台。离线最久：{{offlineLongest}}。失败的升级：{{failedUpgrades}}。',
    contentEn:
      'Online: {{online}}, offline: {{offline}}. Offline longest: {{offlineLongest}}. Failed upgrades: {{failedUpgrades}}.',
    testData: {
      date: '2026-11-27',
      online: 120,
      offline: 3,
      offlineLongest: 'R40-001 (3 d)',
      failedUpgrades: 1,
    },
  },
  ...ALARM_TEMPLATES,
];

export function isBuiltIn(code: string, channel: string): boolean {
  return BUILT_IN_TEMPLATES.some((t) => t.code === code && t.channel === channel);
}
