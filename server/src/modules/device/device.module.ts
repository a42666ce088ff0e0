import type { Platform, ServerModule } from '../../platform/module.js';
import { ConnectionRepository } from './connection.repository.js';
import { connectionRoutes } from './connection.routes.js';
import { ConnectionService } from './connection.service.js';
import { DeviceLogRepository } from './device-log.repository.js';
import { deviceLogRoutes } from './device-log.routes.js';
import { DeviceLogService } from './device-log.service.js';
import { DeviceTagRepository } from './device-tag.repository.js';
import { DeviceTagService } from './device-tag.service.js';
import { deviceMenu } from './device.menu.js';
import './device.messages.js';
import { DeviceRepository } from './device.repository.js';
import { deviceRoutes } from './device.routes.js';
import { DeviceService } from './device.service.js';
import { GroupRepository } from './group.repository.js';
import { groupRoutes } from './group.routes.js';
import { GroupService } from './group.service.js';
import { TokenRepository } from './token.repository.js';
import { tokenRoutes } from './token.routes.js';
import { TokenService } from './token.service.js';

/** The device registry: tokens, groups, devices, their log and their connection history. */
export function deviceModule({ db, dialect, dataRules, permissions, bus, clock, log }: Platform) {
  const deviceRepository = new DeviceRepository(db, dialect);
  const tokens = new TokenService(new TokenRepository(db), deviceRepository, clock, bus);
  const groups = new GroupService(
    new GroupRepository(db),
    deviceRepository,
    dataRules,
    permissions,
    clock,
  );
  const deviceLogs = new DeviceLogService(new DeviceLogRepository(db), clock);
  const devices = new DeviceService(
    deviceRepository,
    tokens,
    groups,
    deviceLogs,
    new DeviceTagService(new DeviceTagRepository(db)),
    dataRules,
    permissions,
    clock,
    bus,
  );
  const connections = new ConnectionService(new ConnectionRepository(db), devices, clock, log);
  const module: ServerModule = {
    name: 'device',
    routes: [
      tokenRoutes(tokens),
      groupRoutes(groups),
      deviceRoutes(devices),
      connectionRoutes(connections),
      deviceLogRoutes(deviceLogs),
    ],
    menu: deviceMenu,
    jobs: connections.scheduledJobs(),
  };
  return { tokens, groups, deviceLogs, devices, connections, module };
}
