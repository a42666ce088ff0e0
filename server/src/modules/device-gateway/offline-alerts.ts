import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import type { SystemMessage } from '../announcement/announcement.service.js';
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

/** The owner's language is not known here: alerts carry both, Chinese first. */
const LANGS: Lang[] = ['zh-CN', 'en-US'];
/** Devices named in one alert; the rest are counted. */
const NAMED_MAX = 10;

export interface AlertSender {
  sendSystemMessage(input: SystemMessage): Promise<string>;
}

interface Flapping {
  /** Offline transitions within the flap window, oldest first. */
  times: number[];
  /** The unstable alert went out: the device stays muted until it is stable again. */
  muted: boolean;
}

type Target = Awaited<ReturnType<GatewayRepository['alertTargets']>>[number];

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * Tells device owners when a device went offline and stayed offline (a system message in the
 * bell), once per check for all of an owner's devices. A device that flaps (goes offline again and
 * again) gets one "unstable connection" alert and then none until it has been stable for a while;
 * its status in the database and the console is always current, only alerts are held back.
 * The state is this node's: a device that reconnects to another node is checked in the database
 * before its alert goes out.
 */
export class OfflineAlerts {
  private readonly pending = new Map<string, number>();
  private readonly flapping = new Map<string, Flapping>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly repository: GatewayRepository,
    private readonly sender: AlertSender,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: OfflineAlertOptions = DEFAULT_ALERT_OPTIONS,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.options.checkIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking;
  }

  offline(deviceId: string): void {
    const now = this.clock();
    this.pending.set(deviceId, now);
    const flapping = this.flapping.get(deviceId) ?? { times: [], muted: false };
    flapping.times = flapping.times.filter((t) => now - t < this.options.flapWindowMs);
    flapping.times.push(now);
    this.flapping.set(deviceId, flapping);
  }

  online(deviceId: string): void {
    this.pending.delete(deviceId);
  }

  /** Sends the alerts that are due. Runs on a timer; tests call it after moving the clock. */
  check(): Promise<void> {
    this.checking ??= this.sendDue().finally(() => (this.checking = null));
    return this.checking;
  }

  private async sendDue(): Promise<void> {
    const now = this.clock();
    const unstable: string[] = [];
    for (const [deviceId, flapping] of this.flapping) {
      const last = flapping.times[flapping.times.length - 1] ?? 0;
      if (flapping.muted) {
        if (now - last >= this.options.stableMs) this.flapping.delete(deviceId);
      } else if (
        flapping.times.filter((t) => now - t < this.options.flapWindowMs).length >=
        this.options.flapCount
      ) {
        flapping.muted = true;
        unstable.push(deviceId);
      } else if (now - last >= this.options.flapWindowMs) {
        this.flapping.delete(deviceId);
      }
    }
    const offline: string[] = [];
    for (const [deviceId, since] of this.pending) {
      if (now - since < this.options.delayMs) continue;
      // Muted devices keep their pending alert: it goes out if they are still offline once stable.
      if (this.flapping.get(deviceId)?.muted) continue;
      this.pending.delete(deviceId);
      offline.push(deviceId);
    }
    if (offline.length === 0 && unstable.length === 0) return;
    try {
      const targets = await this.repository.alertTargets([...new Set([...offline, ...unstable])]);
      const byId = new Map(targets.map((t) => [t.id, t]));
      await this.send(
        offline.map((id) => byId.get(id)).filter((t) => t?.status === 'offline'),
        'deviceOfflineAlertTitle',
        'deviceOfflineAlertContent',
      );
      await this.send(
        unstable.map((id) => byId.get(id)),
        'deviceUnstableAlertTitle',
        'deviceUnstableAlertContent',
      );
    } catch (error) {
      this.log.error({ err: error }, 'device alerts not sent');
    }
  }

  /** One message per owner, in both languages (the console shows it as written). */
  private async send(
    targets: (Target | undefined)[],
    title: MessageKey,
    content: MessageKey,
  ): Promise<void> {
    const byOwner = new Map<string, Target[]>();
    for (const target of targets) {
      if (!target) continue;
      const key = `${target.company_id}|${target.owner_id}`;
      byOwner.set(key, [...(byOwner.get(key) ?? []), target]);
    }
    for (const devices of byOwner.values()) {
      const [first] = devices;
      if (!first) continue;
      const params = (lang: Lang) => {
        const named = devices
          .slice(0, NAMED_MAX)
          .map((d) => (d.name === d.sn ? d.sn : `${d.name} (${d.sn})`))
          .join(', ');
        const rest = devices.length - NAMED_MAX;
        return {
          count: devices.length,
          seconds: Math.round(this.options.delayMs / 1000),
          minutes: Math.round(this.options.stableMs / 60_000),
          times: this.options.flapCount,
          devices: escapeHtml(
            rest > 0 ? `${named} ${message(lang, 'deviceAlertMore', { count: rest })}` : named,
          ),
        };
      };
      const both = (key: MessageKey) => LANGS.map((lang) => message(lang, key, params(lang)));
      await this.sender.sendSystemMessage({
        companyId: first.company_id,
        userIds: [first.owner_id],
        title: both(title).join(' / '),
        content: both(content)
          .map((text) => `<p>${text}</p>`)
          .join(''),
        priority: 'M',
        openType: 'url',
        openPage: devices.length === 1 ? `/device/detail/${first.id}` : '/device/list',
        busId: devices.length === 1 ? first.id : null,
      });
    }
  }
}
