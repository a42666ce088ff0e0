import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { GatewayRepository, LiveRow } from './gateway.repository.js';

export interface NodeLivenessOptions {
  heartbeatMs: number;
  /** A node not heard from for this long is gone: its devices are set offline. */
  staleMs: number;
}

export const DEFAULT_LIVENESS_OPTIONS: NodeLivenessOptions = {
  heartbeatMs: 15_000,
  staleMs: 60_000,
};

/**
 * Several server nodes may share the database, each with its own embedded broker. Each node
 * writes a heartbeat row; any node that finds another silent for a minute sets the devices that
 * node held offline (`connection-lost`): their connections died with it. At start a node does the
 * same for its own previous run, whose connections cannot have survived the restart.
 */
export class NodeLiveness {
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly nodeId: string,
    private readonly repository: GatewayRepository,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    /** Receives the devices set offline, to announce them. */
    private readonly onOffline: (rows: LiveRow[]) => Promise<void>,
    private readonly options: NodeLivenessOptions = DEFAULT_LIVENESS_OPTIONS,
  ) {}

  async start(): Promise<void> {
    await this.release('connection-lost');
    await this.beat();
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => (this.beating = null));
    }, this.options.heartbeatMs);
    this.timer.unref();
  }

  /** Stops the heartbeat and sets offline the devices this node held (a clean shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.release('server-shutdown');
    await this.repository.deleteNode(this.nodeId, Number.MAX_SAFE_INTEGER);
  }

  /** Heartbeat, then the sweep of silent nodes. */
  async beat(): Promise<void> {
    try {
      const now = this.clock();
      await this.repository.heartbeat(this.nodeId, now);
      const staleBefore = now - this.options.staleMs;
      for (const node of await this.repository.staleNodes(staleBefore)) {
        const rows = await this.repository.offlineByNode(node, {
          last_disconnect_at: now,
          disconnect_reason: 'connection-lost',
        });
        await this.repository.deleteNode(node, staleBefore);
        this.log.warn({ node, devices: rows.length }, 'MQTT node silent: its devices set offline');
        await this.onOffline(rows);
      }
    } catch (error) {
      this.log.error({ err: error }, 'MQTT node heartbeat failed');
    }
  }

  private async release(reason: 'connection-lost' | 'server-shutdown'): Promise<void> {
    const rows = await this.repository.offlineByNode(this.nodeId, {
      last_disconnect_at: this.clock(),
      disconnect_reason: reason,
    });
    if (rows.length > 0) {
      this.log.info({ node: this.nodeId, devices: rows.length, reason }, 'devices set offline');
      await this.onOffline(rows);
    }
  }
}
