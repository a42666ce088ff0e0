import {
  ZDeviceCommand,
  ZDeviceCommandPage,
  ZDeviceCommandQuery,
  ZDeviceCommandSend,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { DeviceCommandService } from './command.service.js';

const tags = ['device-command'];

export function deviceCommandRoutes(commands: DeviceCommandService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/device/command',
      {
        // Free-form methods also need device:command:custom (checked by the service).
        config: { permission: 'device:command' },
        schema: {
          tags,
          summary:
            'Send a command to an online device; its answer or timeout arrives on the device’s channel',
          body: ZDeviceCommandSend,
          response: responses(ZDeviceCommand),
        },
      },
      async (req) =>
        ok(
          await commands.send(req.scope, req.body, {
            requestUrl: req.url.split('?')[0] ?? req.url,
            ip: req.ip,
          }),
          message(req.lang, 'deviceCommandSent'),
        ),
    );

    app.get(
      '/device/command/list',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Commands sent to a device, newest first',
          querystring: ZDeviceCommandQuery,
          response: responses(ZDeviceCommandPage),
        },
      },
      async (req) => ok(await commands.list(req.scope, req.query)),
    );
  };
}
