import {
  ZDataRetention,
  ZDeviceEvent,
  ZDeviceEventQuery,
  ZDeviceIdQuery,
  ZDeviceTelemetryHistory,
  ZDeviceTelemetryHistoryQuery,
  ZDeviceTelemetryLatest,
  pageOf,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { DeviceDataRetentionService } from './device-data-retention.service.js';
import type { DeviceDataService } from './device-data.service.js';

const tags = ['device-data'];

/** Read only, apart from the retention setting: devices write their data over MQTT. */
export function deviceDataRoutes(
  data: DeviceDataService,
  retention: DeviceDataRetentionService,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/device/telemetry/latest',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Latest value of every telemetry key the device has reported',
          querystring: ZDeviceIdQuery,
          response: responses(ZDeviceTelemetryLatest),
        },
      },
      async (req) => ok(await data.latest(req.scope, req.query.deviceId)),
    );

    app.get(
      '/device/telemetry/history',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Telemetry samples of a time range (the latest ones when there are too many)',
          querystring: ZDeviceTelemetryHistoryQuery,
          response: responses(ZDeviceTelemetryHistory),
        },
      },
      async (req) => ok(await data.history(req.scope, req.query)),
    );

    app.get(
      '/device/event/list',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Events of a device, by time',
          querystring: ZDeviceEventQuery,
          response: responses(pageOf(ZDeviceEvent)),
        },
      },
      async (req) => ok(await data.events(req.scope, req.query)),
    );

    app.get(
      '/device/data/retention',
      {
        config: { permission: 'device:retention' },
        schema: {
          tags,
          summary: 'How long telemetry and events are kept (platform-wide)',
          querystring: ZNoQuery,
          response: responses(ZDataRetention),
        },
      },
      async (req) => ok(await retention.viewRetention(req.scope)),
    );

    app.put(
      '/device/data/retention',
      {
        config: { permission: 'device:retention' },
        schema: {
          tags,
          summary: 'Set how long telemetry and events are kept (platform administrators)',
          body: ZDataRetention,
          response: responses(ZDataRetention),
        },
      },
      async (req) =>
        ok(
          await retention.setRetention(req.scope, req.body),
          message(req.lang, 'dataRetentionSaved'),
        ),
    );
  };
}
