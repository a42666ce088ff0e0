import type { Platform, ServerModule } from '../../platform/module.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { UplinkRouter } from '../device-gateway/uplink-router.service.js';
import './config.messages.js';
import { DeviceConfigRepository } from './config.repository.js';
import { deviceConfigRoutes } from './config.routes.js';
import { DeviceConfigService } from './config.service.js';

export function deviceConfigModule(
  { db, bus, clock, log }: Platform,
  deps: {
    devices: DeviceService;
    deviceLogs: DeviceLogService;
    gateway: GatewayService;
    uplinks: UplinkRouter;
  },
) {
  const configs = new DeviceConfigService(
    new DeviceConfigRepository(db),
    deps.devices,
    deps.deviceLogs,
    deps.gateway,
    bus,
    log,
    clock,
  );
  deps.uplinks.handle({
    configReported: (device, payload, at) => configs.configReported(device, payload, at),
    deviceOnline: (device) => configs.deviceOnline(device),
  });
  const module: ServerModule = {
    name: 'device-config',
    routes: [deviceConfigRoutes(configs)],
    jobs: configs.scheduledJobs(),
  };
  return { configs, module };
}
