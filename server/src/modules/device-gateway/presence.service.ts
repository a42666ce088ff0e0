import type { TDisconnectReason, TRestartKind, TStatusPayload } from '@blrms/contracts';
import type { Bus } from '../../platform/bus/bus.js';
import type { InboundMessage } from '../../platform/mqtt/transport.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { DeviceSession, GatewayPartDeps } from './device-connection.service.js';
import type { GatewayRepository, LiveRow, PresenceValues } from './gateway.repository.js';
import {
  DEFAULT_LIVENESS_OPTIONS,
  NodeLiveness,
  type NodeLivenessOptions,
} from './node-liveness.service.js';
import {
  DEFAULT_ALERT_OPTIONS,
  OfflineAlerts,
  type AlertSender,
  type OfflineAlertOptions,
} from './offline-alerts.service.js';
import {
  DEFAULT_PRESENCE_OPTIONS,
  PresenceWriter,
  type PresenceWriterOptions,
} from './presence-writer.service.js';

export interface DevicePresenceOptions {
  presence?: Partial<PresenceWriterOptions>;
  alerts?: Partial<OfflineAlertOptions>;
  liveness?: Partial<NodeLivenessOptions>;
}

export interface DevicePresenceDeps extends GatewayPartDeps {
  repository: GatewayRepository;
  alerts: AlertSender;
  bus: Bus;
}

/**
 * Whether each device is online, and since when: connects, disconnects (with their reason and
 * takeovers), status messages and last-seen times go to the {@link PresenceWriter}, which writes
 * them in batches and announces them on the bus (`device.live`); offline devices are handed to the
 * {@link OfflineAlerts}; the {@link NodeLiveness} heartbeat releases the devices of silent nodes.
 */
export class DevicePresence {
  private readonly writer: PresenceWriter;
  private readonly alerts: OfflineAlerts;
  private liveness: NodeLiveness | null = null;
  private readonly livenessOptions: NodeLivenessOptions;
  private readonly alertOptions: OfflineAlertOptions;

  constructor(
    private readonly deps: DevicePresenceDeps,
    options: DevicePresenceOptions = {},
  ) {
    this.writer = new PresenceWriter(deps.repository, deps.bus, deps.clock, deps.log, {
      ...DEFAULT_PRESENCE_OPTIONS,
      ...options.presence,
    });
    this.alertOptions = { ...DEFAULT_ALERT_OPTIONS, ...options.alerts };
    this.alerts = new OfflineAlerts(
      deps.repository,
      deps.alerts,
      deps.clock,
      deps.log,
      this.alertOptions,
    );
    this.livenessOptions = { ...DEFAULT_LIVENESS_OPTIONS, ...options.liveness };
  }

  /**
   * This node's heartbeat (while its embedded broker runs) and its offline alerts (while a broker
   * runs): node jobs, since each node beats for itself and alerts for the devices it saw go.
   */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'device-gateway.node-heartbeat',
        everyMs: this.livenessOptions.heartbeatMs,
        scope: 'node',
        run: () => this.liveness?.tick() ?? Promise.resolve(),
      },
      {
        name: 'device-gateway.offline-alerts',
        everyMs: this.alertOptions.checkIntervalMs,
        scope: 'node',
        run: () => this.alerts.tick(),
      },
    ];
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Starts this node's heartbeat, under the runtime's node id. Before the embedded broker accepts
   * connections: what the previous run of this node held is offline now.
   */
  async startLiveness(): Promise<void> {
    this.liveness = new NodeLiveness(
      this.deps.runtime.nodeId,
      this.deps.repository,
      this.deps.clock,
      this.deps.log,
      { offline: (rows) => this.released(rows), revived: () => this.revive() },
      this.livenessOptions,
    );
    await this.liveness.start();
  }

  startAlerts(): void {
    this.alerts.start();
  }

  /** Stops the alerts first: the devices released at shutdown are no outage. */
  stopAlerts(): Promise<void> {
    return this.alerts.stop();
  }

  /** Writes what is pending, then releases the devices this node held and stops. */
  async close(): Promise<void> {
    await this.writer.flush();
    // The connections were closed without a write each: one statement sets them offline.
    await this.liveness?.stop();
    await this.writer.close();
  }

  // ---------------------------------------------------------------- connections

  connected(session: DeviceSession): void {
    if (session.watcher) {
      this.deps.log.info({ device: session.address, ip: session.ip }, 'MQTT watcher connected');
      return;
    }
    const { nodeId } = this.deps.runtime;
    this.writer.write({
      deviceId: session.id,
      companyId: session.companyId,
      values: {
        status: 'online',
        ip: session.ip,
        last_connect_at: session.connectedAt,
        last_seen_at: session.connectedAt,
        node_id: nodeId,
      },
    });
    session.seenGivenAt = session.connectedAt;
    this.writer.sessionOpened({
      id: session.connectionId,
      company_id: session.companyId,
      device_id: session.id,
      connected_at: session.connectedAt,
      disconnected_at: null,
      reason: null,
      ip: session.ip,
      node_id: nodeId,
    });
    this.alerts.online(session.id);
  }

  disconnected(session: DeviceSession, reason: TDisconnectReason): void {
    // At shutdown the node releases all its devices in one statement instead.
    if (this.deps.runtime.closing || session.watcher) return;
    const now = this.deps.clock();
    this.writer.sessionClosed({ id: session.connectionId, disconnectedAt: now, reason });
    if (reason === 'takeover') {
      // The device stays online: only the replaced connection is recorded (two devices that
      // share an SN take each other over all the time: the first of the minute is logged).
      const { record, count } = this.deps.abuse.note(session, 'takeover');
      if (count === 1)
        this.deps.log.info(
          { device: session.address, ip: session.ip },
          'MQTT connection taken over',
        );
      this.writer.write({
        deviceId: session.id,
        companyId: session.companyId,
        values: { last_disconnect_at: now, disconnect_reason: 'takeover' },
      });
      if (record) {
        this.deps.events.record(session, {
          level: 'warn',
          code: 'takeover',
          message: `Connection from ${session.ip ?? 'an unknown address'} replaced by a newer one`,
          source: 'platform',
        });
      }
      return;
    }
    this.deps.log.debug(
      { device: session.address, ip: session.ip, reason },
      'MQTT device disconnected',
    );
    this.writer.write({
      deviceId: session.id,
      companyId: session.companyId,
      values: {
        status: 'offline',
        last_disconnect_at: now,
        last_seen_at: now,
        disconnect_reason: reason,
        node_id: null,
      },
      guard: { nodeId: this.deps.runtime.nodeId, connectedAt: session.connectedAt },
    });
    this.alerts.offline(session.id);
  }

  // ---------------------------------------------------------------- what devices report

  /**
   * `up/status`. On the embedded broker the connection itself says online or offline; the status
   * message adds series, model, firmware and the device's own address, and a last will is left to
   * the disconnect that follows it (which knows the reason). On an external broker the retained
   * status and its last will are all there is: they set presence, and the connect and disconnect
   * times when they arrive live rather than replayed.
   */
  status(
    device: DeviceSession,
    payload: TStatusPayload,
    message: InboundMessage<DeviceSession>,
    now: number,
  ): void {
    const external = message.session === null;
    const live = !message.retained;
    let values: PresenceValues;
    if (payload.online) {
      if (message.will) return;
      values = { status: 'online', series: payload.series, last_seen_at: now };
      device.seenGivenAt = now;
      if (payload.model !== undefined) values.model = payload.model;
      if (payload.fw !== undefined) values.version = payload.fw;
      if (payload.ip !== undefined) values.ip = payload.ip;
      if (external && live) values.last_connect_at = now;
      // No node holds a device of an external broker: any node may send it work.
      if (external) values.node_id = null;
      this.alerts.online(device.id);
      // A replayed retained status (an external broker, at the server's start) says nothing new.
      const { sink } = this.deps.events;
      if (live && sink.deviceOnline) {
        const online = { series: payload.series, fw: payload.fw };
        this.deps.events.run(() => sink.deviceOnline?.(device, online, now));
      }
    } else {
      if (message.will && !external) return;
      values = live
        ? {
            status: 'offline',
            disconnect_reason: 'last-will',
            last_disconnect_at: now,
            last_seen_at: now,
          }
        : { status: 'offline' };
      if (live) this.alerts.offline(device.id);
    }
    this.writer.write({ deviceId: device.id, companyId: device.companyId, values });
  }

  /**
   * Any other valid uplink: the device's last-seen time joins a later batch, unless a time given
   * for this connection less than the writer's interval ago stands for it. The row is then behind
   * by less than that interval, which is as far behind as the writer shows any device anyway;
   * a connect storm's boot reports wrote every device's row a second time without it.
   */
  seen(device: DeviceSession, now: number): void {
    if (now - device.seenGivenAt < this.writer.seenIntervalMs) return;
    device.seenGivenAt = now;
    this.writer.seen(device.id, device.companyId, now);
  }

  // ---------------------------------------------------------------- restarts, nodes, alerts

  /**
   * The platform is about to make the device restart (a reboot command, an upgrade, a
   * configuration that needs one): a disconnect within the window is no outage. Kept in the
   * database, so that any node judges the device's disconnects and alerts by it; shown at once.
   */
  async expectRestart(deviceId: string, kind: TRestartKind, windowMs: number): Promise<void> {
    const now = this.deps.clock();
    const rows = await this.deps.repository.expectRestart(deviceId, {
      kind,
      from: now,
      until: now + windowMs,
    });
    await this.writer.publish(rows);
  }

  /**
   * Whether a device shown online can be reached now: false when the node holding its connection
   * has missed more heartbeats than a live node would (it died, and the others have not yet set
   * its devices offline), so that work is refused at once instead of timing out. A device held
   * here, or by an external broker (no node), is reachable.
   */
  async reachable(deviceId: string): Promise<boolean> {
    const held = await this.deps.repository.nodeOfDevice(deviceId);
    if (!held?.nodeId || held.nodeId === this.deps.runtime.nodeId) return true;
    return (
      held.seenAt !== null &&
      held.seenAt >= this.deps.clock() - 3 * this.livenessOptions.heartbeatMs
    );
  }

  /** Sends the offline alerts that are due (on a timer; tests call it after moving the clock). */
  checkAlerts(): Promise<void> {
    return this.alerts.check();
  }

  /** Heartbeat and the sweep of silent nodes (on a timer; tests call it after moving the clock). */
  async sweepNodes(): Promise<void> {
    await this.liveness?.beat();
  }

  /** Another node took this one for dead: the devices it still holds are online again. */
  private revive(): void {
    const { transport, closing, nodeId } = this.deps.runtime;
    if (!transport || closing) return;
    const now = this.deps.clock();
    for (const session of transport.sessions()) {
      if (session.watcher) continue;
      this.writer.write({
        deviceId: session.id,
        companyId: session.companyId,
        values: { status: 'online', last_seen_at: now, node_id: nodeId },
      });
      this.alerts.online(session.id);
    }
  }

  /** Devices set offline in bulk (restart or shutdown of this node, a silent node). */
  private async released(rows: LiveRow[]): Promise<void> {
    await this.writer.publish(rows);
    if (!this.deps.runtime.closing) for (const row of rows) this.alerts.offline(row.id);
  }
}
