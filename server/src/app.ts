import fs from 'node:fs';
import path from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { seed } from './db/seed/seed.js';
import { AnnouncementRepository } from './modules/announcement/announcement.repository.js';
import { announcementRoutes } from './modules/announcement/announcement.routes.js';
import { AnnouncementService } from './modules/announcement/announcement.service.js';
import { ApiKeyRepository } from './modules/api-key/api-key.repository.js';
import { apiKeyRoutes } from './modules/api-key/api-key.routes.js';
import { ApiKeyService } from './modules/api-key/api-key.service.js';
import { AuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes, type AuthRateLimits } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { CaptchaService, type CaptchaText } from './modules/auth/captcha.service.js';
import { TwoFactorRepository } from './modules/two-factor/two-factor.repository.js';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.js';
import { TwoFactorService } from './modules/two-factor/two-factor.service.js';
import { AccountRepository } from './modules/account/account.repository.js';
import { accountRoutes, type AccountRateLimits } from './modules/account/account.routes.js';
import { AccountService } from './modules/account/account.service.js';
import { SmsSettingsService } from './modules/account/sms-settings.service.js';
import { VerifyCodeService } from './modules/account/verify-code.service.js';
import { CampaignEngine, type CampaignEngineOptions } from './modules/campaign/campaign.engine.js';
import { CampaignRepository } from './modules/campaign/campaign.repository.js';
import { campaignRoutes } from './modules/campaign/campaign.routes.js';
import { CampaignService } from './modules/campaign/campaign.service.js';
import { CheckRuleRepository } from './modules/check-rule/check-rule.repository.js';
import { checkRuleRoutes } from './modules/check-rule/check-rule.routes.js';
import { CheckRuleService } from './modules/check-rule/check-rule.service.js';
import { FileStore } from './platform/files/file-store.js';
import { StorageReservations } from './platform/files/storage-quota.js';
import { OutboxMailer, SmtpMailer, type Mailer } from './platform/mail/mail.js';
import { Outbox } from './platform/mail/outbox.js';
import { DictRepository } from './modules/dict/dict.repository.js';
import { dictRoutes } from './modules/dict/dict.routes.js';
import { DictService } from './modules/dict/dict.service.js';
import { DuplicateCheckRepository } from './modules/duplicate-check/duplicate-check.repository.js';
import { duplicateCheckRoutes } from './modules/duplicate-check/duplicate-check.routes.js';
import { DuplicateCheckService } from './modules/duplicate-check/duplicate-check.service.js';
import { FirmwareRepository } from './modules/firmware/firmware.repository.js';
import { firmwareRoutes } from './modules/firmware/firmware.routes.js';
import { FirmwareService } from './modules/firmware/firmware.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { HealthService } from './modules/health/health.service.js';
import { DeviceDataRepository } from './modules/device-data/device-data.repository.js';
import { deviceDataRoutes } from './modules/device-data/device-data.routes.js';
import { DeviceDataService } from './modules/device-data/device-data.service.js';
import { DeviceCommandRepository } from './modules/device-command/command.repository.js';
import { deviceCommandRoutes } from './modules/device-command/command.routes.js';
import { DeviceCommandService } from './modules/device-command/command.service.js';
import { DeviceConfigRepository } from './modules/device-config/config.repository.js';
import { deviceConfigRoutes } from './modules/device-config/config.routes.js';
import { DeviceConfigService } from './modules/device-config/config.service.js';
import { GatewayRepository } from './modules/device-gateway/gateway.repository.js';
import { GatewayService, type GatewayOptions } from './modules/device-gateway/gateway.service.js';
import { mqttHookRoutes } from './modules/device-gateway/mqtt-hook.routes.js';
import { UplinkRouter } from './modules/device-gateway/uplink-router.js';
import type { UplinkSink } from './modules/device-gateway/uplink-sink.js';
import { DeviceLogRepository } from './modules/device/device-log.repository.js';
import { deviceLogRoutes } from './modules/device/device-log.routes.js';
import { DeviceLogService } from './modules/device/device-log.service.js';
import { DeviceRepository } from './modules/device/device.repository.js';
import { deviceRoutes } from './modules/device/device.routes.js';
import { DeviceService } from './modules/device/device.service.js';
import { GroupRepository } from './modules/device/group.repository.js';
import { groupRoutes } from './modules/device/group.routes.js';
import { GroupService } from './modules/device/group.service.js';
import { TokenRepository } from './modules/device/token.repository.js';
import { tokenRoutes } from './modules/device/token.routes.js';
import { ConnectionRepository } from './modules/device/connection.repository.js';
import { connectionRoutes } from './modules/device/connection.routes.js';
import { ConnectionService } from './modules/device/connection.service.js';
import { TokenService } from './modules/device/token.service.js';
import { LogRepository } from './modules/log/log.repository.js';
import { logRoutes } from './modules/log/log.routes.js';
import { DepartRepository } from './modules/depart/depart.repository.js';
import { departRoutes } from './modules/depart/depart.routes.js';
import { DepartService } from './modules/depart/depart.service.js';
import { PositionRepository } from './modules/position/position.repository.js';
import { positionRoutes } from './modules/position/position.routes.js';
import { PositionService } from './modules/position/position.service.js';
import { CompanyRepository } from './modules/company/company.repository.js';
import { companyRoutes } from './modules/company/company.routes.js';
import { CompanyService } from './modules/company/company.service.js';
import { LogService } from './modules/log/log.service.js';
import { registerOperationLog } from './modules/log/operation-log.hook.js';
import { permissionRoutes } from './modules/permission/permission.routes.js';
import { UserPermissionService } from './modules/permission/permission.service.js';
import { SsoRepository } from './modules/sso/sso.repository.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { SsoService } from './modules/sso/sso.service.js';
import { UserRepository } from './modules/user/user.repository.js';
import { userRoutes } from './modules/user/user.routes.js';
import { UserService } from './modules/user/user.service.js';
import { DataRuleService } from './platform/auth/data-rules.js';
import { PermissionAdminRepository } from './modules/permission/permission-admin.repository.js';
import { permissionAdminRoutes } from './modules/permission/permission-admin.routes.js';
import { PermissionAdminService } from './modules/permission/permission-admin.service.js';
import { RoleRepository } from './modules/role/role.repository.js';
import { roleRoutes } from './modules/role/role.routes.js';
import { RoleService } from './modules/role/role.service.js';
import { UserAdminRepository } from './modules/user/user-admin.repository.js';
import { userAdminRoutes } from './modules/user/user-admin.routes.js';
import { UserAdminService } from './modules/user/user-admin.service.js';
import { registerGuard, type Access } from './platform/auth/guard.js';
import { PasswordHasher, type HashCost } from './platform/auth/passwords.js';
import { PermissionService } from './platform/auth/permissions.js';
import { readScope } from './platform/auth/scope.js';
import { SessionService } from './platform/auth/sessions.js';
import type { Bus } from './platform/bus/bus.js';
import { MemoryBus } from './platform/bus/memory-bus.js';
import { RedisBus } from './platform/bus/redis-bus.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createDatabase, databaseTarget, type DatabaseHandle } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrator.js';
import { OutageLog } from './platform/db/unavailable.js';
import { AppError } from './platform/http/app-error.js';
import { registerErrorHandling } from './platform/http/error-handler.js';
import { languageOf } from './platform/http/i18n.js';
import { clientSource } from './platform/http/client-source.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { SocketHub } from './platform/ws/socket-hub.js';

export interface AppOptions {
  /** A database to use instead of the one the config names (tests). */
  database?: DatabaseHandle;
  /** Captcha code generator; tests pass a deterministic one. */
  captchaText?: CaptchaText;
  /** Serves the login slowdown; tests pass one that records the delay instead of waiting. */
  loginDelay?: (ms: number) => Promise<void>;
  /** argon2id cost; tests pass a cheap one. Defaults to the library's defaults. */
  hashCost?: HashCost;
  clock?: Clock;
  /** An event bus to use instead of the one the config names (tests publish on it). */
  bus?: Bus;
  rateLimits?: Partial<AuthRateLimits>;
  /** Per-IP limits of the public account endpoints (register, SMS, reset). */
  accountRateLimits?: Partial<AccountRateLimits>;
  /** Where the seed shows the generated admin password. */
  announce?: (line: string) => void;
  logger?: FastifyServerOptions['logger'];
  /**
   * Starts the device transport here instead of leaving it to main.ts: the embedded broker on
   * `port` (0 picks a free one, read back as `app.deviceGateway.port`), or the external broker at
   * `url`. Without it, buildApp starts no broker (tests of other modules, API-only nodes).
   */
  mqtt?: GatewayOptions & { port?: number; url?: string };
  /** Where uplinks go instead of the device-data module (gateway tests). */
  uplinkSink?: UplinkSink;
  /** Campaign engine timings (tests shorten the step deadlines). */
  campaigns?: Partial<CampaignEngineOptions>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The access declaration of every route, by `METHOD url`: for audits and tests. */
    routeAccess: ReadonlyMap<string, Access>;
    /** Announcements, for modules that send system messages (device events). */
    announcements: AnnouncementService;
    /** Telemetry and events of devices: the MQTT gateway records them, tests flush them. */
    deviceData: DeviceDataService;
    deviceConnections: ConnectionService;
    /** The MQTT device gateway: main.ts starts its broker; tests read its port. */
    deviceGateway: GatewayService;
    /** Remote configuration: campaigns apply patches and hear outcomes through it. */
    deviceConfigs: DeviceConfigService;
    /** Commands to devices: tests run the timeout sweep after moving the clock. */
    deviceCommands: DeviceCommandService;
    /** The firmware library: campaigns find firmware and sign download links through it. */
    firmware: FirmwareService;
    /** The campaign engine: tests run its tick instead of waiting for the timer. */
    campaignEngine: CampaignEngine;
  }
}

export type App = FastifyInstance;

const API = '/api';

/** Credentials never reach the log, whatever the level. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-access-token"]',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'password',
  'oldpassword',
  'confirmpassword',
  '*.password',
  '*.oldpassword',
  '*.confirmpassword',
];

export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const outage = new OutageLog();
  const logger = options.logger ?? {
    level: config.logLevel,
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  const app = Fastify({
    // During a database outage every request and background task fails the same way: one line per
    // cause and interval says so, instead of a stack per failure.
    logger:
      typeof logger === 'object'
        ? { ...logger, hooks: { ...logger.hooks, logMethod: outage.hook() } }
        : logger,
    // Client IPs (login lockout, rate limits, logs) come from the socket, or from X-Forwarded-For
    // only when the socket is a configured proxy: trusting the header from anyone would let a
    // client choose its address, escape its own lockout and lock someone else's out.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('lang', {
    getter() {
      return languageOf(this);
    },
  });
  app.decorateRequest('scope', {
    getter() {
      return readScope(this);
    },
  });
  registerErrorHandling(app);
  // First of all hooks: a request refused early (401, 429) still gets the headers.
  await registerSecurityHeaders(app, config.hstsMaxAge);

  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    createDatabase(databaseTarget(config), {
      idleError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
      connected: () => outage.available(),
    });
  outage.reportTo(app.log);
  const { db } = database;
  const bus: Bus =
    options.bus ??
    (config.redisUrl ? await RedisBus.connect(config.redisUrl, app.log) : new MemoryBus());
  const hasher = new PasswordHasher(options.hashCost);

  if (!config.captcha)
    app.log.warn('CAPTCHA=off: logins need no captcha. Use only for automation.');

  await migrateToLatest(db);
  await seed(db, {
    adminPassword: config.adminPassword,
    hasher,
    clock,
    announce: options.announce ?? ((line) => process.stdout.write(`${line}\n`)),
  });

  const sessions = new SessionService(db, bus, clock);
  const permissions = new PermissionService(db, bus, clock);
  const logs = new LogService(new LogRepository(db), clock);
  const dataRules = new DataRuleService(db, bus, clock);
  const tokens = new TokenService(new TokenRepository(db), clock, bus);
  const groups = new GroupService(new GroupRepository(db), dataRules, permissions, clock);
  const deviceLogs = new DeviceLogService(new DeviceLogRepository(db), clock);
  const devices = new DeviceService(
    new DeviceRepository(db, database.dialect),
    tokens,
    groups,
    deviceLogs,
    dataRules,
    permissions,
    clock,
    bus,
  );
  const users = new UserService(new UserRepository(db), sessions, hasher, bus, clock);
  const authRepository = new AuthRepository(db);
  const captcha = new CaptchaService(authRepository, clock, options.captchaText);
  const twoFactor = new TwoFactorService(new TwoFactorRepository(db), hasher, clock);
  const auth = new AuthService(
    authRepository,
    captcha,
    users,
    twoFactor,
    permissions,
    sessions,
    logs,
    hasher,
    clock,
    { captchaRequired: config.captcha, ...(options.loginDelay && { delay: options.loginDelay }) },
  );

  const announcements = new AnnouncementService(
    new AnnouncementRepository(db, database.dialect),
    bus,
    clock,
  );
  const deviceData = new DeviceDataService(
    new DeviceDataRepository(db, database.dialect),
    devices,
    permissions,
    bus,
    app.log,
    clock,
  );
  app.decorate('deviceData', deviceData);
  const deviceConnections = new ConnectionService(
    new ConnectionRepository(db),
    devices,
    clock,
    app.log,
  );
  app.decorate('deviceConnections', deviceConnections);
  // Configuration, commands and campaigns register their reply handlers on it below.
  const uplinks = new UplinkRouter(deviceData);
  const gateway = new GatewayService(
    {
      repository: new GatewayRepository(db),
      deviceLogs,
      permissions,
      alerts: announcements,
      bus,
      sink: options.uplinkSink ?? uplinks,
      clock,
      log: app.log,
      serverAccount: mqttServerAccount(config.mqttUrl),
    },
    options.mqtt,
  );
  app.decorate('deviceGateway', gateway);
  const deviceConfigs = new DeviceConfigService(
    new DeviceConfigRepository(db),
    devices,
    deviceLogs,
    gateway,
    bus,
    app.log,
    clock,
  );
  app.decorate('deviceConfigs', deviceConfigs);
  const deviceCommands = new DeviceCommandService(
    new DeviceCommandRepository(db),
    devices,
    deviceConfigs,
    deviceLogs,
    permissions,
    gateway,
    bus,
    app.log,
    clock,
  );
  app.decorate('deviceCommands', deviceCommands);
  uplinks.handle({
    configReported: (device, payload, at) => deviceConfigs.configReported(device, payload, at),
    rpcReplied: (device, reqId, payload, at) =>
      deviceCommands.rpcReplied(device, reqId, payload, at),
    deviceOnline: (device) => deviceConfigs.deviceOnline(device),
  });
  const sockets = new SocketHub(sessions, bus, app.log, clock, deviceData, permissions);
  app.server.on('upgrade', (request, socket, head: Buffer) => {
    // The console's socket, else MQTT over WebSocket at /mqtt.
    const handled =
      sockets.handleUpgrade(request, socket, head) || gateway.handleUpgrade(request, socket, head);
    if (!handled) socket.destroy();
  });
  app.decorate('announcements', announcements);
  const firmware = new FirmwareService(
    new FirmwareRepository(db),
    new FileStore(path.join(config.dataDir, 'files')),
    permissions,
    clock,
    config.publicUrl ?? `http://localhost:${config.port}`,
    config.companyStorageQuota,
    new StorageReservations(),
  );
  await firmware.init();
  app.decorate('firmware', firmware);
  const campaignRepository = new CampaignRepository(db, database.dialect);
  const campaignEngine = new CampaignEngine(
    {
      repository: campaignRepository,
      firmware,
      configs: deviceConfigs,
      downlinks: gateway,
      deviceLogs,
      bus,
      clock,
      log: app.log,
    },
    options.campaigns,
  );
  app.decorate('campaignEngine', campaignEngine);
  uplinks.handle({
    otaReported: campaignEngine.otaReported,
    deviceOnline: campaignEngine.deviceOnline,
  });
  const campaigns = new CampaignService(
    campaignRepository,
    campaignEngine,
    firmware,
    devices,
    dataRules,
    permissions,
    clock,
  );
  const accountRepository = new AccountRepository(db);
  const outbox = new Outbox(path.join(config.dataDir, 'outbox'));
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl)
    : new OutboxMailer(outbox, app.log, clock);
  const smsSettings = new SmsSettingsService(accountRepository, outbox, app.log, clock);
  const companies = new CompanyService(new CompanyRepository(db), sessions, bus, hasher, clock);
  const accounts = new AccountService(
    accountRepository,
    new VerifyCodeService(accountRepository, clock),
    mailer,
    smsSettings,
    auth,
    companies,
    sessions,
    hasher,
    clock,
  );

  const apiKeys = new ApiKeyService(new ApiKeyRepository(db), permissions, bus, clock, {
    ratePerMinute: config.apiKeyRateLimit,
  });
  app.decorate('routeAccess', registerGuard(app, { sessions, permissions, apiKeys }));
  const flushOperationLog = registerOperationLog(app, logs);

  await app.register(fastifyRateLimit, {
    global: false,
    // An IPv6 client counts by its /64: it could take a fresh address for every request.
    keyGenerator: (request) => clientSource(request.ip),
    errorResponseBuilder: () => new AppError('tooManyRequests', 429),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'BLRMS API',
        version: '0.1.0',
        description: 'Remote management platform for IoT devices',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'X-Access-Token' },
          // Personal API keys (docs/api.md "API keys"): either header works.
          apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'blrms_<id>_<secret>',
            description: 'A personal API key sent as `Authorization: Bearer <key>`',
          },
        },
      },
      security: [{ token: [] }, { apiKey: [] }, { bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${API}/docs` });

  const limits: AuthRateLimits = { login: 30, captcha: 60, ...options.rateLimits };
  await app.register(
    async (api) => {
      await api.register(healthRoutes(new HealthService(db)));
      await api.register(authRoutes(auth, limits));
      await api.register(twoFactorRoutes(twoFactor));
      await api.register(
        ssoRoutes(
          new SsoService(config.sso, new SsoRepository(db), users, auth, logs, clock, app.log),
          limits.login,
        ),
      );
      await api.register(permissionRoutes(new UserPermissionService(permissions)));
      await api.register(userRoutes(users));
      await api.register(dictRoutes(new DictService(new DictRepository(db))));
      await api.register(
        duplicateCheckRoutes(new DuplicateCheckService(new DuplicateCheckRepository(db))),
      );
      await api.register(logRoutes(logs));
      await api.register(tokenRoutes(tokens));
      await api.register(groupRoutes(groups));
      await api.register(deviceRoutes(devices));
      await api.register(connectionRoutes(deviceConnections));
      await api.register(deviceLogRoutes(deviceLogs));
      await api.register(deviceDataRoutes(deviceData));
      await api.register(deviceConfigRoutes(deviceConfigs));
      await api.register(deviceCommandRoutes(deviceCommands));
      await api.register(firmwareRoutes(firmware));
      await api.register(campaignRoutes(campaigns));
      await api.register(mqttHookRoutes(gateway));
      await api.register(announcementRoutes(announcements));
      await api.register(
        userAdminRoutes(
          new UserAdminService(
            new UserAdminRepository(db),
            permissions,
            sessions,
            hasher,
            bus,
            clock,
          ),
        ),
      );
      await api.register(
        roleRoutes(new RoleService(new RoleRepository(db), permissions, dataRules, bus, clock)),
      );
      await api.register(
        permissionAdminRoutes(
          new PermissionAdminService(new PermissionAdminRepository(db), permissions, bus, clock),
        ),
      );
      await api.register(
        accountRoutes(accounts, smsSettings, {
          sendCode: 10,
          verify: 20,
          check: 60,
          ...options.accountRateLimits,
        }),
      );
      await api.register(checkRuleRoutes(new CheckRuleService(new CheckRuleRepository(db), clock)));
      await api.register(
        departRoutes(new DepartService(new DepartRepository(db), permissions, bus, clock)),
      );
      await api.register(
        positionRoutes(
          new PositionService(
            new PositionRepository(db),
            new DictService(new DictRepository(db)),
            clock,
          ),
        ),
      );
      await api.register(companyRoutes(companies));
      await api.register(apiKeyRoutes(apiKeys));
    },
    { prefix: API },
  );

  await registerConsole(app, config.webDist);

  // Made at first start, so that platform administrators can configure an external broker.
  await gateway.hookSecret();
  if (options.mqtt?.url) await gateway.startExternal(options.mqtt.url);
  else if (options.mqtt?.port !== undefined)
    await gateway.startEmbedded(options.mqtt.port, '127.0.0.1');

  campaignEngine.start();
  deviceConnections.start();
  // Shutdown, before the HTTP server stops (Fastify then answers new requests with 503 and waits
  // for those in flight): responses from now on close their connection, so that a keep-alive
  // connection does not outlive its last request by the keep-alive timeout; consoles are told to
  // reconnect; devices are disconnected (server-shutdown, so they reconnect to another node) and
  // the MQTT port is released. The console's sockets would otherwise keep the HTTP server open.
  let draining = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    draining = true;
    await sockets.close();
    await gateway.close();
  });
  app.addHook('onClose', async () => {
    await campaignEngine.close();
    await flushOperationLog();
    await deviceCommands.close();
    await deviceConfigs.close();
    await deviceData.close();
    await deviceConnections.close();
    await bus.close();
    if (!options.database) await db.destroy();
  });

  return app;
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

/**
 * Serves the built console when it exists, with the SPA fallback: any GET outside /api that is not
 * a file gets index.html, so client-side routes survive a reload. /api paths always get JSON.
 */
async function registerConsole(app: FastifyInstance, webDist: string) {
  const hasConsole = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, { root: webDist, wildcard: true, index: 'index.html' });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url === API || request.url.startsWith(`${API}/`) || request.url.startsWith(`${API}?`);
    if (hasConsole && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.sendFile('index.html');
    }
    throw new AppError('notFound', 404);
  });
}
