import type { Platform, ServerModule } from '../../platform/module.js';
import type { DeviceConfigService } from '../device-config/config.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { UplinkRouter } from '../device-gateway/uplink-router.service.js';
import './command.messages.js';
import { DeviceCommandRepository } from './command.repository.js';
import { deviceCommandRoutes } from './command.routes.js';
import { DeviceCommandService } from './command.service.js';

export function deviceCommandModule(
  { db, permissions, bus, clock, log }: Platform,
  deps: {
    devices: DeviceService;
    configs: DeviceConfigService;
    deviceLogs: DeviceLogService;
    gateway: GatewayService;
    uplinks: UplinkRouter;
  },
) {
  const commands = new DeviceCommandService(
    new DeviceCommandRepository(db),
    deps.devices,
    deps.configs,
    deps.deviceLogs,
    permissions,
    deps.gateway,
    bus,
    log,
    clock,
  );
  deps.uplinks.handle({
    rpcReplied: (device, reqId, payload, at) => commands.rpcReplied(device, reqId, payload, at),
  });
  const module: ServerModule = {
    name: 'device-command',
    routes: [deviceCommandRoutes(commands)],
    jobs: commands.scheduledJobs(),
  };
  return { commands, module };
}
