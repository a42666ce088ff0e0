import {
  MONITOR_HISTORY_POINTS,
  MONITOR_NODE_EXPIRY_MS,
  MONITOR_SNAPSHOT_INTERVAL_MS,
  type TMonitorDatabase,
  type TMonitorNodes,
  type TMonitorPoint,
  type TMonitorRedis,
  type TMonitorSnapshot,
  type TMonitorTrace,
} from '@blrms/contracts';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { Dialect } from '../../platform/db/database.js';
import { forbidden } from '../../platform/http/app-error.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { MonitorRepository } from './monitor.repository.js';
import type { NodeStats } from './node-stats.service.js';
import type { RedisInfoService } from './redis-info.service.js';
import type { RequestTrace } from './request-trace.service.js';

interface HeardNode {
  snapshot: TMonitorSnapshot;
  history: TMonitorPoint[];
  /** When this node heard it (this node's clock: nodes' clocks may differ a little). */
  heardAt: number;
}

export interface MonitorServiceDeps {
  stats: NodeStats;
  trace: RequestTrace;
  redis: RedisInfoService;
  repository: MonitorRepository;
  permissions: PermissionService;
  bus: Bus;
  clock: Clock;
  dialect: Dialect;
}

function pointOf(snapshot: TMonitorSnapshot): TMonitorPoint {
  return {
    at: snapshot.at,
    cpuPercent: snapshot.cpuPercent,
    rssBytes: snapshot.rssBytes,
    heapUsedBytes: snapshot.heapUsedBytes,
    eventLoopLagP99Ms: snapshot.eventLoopLagP99Ms,
    mqttInPerSecond: snapshot.mqtt.inPerSecond,
    mqttOutPerSecond: snapshot.mqtt.outPerSecond,
    mqttConnected: snapshot.mqtt.connected,
    dbPoolTotal: snapshot.dbPool?.total ?? null,
    dbPoolWaiting: snapshot.dbPool?.waiting ?? null,
  };
}

/**
 * The system monitor. Every node publishes its snapshot on the bus every few seconds (a node
 * job); every node keeps the last snapshots of all nodes it hears, so any node behind the load
 * balancer answers for all of them, with their recent history for the charts, and no database
 * writes are needed. A node not heard from for 30 s is left out. Without Redis there is one node
 * and the in-process bus carries its own snapshots. Platform administrators only: the figures
 * are platform-wide.
 */
export class MonitorService {
  private readonly nodes = new Map<string, HeardNode>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: MonitorServiceDeps) {
    this.unsubscribe = deps.bus.subscribe('monitor.node', (snapshot) => this.heard(snapshot));
  }

  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'monitor.node-snapshot',
        everyMs: MONITOR_SNAPSHOT_INTERVAL_MS,
        firstRunMs: 1_000,
        scope: 'node',
        run: async () => {
          await this.publish();
        },
      },
    ];
  }

  /** Takes this node's snapshot and tells every node (itself included). */
  async publish(): Promise<TMonitorSnapshot> {
    const snapshot = await this.deps.stats.snapshot();
    await this.deps.bus.publish('monitor.node', snapshot);
    return snapshot;
  }

  close(): void {
    this.unsubscribe();
    this.deps.stats.close();
    this.deps.redis.close();
  }

  async listNodes(scope: Scope): Promise<TMonitorNodes> {
    await this.requirePlatformAdmin(scope);
    const own = await this.ownNode();
    return {
      answeredBy: own.snapshot.nodeId,
      nodes: this.current()
        .sort((a, b) => a.snapshot.nodeId.localeCompare(b.snapshot.nodeId))
        .map(({ snapshot, history }) => ({ snapshot, history })),
    };
  }

  async database(scope: Scope): Promise<TMonitorDatabase> {
    await this.requirePlatformAdmin(scope);
    await this.ownNode();
    let sizeBytes: number | null = null;
    let sizeError: string | null = null;
    try {
      sizeBytes = await this.deps.repository.databaseSize();
    } catch (error) {
      sizeError = error instanceof Error ? error.message : String(error);
    }
    return {
      dialect: this.deps.dialect,
      sizeBytes,
      sizeError,
      nodes: this.current().map(({ snapshot }) => ({
        nodeId: snapshot.nodeId,
        pool: snapshot.dbPool,
        slowQueries: snapshot.slowQueries,
      })),
    };
  }

  async redis(scope: Scope): Promise<TMonitorRedis> {
    await this.requirePlatformAdmin(scope);
    return this.deps.redis.info();
  }

  async trace(scope: Scope): Promise<TMonitorTrace> {
    await this.requirePlatformAdmin(scope);
    const own = await this.ownNode();
    return { nodeId: own.snapshot.nodeId, requests: this.deps.trace.list() };
  }

  private heard(snapshot: TMonitorSnapshot): void {
    const known = this.nodes.get(snapshot.nodeId);
    const history = known?.history ?? [];
    history.push(pointOf(snapshot));
    if (history.length > MONITOR_HISTORY_POINTS)
      history.splice(0, history.length - MONITOR_HISTORY_POINTS);
    this.nodes.set(snapshot.nodeId, { snapshot, history, heardAt: this.deps.clock() });
  }

  /** The nodes heard from lately; the others are forgotten. */
  private current(): HeardNode[] {
    const before = this.deps.clock() - MONITOR_NODE_EXPIRY_MS;
    for (const [id, node] of this.nodes) if (node.heardAt < before) this.nodes.delete(id);
    return [...this.nodes.values()];
  }

  /** This node as last heard, or measured now when it has not published yet (just started). */
  private async ownNode(): Promise<HeardNode> {
    const nodeId = this.deps.stats.nodeId();
    const heard = this.current().find((node) => node.snapshot.nodeId === nodeId);
    if (heard) return heard;
    const snapshot = await this.publish();
    const published = this.nodes.get(snapshot.nodeId);
    if (published) return published;
    this.heard(snapshot);
    return this.nodes.get(snapshot.nodeId) as HeardNode;
  }

  private async requirePlatformAdmin(scope: Scope): Promise<void> {
    const grants = await this.deps.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }
}
