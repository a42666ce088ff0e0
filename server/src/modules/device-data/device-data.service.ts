import {
  TELEMETRY_HISTORY_MAX_POINTS,
  type TDeviceEvent,
  type TDeviceEventQuery,
  type TDeviceTelemetryHistory,
  type TDeviceTelemetryHistoryQuery,
  type TDeviceTelemetryLatest,
  type TTelemetryValues,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/app-error.js';
import type { DeviceService } from '../device/device.service.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';
import { toEvent, type DeviceDataWriter } from './device-data-writer.service.js';
import type { DeviceDataRepository } from './device-data.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Telemetry and events of devices as the API reads them. Readers go through DeviceService, so a
 * device outside the caller's company or data rules is "not found" here too.
 */
export class DeviceDataService {
  constructor(
    private readonly repository: DeviceDataRepository,
    private readonly devices: DeviceService,
    private readonly writer: DeviceDataWriter,
    private readonly clock: Clock,
  ) {}

  /** Stored values, with what this node has received and not yet written on top. */
  async latest(scope: Scope, deviceId: string): Promise<TDeviceTelemetryLatest> {
    await this.devices.get(scope, deviceId);
    const values = this.writer.withUnwritten(deviceId, await this.repository.latest(deviceId));
    return {
      deviceId,
      values: Object.entries(values)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, [value, ts]]) => ({ key, value, ts: iso(ts) })),
    };
  }

  async history(
    scope: Scope,
    query: TDeviceTelemetryHistoryQuery,
  ): Promise<TDeviceTelemetryHistory> {
    await this.devices.get(scope, query.deviceId);
    const end = query.end ? Date.parse(query.end) : this.clock();
    const begin = query.begin ? Date.parse(query.begin) : end - DAY_MS;
    if (begin > end) throw new AppError('deviceDataRangeInvalid', 400);
    const rows = await this.repository.history(
      query.deviceId,
      begin,
      end,
      TELEMETRY_HISTORY_MAX_POINTS + 1,
    );
    const truncated = rows.length > TELEMETRY_HISTORY_MAX_POINTS;
    const points = rows
      .slice(0, TELEMETRY_HISTORY_MAX_POINTS)
      .reverse()
      .map((r) => ({ ts: iso(r.ts), values: JSON.parse(r.values_json) as TTelemetryValues }));
    return { deviceId: query.deviceId, points, truncated };
  }

  async events(scope: Scope, query: TDeviceEventQuery): Promise<Page<TDeviceEvent>> {
    await this.devices.get(scope, query.deviceId);
    const from = query.begin ? Date.parse(query.begin) : undefined;
    const to = query.end ? Date.parse(query.end) : undefined;
    if (from !== undefined && to !== undefined && from > to) {
      throw new AppError('deviceDataRangeInvalid', 400);
    }
    const { records, total } = await this.repository.eventPage(
      scope.companyId,
      { deviceId: query.deviceId, level: query.level, from, to },
      query,
    );
    return pageResult(records.map(toEvent), total, query);
  }
}
