import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const messageCenterMessages = defineMessages({
  messageTemplateNotFound: { 'zh-CN': '消息模板不存在', 'en-US': 'Message template not found' },
  messageTemplateExists: {
    'zh-CN': 'code: 该编码在此渠道已有模板',
    'en-US': 'code: a template with this code already exists for this channel',
  },
  messageTemplateUndeclared: {
    'zh-CN': (p) => `testData: 模板使用的变量没有测试数据：${p.names}`,
    'en-US': (p) => `testData: the template uses variables without test data: ${p.names}`,
  },
  messageTemplateSubjectRequired: {
    'zh-CN': 'subject: 邮件和系统消息必须有标题（中英文）',
    'en-US': 'subject: email and system messages need a subject (in both languages)',
  },
  messageTemplateBuiltIn: {
    'zh-CN': '平台内置模板不能删除，也不能修改编码和渠道；可以停用',
    'en-US':
      "The platform's own templates cannot be deleted nor change code or channel; disable them instead",
  },
  messageTestReceiverRequired: {
    'zh-CN': 'userId: 请选择用户或填写地址',
    'en-US': 'userId: choose a user or enter an address',
  },
  messageReceiverNoAddress: {
    'zh-CN': (p) => `userId: 该用户没有${p.channel === 'sms' ? '手机号' : '邮箱'}`,
    'en-US': (p) =>
      `userId: this user has no ${p.channel === 'sms' ? 'phone number' : 'email address'}`,
  },
  messageAddressInvalid: {
    'zh-CN': (p) => `address: 不是有效的${p.channel === 'sms' ? '手机号' : '邮箱地址'}`,
    'en-US': (p) =>
      `address: not a valid ${p.channel === 'sms' ? 'phone number' : 'email address'}`,
  },
  messageAddressNotForChannel: {
    'zh-CN': 'address: 系统消息和 Webhook 不能发往地址',
    'en-US': 'address: system messages and webhooks are not sent to an address',
  },
  messageUserNotFound: { 'zh-CN': 'userId: 用户不存在', 'en-US': 'userId: no such user' },
  messageNotFound: { 'zh-CN': '消息不存在', 'en-US': 'Message not found' },
  messageNotFailed: {
    'zh-CN': '只有发送失败的消息可以重发',
    'en-US': 'Only failed messages can be sent again',
  },
  messageWebhookNotFound: { 'zh-CN': 'Webhook 不存在', 'en-US': 'Webhook endpoint not found' },
  messageWebhookNone: {
    'zh-CN': '没有启用的 Webhook，请先添加',
    'en-US': 'There is no enabled webhook endpoint: add one first',
  },
  messageWebhookUrlScheme: {
    'zh-CN': 'url: 必须是 https 地址（平台未允许内网 Webhook）',
    'en-US': 'url: must be an https URL (the platform does not allow private-network webhooks)',
  },
  messageWebhookUrlPrivate: {
    'zh-CN': 'url: 不能指向内网、本机或保留地址（平台未允许内网 Webhook）',
    'en-US':
      'url: must not point to a private, loopback or reserved address (not allowed by the platform)',
  },
  messageWebhookUrlCredentials: {
    'zh-CN': 'url: 不能包含用户名或密码，签名密钥由平台生成',
    'en-US': 'url: must not contain a user name or password; deliveries are signed instead',
  },
  messageLimit: {
    'zh-CN': (p) => `数量已达上限（${p.max}）`,
    'en-US': (p) => `The limit of ${p.max} has been reached`,
  },
  messageQueued: { 'zh-CN': '已加入发送队列', 'en-US': 'Queued for sending' },
  messageSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  messageDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  messageWebhookTestTitle: { 'zh-CN': 'Webhook 测试', 'en-US': 'Webhook test' },
  messageWebhookTestContent: {
    'zh-CN': '这是一条来自 BLRMS 的测试消息，签名可按文档校验。',
    'en-US': 'This is a test message from BLRMS; verify its signature as documented.',
  },
});

type MessageCenterMessages = typeof messageCenterMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends MessageCenterMessages {}
}
