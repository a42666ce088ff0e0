import {
  ZDeviceAvailability,
  ZDeviceIdQuery,
  ZDeviceConnection,
  ZDeviceConnectionQuery,
  pageOf,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http/envelope.js';
import type { ConnectionService } from './connection.service.js';

const tags = ['device'];

export function connectionRoutes(connections: ConnectionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/device/connection/list',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Connections of a device (connected, disconnected, reason), newest first',
          querystring: ZDeviceConnectionQuery,
          response: responses(pageOf(ZDeviceConnection)),
        },
      },
      async (req) => ok(await connections.list(req.scope, req.query)),
    );

    app.get(
      '/device/connection/availability',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Share of the last 24 hours and 7 days the device was connected',
          querystring: ZDeviceIdQuery,
          response: responses(ZDeviceAvailability),
        },
      },
      async (req) => ok(await connections.availability(req.scope, req.query.deviceId)),
    );
  };
}
