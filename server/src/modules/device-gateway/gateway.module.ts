import type { Platform, ServerModule } from '../../platform/module.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { MessageService } from '../message/message.service.js';
import { GatewayRepository } from './gateway.repository.js';
import './gateway.messages.js';
import { GatewayService, type GatewayOptions } from './gateway.service.js';
import { mqttHookRoutes } from './mqtt-hook.routes.js';
import { UplinkRouter } from './uplink-router.service.js';
import type { UplinkSink } from './uplink-sink.service.js';

export interface GatewayModuleOptions {
  /**
   * Starts the device transport here instead of leaving it to main.ts: the embedded broker on
   * `port` (0 picks a free one, read back as `app.deviceGateway.port`), or the external broker at
   * `url`. Without it, buildApp starts no broker (tests of other modules, API-only nodes).
   */
  mqtt?: GatewayOptions & { port?: number; url?: string };
  /** Where uplinks go instead of the device-data module (gateway tests). */
  uplinkSink?: UplinkSink;
}

/**
 * The MQTT device gateway. Replies from devices are routed by `uplinks`: the modules that send
 * downlinks (configuration, commands, campaigns) register their handlers on it.
 */
export function gatewayModule(
  { config, db, permissions, bus, clock, log }: Platform,
  deps: {
    deviceLogs: DeviceLogService;
    messages: MessageService;
    deviceData: ConstructorParameters<typeof UplinkRouter>[0];
  },
  options: GatewayModuleOptions,
) {
  const uplinks = new UplinkRouter(deps.deviceData, (err) =>
    log.error({ err }, 'uplink observer failed'),
  );
  const gateway = new GatewayService(
    {
      repository: new GatewayRepository(db),
      deviceLogs: deps.deviceLogs,
      permissions,
      alerts: deps.messages,
      bus,
      sink: options.uplinkSink ?? uplinks,
      clock,
      log,
      serverAccount: mqttServerAccount(config.mqttUrl),
    },
    options.mqtt,
  );
  const module: ServerModule = {
    name: 'device-gateway',
    routes: [mqttHookRoutes(gateway)],
    jobs: gateway.scheduledJobs(),
    start: async () => {
      // Made at first start, so that platform administrators can configure an external broker.
      await gateway.hookSecret();
      if (options.mqtt?.url) await gateway.startExternal(options.mqtt.url);
      else if (options.mqtt?.port !== undefined)
        await gateway.startEmbedded(options.mqtt.port, '127.0.0.1');
    },
    // Devices are disconnected (server-shutdown, so they reconnect to another node) and the MQTT
    // port is released.
    drain: () => gateway.close(),
  };
  return { gateway, uplinks, module };
}

/** The server's own login on an external broker, as MQTT_URL gives it (EMQX hooks let it in). */
function mqttServerAccount(url: string | undefined): { username: string; password: string } | null {
  if (!url) return null;
  const parsed = new URL(url);
  if (!parsed.username) return null;
  return {
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}
