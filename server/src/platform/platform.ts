import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { DataRuleService } from './auth/data-rules.js';
import { PasswordHasher, type HashCost } from './auth/passwords.js';
import { PermissionService } from './auth/permissions.js';
import { SessionService } from './auth/sessions.js';
import type { Bus } from './bus/bus.js';
import { MemoryBus } from './bus/memory-bus.js';
import { RedisBus } from './bus/redis-bus.js';
import { systemClock, type Clock } from './clock.js';
import { createDatabase, databaseTarget, warmPool, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import type { OutageLog } from './db/unavailable.js';
import type { Platform, ServerModule } from './module.js';
import { JobRepository } from './scheduler/job.repository.js';
import { Scheduler } from './scheduler/scheduler.js';
import { ChannelRegistry } from './ws/channels.js';
import { PING_INTERVAL_MS, SocketHub } from './ws/socket-hub.js';

export interface PlatformOptions {
  database?: DatabaseHandle;
  hashCost?: HashCost;
  clock?: Clock;
  bus?: Bus;
}

/** Another listener of HTTP upgrades (MQTT over WebSocket at /mqtt). */
interface UpgradeHandler {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

export interface RunningPlatform extends Platform {
  scheduler: Scheduler;
  /**
   * The modules with the platform's own parts around them, in the order to start: first storage
   * (closed after every module: the bus and the database) and the console socket (opened with the
   * modules' channels, drained before any module), last the scheduler (runs the modules' jobs once
   * every module has started, stops them before any module closes).
   */
  around(modules: readonly ServerModule[], upgrades: UpgradeHandler): ServerModule[];
}

/** The database (migrated), the bus, password hashing, sessions, permissions and the scheduler. */
export async function createPlatform(
  app: FastifyInstance,
  config: Config,
  outage: OutageLog,
  options: PlatformOptions,
): Promise<RunningPlatform> {
  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    createDatabase(databaseTarget(config), {
      idleError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
      connected: () => outage.available(),
      checkpointerFailed: (error) =>
        app.log.error({ err: error }, 'SQLite WAL checkpointer failed; checkpointing in-line'),
    });
  outage.reportTo(app.log);
  const { db } = database;
  const bus: Bus =
    options.bus ??
    (config.redisUrl ? await RedisBus.connect(config.redisUrl, app.log) : new MemoryBus());
  if (!config.captcha)
    app.log.warn('CAPTCHA=off: logins need no captcha. Use only for automation.');
  await migrateToLatest(db);
  // The server's own pool (not a handle a test passed in) is opened whole before work arrives.
  if (!options.database) await warmPool(db);

  const sessions = new SessionService(db, bus, clock);
  const permissions = new PermissionService(db, bus, clock);
  const scheduler = new Scheduler({ repository: new JobRepository(db), clock, log: app.log });
  let consoleSockets: SocketHub | null = null;
  return {
    config,
    db,
    dialect: database.dialect,
    bus,
    clock,
    log: app.log,
    hasher: new PasswordHasher(options.hashCost),
    sessions,
    permissions,
    dataRules: new DataRuleService(db, bus, clock),
    scheduler,
    consoleSockets: () => consoleSockets?.size ?? 0,
    around(modules, upgrades) {
      const channels = new ChannelRegistry();
      channels.register(...modules.flatMap((module) => module.channels ?? []));
      const sockets = new SocketHub(sessions, bus, app.log, clock, channels);
      consoleSockets = sockets;
      app.server.on('upgrade', (request, socket, head: Buffer) => {
        // The console's socket, else MQTT over WebSocket at /mqtt.
        const handled =
          sockets.handleUpgrade(request, socket, head) ||
          upgrades.handleUpgrade(request, socket, head);
        if (!handled) socket.destroy();
      });
      const storage: ServerModule = {
        name: 'storage',
        close: async () => {
          await bus.close();
          if (!options.database) await db.destroy();
        },
      };
      // Consoles are told to reconnect (to another node); their sockets would otherwise keep the
      // HTTP server open.
      const consoleSocket: ServerModule = { name: 'console-socket', drain: () => sockets.close() };
      const jobs: ServerModule = {
        name: 'scheduler',
        start: () => {
          scheduler.register(
            {
              name: 'console-socket.ping',
              everyMs: PING_INTERVAL_MS,
              scope: 'node',
              run: async () => sockets.pingAll(),
            },
            ...modules.flatMap((module) => module.jobs ?? []),
          );
          scheduler.start();
        },
        close: () => scheduler.close(),
      };
      return [storage, consoleSocket, ...modules, jobs];
    },
  };
}
