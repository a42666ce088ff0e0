import { type SeedPermission } from '../../db/seed/menu.js';

function buttons(
  parent: string,
  prefix: string,
  list: readonly (readonly [action: string, name: string, nameEn: string])[],
): SeedPermission[] {
  return list.map(([action, name, nameEn], index) => ({
    key: `${parent}-${action}`,
    parent,
    name,
    name_en: nameEn,
    menu_type: 2,
    perms: `${prefix}:${action}`,
    sort_no: index,
  }));
}

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const messageMenu: SeedPermission[] = [
  {
    key: 'system-message-template',
    parent: 'system',
    name: '消息模板',
    name_en: 'Message templates',
    menu_type: 1,
    url: '/system/message/template',
    component_name: 'system-message-template',
    component: 'system/MessageTemplateList',
    icon: 'mail',
    perms: 'system:message:template:list',
    sort_no: 30,
  },
  ...buttons('system-message-template', 'system:message:template', [
    ['add', '新增消息模板', 'Add message template'],
    ['edit', '编辑消息模板', 'Edit message template'],
    ['delete', '删除消息模板', 'Delete message template'],
    ['test', '发送测试消息', 'Send a test message'],
  ]),
  {
    key: 'system-message',
    parent: 'system',
    name: '消息记录',
    name_en: 'Sent messages',
    menu_type: 1,
    url: '/system/message/history',
    component_name: 'system-message',
    component: 'system/MessageList',
    icon: 'history',
    perms: 'system:message:list',
    sort_no: 31,
  },
  ...buttons('system-message', 'system:message', [['resend', '重发消息', 'Resend message']]),
  {
    key: 'system-message-webhook',
    parent: 'system',
    name: 'Webhook',
    name_en: 'Webhooks',
    menu_type: 1,
    url: '/system/message/webhook',
    component_name: 'system-message-webhook',
    component: 'system/MessageWebhookList',
    icon: 'api',
    perms: 'system:message:webhook:list',
    sort_no: 32,
  },
  ...buttons('system-message-webhook', 'system:message:webhook', [
    ['add', '新增 Webhook', 'Add webhook'],
    ['edit', '编辑 Webhook', 'Edit webhook'],
    ['delete', '删除 Webhook', 'Delete webhook'],
    ['test', '测试 Webhook', 'Test webhook'],
  ]),
  {
    // Platform-wide (the `system:setting` prefix keeps it for platform administrators).
    key: 'system-message-webhook-network',
    parent: 'system-message-webhook',
    name: 'Webhook 网络设置',
    name_en: 'Webhook network setting',
    menu_type: 2,
    perms: 'system:setting:webhook',
    sort_no: 10,
  },
];
