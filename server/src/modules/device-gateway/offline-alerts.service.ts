import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { SendTemplateInput } from '../message/message.service.js';
import type { GatewayRepository } from './gateway.repository.js';

export interface OfflineAlertOptions {
  /** A device offline this long gets its owner an alert. */
  delayMs: number;
  /** This many offline transitions within `flapWindowMs` make a device unstable. */
  flapCount: number;
  flapWindowMs: number;
  /** An unstable device gets no alerts until it has had no offline transition for this long. */
  stableMs: number;
  /** How often pending alerts are checked. */
  checkIntervalMs: number;
}

export const DEFAULT_ALERT_OPTIONS: OfflineAlertOptions = {
  delayMs: 60_000,
  flapCount: 4,
  flapWindowMs: 10 * 60_000,
  stableMs: 10 * 60_000,
  checkIntervalMs: 5_000,
};

/** Devices named in one alert; the rest are counted. */
const NAMED_MAX = 10;

/** The message center: alerts are its `device_offline` and `device_unstable` templates. */
export interface AlertSender {
  sendTemplate(input: SendTemplateInput): Promise<void>;
}

type AlertTemplate = 'device_offline' | 'device_unstable';

/** A device that went offline: when, and when its alert is due unless it comes back. */
interface Offline {
  since: number;
  dueAt: number;
}

interface Flapping {
  /** Offline transitions within the flap window, oldest first. */
  times: number[];
  /** The unstable alert went out: the device stays muted until it is stable again. */
  muted: boolean;
}

type Target = Awaited<ReturnType<GatewayRepository['alertTargets']>>[number];

/**
 * Tells device owners when a device went offline and stayed offline (a system message in the
 * bell), once per check for all of an owner's devices. A device that flaps (goes offline again and
 * again) gets one "unstable connection" alert and then none until it has been stable for a while;
 * its status in the database and the console is always current, only alerts are held back.
 * A restart the platform expects (the device row's restart window, written by whichever node sent
 * the reboot or the upgrade) is no outage: its disconnects do not count as flaps, and the offline
 * alert waits for the end of the window. The state is this node's: a device that reconnects to
 * another node is checked in the database before its alert goes out.
 */
export class OfflineAlerts {
  private readonly pending = new Map<string, Offline>();
  private readonly flapping = new Map<string, Flapping>();
  /** Between start and stop: the alerts job checks only then. */
  private checksDue = false;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly repository: GatewayRepository,
    private readonly sender: AlertSender,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: OfflineAlertOptions = DEFAULT_ALERT_OPTIONS,
  ) {}

  start(): void {
    this.checksDue = true;
  }

  async stop(): Promise<void> {
    this.checksDue = false;
    await this.checking;
  }

  /** The alerts job's run (every `checkIntervalMs`): a check while the alerts are started. */
  tick(): Promise<void> {
    return this.checksDue ? this.check() : Promise.resolve();
  }

  offline(deviceId: string): void {
    const now = this.clock();
    this.pending.set(deviceId, { since: now, dueAt: now + this.options.delayMs });
    const flapping = this.flapping.get(deviceId) ?? { times: [], muted: false };
    flapping.times = flapping.times.filter((t) => now - t < this.options.flapWindowMs);
    flapping.times.push(now);
    this.flapping.set(deviceId, flapping);
  }

  online(deviceId: string): void {
    this.pending.delete(deviceId);
  }

  /** Sends the alerts that are due. Runs from `tick`; tests call it after moving the clock. */
  check(): Promise<void> {
    this.checking ??= this.sendDue().finally(() => (this.checking = null));
    return this.checking;
  }

  private async sendDue(): Promise<void> {
    const now = this.clock();
    const flappingNow: string[] = [];
    for (const [deviceId, flapping] of this.flapping) {
      const last = flapping.times[flapping.times.length - 1] ?? 0;
      if (flapping.muted) {
        if (now - last >= this.options.stableMs) this.flapping.delete(deviceId);
      } else if (this.recentFlaps(flapping, now) >= this.options.flapCount) {
        flappingNow.push(deviceId);
      } else if (now - last >= this.options.flapWindowMs) {
        this.flapping.delete(deviceId);
      }
    }
    const due: string[] = [];
    for (const [deviceId, offline] of this.pending) {
      // Muted devices keep their pending alert: it goes out if they are still offline once stable.
      if (now >= offline.dueAt && !this.flapping.get(deviceId)?.muted) due.push(deviceId);
    }
    if (due.length === 0 && flappingNow.length === 0) return;
    try {
      const targets = await this.repository.alertTargets([...new Set([...due, ...flappingNow])]);
      const byId = new Map(targets.map((t) => [t.id, t]));
      // Deleted devices are forgotten.
      for (const id of due) if (!byId.has(id)) this.pending.delete(id);
      for (const id of flappingNow) if (!byId.has(id)) this.flapping.delete(id);
      const unstable = flappingNow.map((id) => byId.get(id)).filter((t) => this.unstable(t, now));
      const offline = due.map((id) => byId.get(id)).filter((t) => this.stillOffline(t, now));
      await this.send(offline, 'device_offline');
      await this.send(unstable, 'device_unstable');
    } catch (error) {
      this.log.error({ err: error }, 'device alerts not sent');
    }
  }

  private recentFlaps(flapping: Flapping, now: number): number {
    return flapping.times.filter((t) => now - t < this.options.flapWindowMs).length;
  }

  /**
   * Whether a device with enough offline transitions is unstable: those within a restart the
   * platform expects are forgotten first. An unstable device is muted from here on.
   */
  private unstable(target: Target | undefined, now: number): target is Target {
    const flapping = target && this.flapping.get(target.id);
    if (!target || !flapping) return false;
    const from = target.restart_from ?? null;
    const until = target.restart_until ?? null;
    if (from !== null && until !== null) {
      flapping.times = flapping.times.filter((t) => t < from || t > until);
    }
    if (this.recentFlaps(flapping, now) < this.options.flapCount) return false;
    flapping.muted = true;
    return true;
  }

  /**
   * Whether a due alert goes out now. Not for a device that came back since (a later disconnect
   * is the concern of the node that saw it), nor yet for one within an expected restart: its
   * alert is due again when the window ends.
   */
  private stillOffline(target: Target | undefined, now: number): target is Target {
    const offline = target && this.pending.get(target.id);
    if (!target || !offline) return false;
    if (target.status !== 'offline' || (target.last_connect_at ?? 0) > offline.since) {
      this.pending.delete(target.id);
      return false;
    }
    const restartUntil = target.restart_until ?? null;
    if (restartUntil !== null && restartUntil > now) {
      offline.dueAt = restartUntil;
      return false;
    }
    this.pending.delete(target.id);
    return true;
  }

  /**
   * One message per owner through the message center's template (the bell by default; a company
   * may add channels): each reader sees it in their language. Names are given as written; the
   * center escapes them for the channel. Beyond the first ten, the count of the others follows
   * as `(+N)`, which reads the same in both languages.
   */
  private async send(targets: Target[], templateCode: AlertTemplate): Promise<void> {
    const byOwner = new Map<string, Target[]>();
    for (const target of targets) {
      const key = `${target.company_id}|${target.owner_id}`;
      byOwner.set(key, [...(byOwner.get(key) ?? []), target]);
    }
    for (const devices of byOwner.values()) {
      const [first] = devices;
      if (!first) continue;
      const named = devices
        .slice(0, NAMED_MAX)
        .map((d) => (d.name === d.sn ? d.sn : `${d.name} (${d.sn})`))
        .join(', ');
      const more = devices.length - NAMED_MAX;
      await this.sender.sendTemplate({
        companyId: first.company_id,
        templateCode,
        receivers: { userIds: [first.owner_id] },
        vars: {
          count: devices.length,
          seconds: Math.round(this.options.delayMs / 1000),
          minutes: Math.round(this.options.stableMs / 60_000),
          times: this.options.flapCount,
          devices: more > 0 ? `${named} … (+${more})` : named,
        },
        priority: 'M',
        link: {
          openPage: devices.length === 1 ? `/device/detail/${first.id}` : '/device/list',
          busId: devices.length === 1 ? first.id : null,
        },
      });
    }
  }
}
