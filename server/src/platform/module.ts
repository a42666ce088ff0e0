import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { SeedPermission } from '../db/seed/menu.js';
import type { DataRuleService } from './auth/data-rules.js';
import type { PasswordHasher } from './auth/passwords.js';
import type { PermissionService } from './auth/permissions.js';
import type { SessionService } from './auth/sessions.js';
import type { Bus } from './bus/bus.js';
import type { Clock } from './clock.js';
import type { Db, Dialect } from './db/database.js';
import { API_PREFIX } from './http/route-support.js';
import type { JobSpec } from './scheduler/scheduler.js';
import type { ChannelKind } from './ws/channels.js';

/**
 * What every module is built from: the configuration and the platform's shared services. A
 * module's factory (`<module>.module.ts`) takes it, plus the services of the modules it uses, and
 * returns its services and its `ServerModule`.
 */
export interface Platform {
  config: Config;
  db: Db;
  dialect: Dialect;
  bus: Bus;
  clock: Clock;
  log: FastifyBaseLogger;
  hasher: PasswordHasher;
  sessions: SessionService;
  permissions: PermissionService;
  dataRules: DataRuleService;
  /** Console websockets open on this node (0 until the console socket starts). */
  consoleSockets: () => number;
}

/**
 * What a module brings to the server; `app.ts` composes the list and `registerModules` wires each
 * part where it belongs, so adding a module edits its own folder and one line of `app.ts`.
 */
export interface ServerModule {
  name: string;
  /** HTTP routes, registered under /api. */
  routes?: FastifyPluginAsyncZod[];
  /** Menu and button rows of its pages (seeded at start). */
  menu?: SeedPermission[];
  /** Periodic work, run by the scheduler (`platform/scheduler`). */
  jobs?: JobSpec[];
  /**
   * Console websocket channels it serves (`platform/ws/channels.ts`). A change of grants checks a
   * socket's subscriptions again in the order the modules list them.
   */
  channels?: ChannelKind[];
  /** Hooks on every request (the operation log), added before any route. */
  hooks?: (app: FastifyInstance) => void;
  /** Runs once the routes are registered, before the server listens. */
  start?: () => Promise<void> | void;
  /**
   * At shutdown, before the HTTP server stops: let go of what keeps connections open from outside
   * (console sockets, devices), so that they reconnect to another node.
   */
  drain?: () => Promise<void>;
  /** At shutdown, after the HTTP server stopped: flush what is buffered, finish work under way. */
  close?: () => Promise<void>;
}

/** Adds every module's request hooks, then its routes under /api, in the order of the list. */
export async function registerModules(
  app: FastifyInstance,
  modules: readonly ServerModule[],
): Promise<void> {
  for (const module of modules) module.hooks?.(app);
  await app.register(
    async (api) => {
      for (const module of modules)
        for (const routes of module.routes ?? []) await api.register(routes);
    },
    { prefix: API_PREFIX },
  );
}

/**
 * Starts the modules in order and arranges their shutdown. At shutdown, before the HTTP server
 * stops (Fastify then answers new requests with 503 and waits for those in flight), responses
 * close their connection, so that a keep-alive connection does not outlive its last request by the
 * keep-alive timeout, and every module drains; once the server has stopped, they close in reverse
 * order, so a module closes before those it uses.
 */
export async function startModules(
  app: FastifyInstance,
  modules: readonly ServerModule[],
): Promise<void> {
  for (const module of modules) await module.start?.();
  let draining = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    draining = true;
    for (const module of modules) await module.drain?.();
  });
  app.addHook('onClose', async () => {
    for (const module of [...modules].reverse()) await module.close?.();
  });
}
