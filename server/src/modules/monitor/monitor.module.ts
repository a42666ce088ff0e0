import { MONITOR_TRACE_SIZE } from '@blrms/contracts';
import type { Platform, ServerModule } from '../../platform/module.js';
import type { DeviceDataWriter } from '../device-data/device-data-writer.service.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import { MetricsService } from './metrics.service.js';
import { registerMetricsRoute } from './metrics.routes.js';
import { monitorMenu } from './monitor.menu.js';
import './monitor.messages.js';
import { registerMonitorHooks } from './monitor.hook.js';
import { MonitorRepository } from './monitor.repository.js';
import { monitorRoutes } from './monitor.routes.js';
import { MonitorService } from './monitor.service.js';
import { NodeStats } from './node-stats.service.js';
import { onlineUserRoutes } from './online-user.routes.js';
import { OnlineUserService } from './online-user.service.js';
import { RedisInfoService } from './redis-info.service.js';
import { RequestTrace } from './request-trace.service.js';

/**
 * 系统监控 (every node's state, the database, MQTT, Redis, disk, the request trace), 在线用户
 * (sessions and force logout) and `GET /metrics` for Prometheus. Reads the gateway's traffic
 * counters and the telemetry writer's; writes nothing.
 */
export function monitorModule(
  { config, db, dialect, bus, clock, log, sessions, permissions, consoleSockets }: Platform,
  { gateway, deviceData }: { gateway: GatewayService; deviceData: DeviceDataWriter },
) {
  const repository = new MonitorRepository(db, dialect);
  const sources = {
    nodeId: () => gateway.node,
    traffic: () => gateway.traffic(),
    consoleSockets,
    deviceData: () => deviceData.stats(),
    db,
    clock,
  };
  const stats = new NodeStats({ ...sources, dataDir: config.dataDir });
  const trace = new RequestTrace(MONITOR_TRACE_SIZE, clock);
  const metrics = new MetricsService({ ...sources, repository, log });
  const monitor = new MonitorService({
    stats,
    trace,
    redis: new RedisInfoService(config.redisUrl),
    repository,
    permissions,
    bus,
    clock,
    dialect,
  });
  const module: ServerModule = {
    name: 'monitor',
    routes: [
      monitorRoutes(monitor),
      onlineUserRoutes(new OnlineUserService(sessions, permissions)),
    ],
    menu: monitorMenu,
    jobs: monitor.scheduledJobs(),
    hooks: (app) => {
      stats.attach(app.server);
      registerMonitorHooks(app, trace, metrics);
      registerMetricsRoute(app, metrics, config.metricsToken);
    },
    close: async () => monitor.close(),
  };
  return { monitor, metrics, module };
}
