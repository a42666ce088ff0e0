import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const gatewayMessages = defineMessages({
  mqttHookSecretInvalid: {
    'zh-CN': 'MQTT 钩子密钥缺失或错误',
    'en-US': 'Missing or wrong MQTT hook secret',
  },
});

type GatewayMessages = typeof gatewayMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends GatewayMessages {}
}
