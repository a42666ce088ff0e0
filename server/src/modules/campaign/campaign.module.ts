import type { Platform, ServerModule } from '../../platform/module.js';
import type { DeviceConfigService } from '../device-config/config.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { UplinkRouter } from '../device-gateway/uplink-router.service.js';
import type { FirmwareService } from '../firmware/firmware.service.js';
import type { MessageService } from '../message/message.service.js';
import { CampaignChannelService } from './campaign-channel.service.js';
import { CampaignEngine, type CampaignEngineOptions } from './campaign-engine.service.js';
import { campaignMenu } from './campaign.menu.js';
import './campaign.messages.js';
import { CampaignRepository } from './campaign.repository.js';
import { campaignRoutes } from './campaign.routes.js';
import { CampaignService } from './campaign.service.js';

export function campaignModule(
  { db, dialect, dataRules, permissions, bus, clock, log }: Platform,
  deps: {
    firmware: FirmwareService;
    configs: DeviceConfigService;
    devices: DeviceService;
    deviceLogs: DeviceLogService;
    gateway: GatewayService;
    uplinks: UplinkRouter;
    messages: MessageService;
  },
  /** Campaign engine timings (tests shorten the step deadlines). */
  options: Partial<CampaignEngineOptions> = {},
) {
  const repository = new CampaignRepository(db, dialect);
  const engine = new CampaignEngine(
    {
      repository,
      firmware: deps.firmware,
      configs: deps.configs,
      downlinks: deps.gateway,
      deviceLogs: deps.deviceLogs,
      messages: deps.messages,
      bus,
      clock,
      log,
    },
    options,
  );
  deps.uplinks.handle({ otaReported: engine.otaReported, deviceOnline: engine.deviceOnline });
  const campaigns = new CampaignService(
    repository,
    engine,
    deps.firmware,
    deps.devices,
    dataRules,
    permissions,
    clock,
  );
  deps.firmware.beforeDelete((deletion, trx) => campaigns.releaseFirmware(deletion, trx));
  const module: ServerModule = {
    name: 'campaign',
    routes: [campaignRoutes(campaigns)],
    menu: campaignMenu,
    jobs: engine.scheduledJobs(),
    channels: [new CampaignChannelService(permissions)],
    close: () => engine.close(),
  };
  return { engine, campaigns, module };
}
