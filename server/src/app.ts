import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { SeedPermission } from './db/seed/menu.js';
import { seed } from './db/seed/seed.js';
import { accountModule } from './modules/account/account.module.js';
import type { AlarmEngine } from './modules/alarm/alarm-engine.service.js';
import { alarmModule } from './modules/alarm/alarm.module.js';
import type { AlarmService } from './modules/alarm/alarm.service.js';
import type { AccountRateLimits } from './modules/account/account.routes.js';
import { announcementModule } from './modules/announcement/announcement.module.js';
import type { AnnouncementService } from './modules/announcement/announcement.service.js';
import { apiKeyModule } from './modules/api-key/api-key.module.js';
import { authModule, type AuthModuleOptions } from './modules/auth/auth.module.js';
import { baseDataModule } from './modules/base-data/base-data.module.js';
import type {
  CampaignEngine,
  CampaignEngineOptions,
} from './modules/campaign/campaign-engine.service.js';
import { campaignModule } from './modules/campaign/campaign.module.js';
import { checkRuleModule } from './modules/check-rule/check-rule.module.js';
import { companyModule } from './modules/company/company.module.js';
import { departModule } from './modules/depart/depart.module.js';
import { deviceCommandModule } from './modules/device-command/command.module.js';
import type { DeviceCommandService } from './modules/device-command/command.service.js';
import { deviceConfigModule } from './modules/device-config/config.module.js';
import type { DeviceConfigService } from './modules/device-config/config.service.js';
import type { DeviceDataRetentionService } from './modules/device-data/device-data-retention.service.js';
import type { DeviceDataWriter } from './modules/device-data/device-data-writer.service.js';
import { deviceDataModule } from './modules/device-data/device-data.module.js';
import {
  gatewayModule,
  type GatewayModuleOptions,
} from './modules/device-gateway/gateway.module.js';
import type { GatewayService } from './modules/device-gateway/gateway.service.js';
import type { ConnectionService } from './modules/device/connection.service.js';
import { deviceModule } from './modules/device/device.module.js';
import { dictModule } from './modules/dict/dict.module.js';
import { duplicateCheckModule } from './modules/duplicate-check/duplicate-check.module.js';
import { firmwareModule } from './modules/firmware/firmware.module.js';
import { ossFileModule } from './modules/oss-file/oss-file.module.js';
import type { FirmwareService } from './modules/firmware/firmware.service.js';
import { healthModule } from './modules/health/health.module.js';
import { logModule } from './modules/log/log.module.js';
import { messageModule } from './modules/message/message.module.js';
import type { MessageService } from './modules/message/message.service.js';
import { monitorModule } from './modules/monitor/monitor.module.js';
import { onlineFormModule } from './modules/online-form/online-form.module.js';
import { permissionModule } from './modules/permission/permission.module.js';
import { positionModule } from './modules/position/position.module.js';
import { roleModule } from './modules/role/role.module.js';
import {
  scheduledJobModule,
  type MessageCenter,
} from './modules/scheduled-job/scheduled-job.module.js';
import { siteMapModule } from './modules/site-map/site-map.module.js';
import { ssoModule } from './modules/sso/sso.module.js';
import { twoFactorModule } from './modules/two-factor/two-factor.module.js';
import { userModule } from './modules/user/user.module.js';
import { createPlatform } from './platform/platform.js';
import { fileStorage } from './platform/files/file-storage.js';
import { registerGuard, type Access } from './platform/auth/guard.js';
import type { HashCost } from './platform/auth/passwords.js';
import type { Bus } from './platform/bus/bus.js';
import type { Clock } from './platform/clock.js';
import type { DatabaseHandle } from './platform/db/database.js';
import { registerConsole } from './platform/http/console.js';
import { registerRouteSupport } from './platform/http/route-support.js';
import { createHttpServer } from './platform/http/server.js';
import { registerModules, startModules, type ServerModule } from './platform/module.js';
import type { Scheduler } from './platform/scheduler/scheduler.js';

export interface AppOptions extends AuthModuleOptions, GatewayModuleOptions {
  /** A database to use instead of the one the config names (tests). */
  database?: DatabaseHandle;
  /** argon2id cost; tests pass a cheap one. Defaults to the library's defaults. */
  hashCost?: HashCost;
  clock?: Clock;
  /** An event bus to use instead of the one the config names (tests publish on it). */
  bus?: Bus;
  /** Per-IP limits of the public account endpoints (register, SMS, reset). */
  accountRateLimits?: Partial<AccountRateLimits>;
  /** Where the seed shows the generated admin password. */
  announce?: (line: string) => void;
  logger?: FastifyServerOptions['logger'];
  /** Campaign engine timings (tests shorten the step deadlines). */
  campaigns?: Partial<CampaignEngineOptions>;
  /** The message center scheduled fleet reports go through (tests record what is sent). */
  messageCenter?: MessageCenter;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The access declaration of every route, by `METHOD url`: for audits and tests. */
    routeAccess: ReadonlyMap<string, Access>;
    /** The modules' menu rows, as the seed writes them. */
    menuRows: readonly SeedPermission[];
    /** Every periodic job: the scheduled-jobs registry; tests run a job with `runNow`. */
    scheduler: Scheduler;
    // Module services that main.ts and tests reach: brokers, buffers and timers to drive.
    announcements: AnnouncementService;
    messages: MessageService;
    deviceData: DeviceDataWriter;
    deviceDataRetention: DeviceDataRetentionService;
    deviceConnections: ConnectionService;
    deviceGateway: GatewayService;
    deviceConfigs: DeviceConfigService;
    deviceCommands: DeviceCommandService;
    firmware: FirmwareService;
    campaignEngine: CampaignEngine;
    alarms: AlarmService;
    alarmEngine: AlarmEngine;
  }
}

export type App = FastifyInstance;

/**
 * The server: the platform (database, bus, sessions, permissions, scheduler, console socket), then
 * the modules in dependency order; each brings its routes, jobs, channels, menu and messages.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const { app, outage } = await createHttpServer(config, options.logger);
  const platform = await createPlatform(app, config, outage, options);

  const health = healthModule(platform);
  const log = logModule(platform);
  const role = roleModule(platform);
  const depart = departModule(platform);
  const user = userModule(platform, { ...role, ...depart });
  const twoFactor = twoFactorModule(platform);
  const auth = authModule(platform, { ...user, ...twoFactor, ...log }, options);
  const dict = dictModule(platform);
  const company = companyModule(platform, { ...user, ...depart, ...role });
  const apiKey = apiKeyModule(platform);
  const announcement = announcementModule(platform);
  const message = messageModule(platform, announcement);
  const device = deviceModule(platform);
  const deviceData = deviceDataModule(platform, device);
  const gateway = gatewayModule(
    platform,
    { ...device, ...message, deviceData: deviceData.writer },
    options,
  );
  const deviceConfig = deviceConfigModule(platform, { ...device, ...gateway });
  const deviceCommand = deviceCommandModule(platform, { ...device, ...gateway, ...deviceConfig });
  // One file store and quota ledger for every feature that stores files.
  const files = fileStorage(platform);
  const firmware = firmwareModule(platform, files);
  const ossFile = ossFileModule(platform, files);
  const campaign = campaignModule(
    platform,
    { ...device, ...gateway, ...deviceConfig, ...firmware, ...message },
    options.campaigns,
  );
  const alarm = alarmModule(platform, {
    ...device,
    ...gateway,
    ...message,
    ...role,
    ...depart,
    ...deviceConfig,
    ...campaign,
  });
  const scheduledJob = scheduledJobModule(platform, {
    scheduler: platform.scheduler,
    ...device,
    ...deviceCommand,
    ...campaign,
    ...message,
    ...(options.messageCenter ? { messages: options.messageCenter } : {}),
  });
  const modules: ServerModule[] = [
    health,
    log.module,
    auth.module,
    twoFactor.module,
    ssoModule(platform, { ...user, ...auth, ...log, loginRateLimit: auth.limits.login }),
    permissionModule(platform),
    user.module,
    dict.module,
    duplicateCheckModule(platform),
    device.module,
    deviceData.module,
    message.module,
    gateway.module,
    deviceConfig.module,
    deviceCommand.module,
    firmware.module,
    ossFile.module,
    baseDataModule(platform, ossFile).module,
    campaign.module,
    alarm.module,
    scheduledJob.module,
    announcement.module,
    role.module,
    accountModule(
      platform,
      { ...auth, ...company, ...user, ...message },
      options.accountRateLimits,
    ),
    checkRuleModule(platform),
    depart.module,
    positionModule(platform, dict),
    company.module,
    apiKey.module,
    monitorModule(platform, { ...gateway, deviceData: deviceData.writer }).module,
    onlineFormModule(platform, dict).module,
    siteMapModule(platform).module,
  ];

  const menuRows = modules.flatMap((module) => module.menu ?? []);
  app.decorate('menuRows', menuRows);
  await seed(platform.db, {
    adminPassword: config.adminPassword,
    hasher: platform.hasher,
    clock: platform.clock,
    announce: options.announce ?? ((line) => process.stdout.write(`${line}\n`)),
    menu: menuRows,
  });
  app.decorate('routeAccess', registerGuard(app, { ...platform, ...apiKey }));
  await registerRouteSupport(app);
  await registerModules(app, modules);
  await registerConsole(app, config.webDist);
  await startModules(app, platform.around(modules, gateway.gateway));

  app.decorate('scheduler', platform.scheduler);
  app.decorate('announcements', announcement.announcements);
  app.decorate('messages', message.messages);
  app.decorate('deviceData', deviceData.writer);
  app.decorate('deviceDataRetention', deviceData.retention);
  app.decorate('deviceConnections', device.connections);
  app.decorate('deviceGateway', gateway.gateway);
  app.decorate('deviceConfigs', deviceConfig.configs);
  app.decorate('deviceCommands', deviceCommand.commands);
  app.decorate('firmware', firmware.firmware);
  app.decorate('campaignEngine', campaign.engine);
  app.decorate('alarms', alarm.alarms);
  app.decorate('alarmEngine', alarm.alarmEngine);
  return app;
}
