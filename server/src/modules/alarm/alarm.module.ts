import type { Platform, ServerModule } from '../../platform/module.js';
import type { CampaignEngine } from '../campaign/campaign-engine.service.js';
import type { DepartService } from '../depart/depart.service.js';
import type { DeviceConfigService } from '../device-config/config.service.js';
import type { UplinkRouter } from '../device-gateway/uplink-router.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { MessageService } from '../message/message.service.js';
import type { RoleService } from '../role/role.service.js';
import { AlarmChannelService } from './alarm-channel.service.js';
import { AlarmEngine, type AlarmEngineOptions } from './alarm-engine.service.js';
import { alarmMenu } from './alarm.menu.js';
import './alarm.messages.js';
import { AlarmRepository } from './alarm.repository.js';
import { alarmRoutes } from './alarm.routes.js';
import { AlarmRuleService } from './alarm-rule.service.js';
import { AlarmService } from './alarm.service.js';

/**
 * Alarms: rules, the engine that evaluates them (telemetry and events on the ingest path, offline
 * devices, failed pushes and upgrades), the lifecycle, notifications and the `alarms` channel.
 */
export function alarmModule(
  { db, bus, clock, log, permissions, dataRules }: Platform,
  deps: {
    uplinks: Pick<UplinkRouter, 'observe'>;
    devices: DeviceService;
    deviceLogs: DeviceLogService;
    messages: MessageService;
    roles: RoleService;
    departs: DepartService;
    configs: Pick<DeviceConfigService, 'onOutcome'>;
    engine: Pick<CampaignEngine, 'onUpgradeOutcome'>;
  },
  options: Partial<AlarmEngineOptions> = {},
) {
  const repository = new AlarmRepository(db);
  const alarms = new AlarmService(repository, {
    deviceLogs: deps.deviceLogs,
    messages: deps.messages,
    roles: deps.roles,
    departs: deps.departs,
    dataRules,
    bus,
    clock,
    log,
  });
  const rules = new AlarmRuleService(repository, alarms, {
    messages: deps.messages,
    roles: deps.roles,
    departs: deps.departs,
    bus,
    clock,
  });
  const alarmEngine = new AlarmEngine(repository, alarms, bus, clock, log, options);
  alarmEngine.listen({ configs: deps.configs, campaigns: deps.engine });
  deps.uplinks.observe({
    telemetry: (device, payload, receivedAt) => alarmEngine.telemetry(device, payload, receivedAt),
    event: (device, event, receivedAt) => alarmEngine.event(device, event, receivedAt),
  });
  const module: ServerModule = {
    name: 'alarm',
    routes: [alarmRoutes(alarms, rules)],
    menu: alarmMenu,
    jobs: [...alarmEngine.scheduledJobs(), ...alarms.scheduledJobs()],
    channels: [new AlarmChannelService(permissions, deps.devices, log)],
    start: () => alarmEngine.start(),
    close: () => alarmEngine.close(),
  };
  return { alarms, alarmRules: rules, alarmEngine, module };
}
