import { ZDeviceLog, ZDeviceLogQuery, ZIdQuery, pageOf } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http/envelope.js';
import type { DeviceLogService } from './device-log.service.js';

const tags = ['device-log'];

/** Read only: device logs are written by the server. */
export function deviceLogRoutes(logs: DeviceLogService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/device/log/list',
      {
        config: { permission: 'devicelog:list' },
        schema: {
          tags,
          summary: 'Device logs of the company',
          querystring: ZDeviceLogQuery,
          response: responses(pageOf(ZDeviceLog)),
        },
      },
      async (req) => ok(await logs.list(req.scope, req.query, req.lang)),
    );

    app.get(
      '/device/log/queryById',
      {
        config: { permission: 'devicelog:list' },
        schema: {
          tags,
          summary: 'One device log',
          querystring: ZIdQuery,
          response: responses(ZDeviceLog),
        },
      },
      async (req) => ok(await logs.get(req.scope, req.query.id, req.lang)),
    );
  };
}
