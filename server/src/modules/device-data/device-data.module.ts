import type { Platform, ServerModule } from '../../platform/module.js';
import type { DeviceService } from '../device/device.service.js';
import { DeviceChannelsService } from './device-channels.service.js';
import { DeviceDataRetentionService } from './device-data-retention.service.js';
import { DeviceDataWriter } from './device-data-writer.service.js';
import './device-data.messages.js';
import { DeviceDataRepository } from './device-data.repository.js';
import { deviceDataRoutes } from './device-data.routes.js';
import { DeviceDataService } from './device-data.service.js';

/** Telemetry and events: the writer the gateway feeds, the API's reads, retention, live channels. */
export function deviceDataModule(
  { db, dialect, permissions, bus, clock, log }: Platform,
  deps: { devices: DeviceService },
) {
  const repository = new DeviceDataRepository(db, dialect);
  const writer = new DeviceDataWriter(repository, bus, log, clock);
  const retention = new DeviceDataRetentionService(repository, permissions, log, clock);
  const channels = new DeviceChannelsService(deps.devices, permissions, log);
  const module: ServerModule = {
    name: 'device-data',
    routes: [
      deviceDataRoutes(new DeviceDataService(repository, deps.devices, writer, clock), retention),
    ],
    jobs: [...writer.scheduledJobs(), ...retention.scheduledJobs()],
    // The fleet before the device channel: a grant change re-checks `devices` first.
    channels: [channels.fleetKind, channels.deviceKind],
    close: () => writer.close(),
  };
  return { writer, retention, module };
}
