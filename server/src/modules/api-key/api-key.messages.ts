import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const apiKeyMessages = defineMessages({
  // API keys (issue 14)
  apiKeyInvalid: {
    'zh-CN': 'API密钥无效',
    'en-US': 'Invalid API key',
  },
  apiKeyExpired: {
    'zh-CN': (p) => `API密钥已于 ${p.time} 过期，请创建新的密钥`,
    'en-US': (p) => `This API key expired at ${p.time}; create a new one`,
  },
  apiKeyRevoked: {
    'zh-CN': 'API密钥已被撤销',
    'en-US': 'This API key has been revoked',
  },
  apiKeyPermissionNotHeld: {
    'zh-CN': (p) => `permissions: 您没有权限 ${p.code}，不能授予API密钥`,
    'en-US': (p) => `permissions: you do not hold ${p.code}, so a key cannot have it`,
  },
  apiKeyExpiryPast: {
    'zh-CN': 'expireTime: 必须晚于当前时间',
    'en-US': 'expireTime: must be in the future',
  },
  apiKeyExpiryTooLate: {
    'zh-CN': (p) => `expireTime: 最长有效期为 ${p.days} 天`,
    'en-US': (p) => `expireTime: must be at most ${p.days} days from now`,
  },
  apiKeyCompanyFrozen: {
    'zh-CN': '该公司已冻结，API密钥暂不可用',
    'en-US': 'This company is frozen: its API keys are refused until it is unfrozen',
  },
  apiKeyNotFound: {
    'zh-CN': 'API密钥不存在',
    'en-US': 'API key not found',
  },
  apiKeyCreated: {
    'zh-CN': 'API密钥已创建，请立即复制保存，它不会再次显示',
    'en-US': 'API key created: copy it now, it will not be shown again',
  },
  apiKeyRevokedOk: {
    'zh-CN': 'API密钥已撤销',
    'en-US': 'API key revoked',
  },
});

type ApiKeyMessages = typeof apiKeyMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends ApiKeyMessages {}
}
