import {
  ZConfigHistoryPage,
  ZConfigHistoryQuery,
  ZConfigSchemas,
  ZDeviceConfigQuery,
  ZDeviceConfigSet,
  ZDeviceConfigState,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { DeviceConfigService } from './config.service.js';

const tags = ['device-config'];

export function deviceConfigRoutes(configs: DeviceConfigService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/device/config',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Desired and reported configuration of a device, and whether it is applied',
          querystring: ZDeviceConfigQuery,
          response: responses(ZDeviceConfigState),
        },
      },
      async (req) => ok(await configs.state(req.scope, req.query.deviceId)),
    );

    app.put(
      '/device/config',
      {
        config: { permission: 'device:config' },
        schema: {
          tags,
          summary:
            'Set the desired configuration of a device (a new version; sent now when it is online)',
          body: ZDeviceConfigSet,
          response: responses(ZDeviceConfigState),
        },
      },
      async (req) => {
        const { state, sent } = await configs.set(req.scope, req.body, {
          requestUrl: req.url.split('?')[0] ?? req.url,
          ip: req.ip,
        });
        return ok(state, message(req.lang, sent ? 'deviceConfigSent' : 'deviceConfigQueued'));
      },
    );

    app.get(
      '/device/config/history',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Versions of a device’s desired configuration, newest first',
          querystring: ZConfigHistoryQuery,
          response: responses(ZConfigHistoryPage),
        },
      },
      async (req) => ok(await configs.history(req.scope, req.query)),
    );

    app.get(
      '/device/config/schemas',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'JSON Schema of each series’ configuration, for forms and API users',
          querystring: ZNoQuery,
          response: responses(ZConfigSchemas),
        },
      },
      async () => ok(configs.schemas()),
    );
  };
}
