import { ALARMS_CHANNEL, type TChannel, type TServerMessage } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Session } from '../../platform/auth/sessions.js';
import type { Bus, BusTopics } from '../../platform/bus/bus.js';
import type { Lang } from '../../platform/http/i18n.js';
import {
  SocketIndex,
  companiesWith,
  type ChannelCheck,
  type ChannelKind,
  type ChannelSocket,
} from '../../platform/ws/channels.js';
import type { DeviceService } from '../device/device.service.js';

const ALARM_LIST = 'alarm:list';

function scopeOf(session: Session, companyId: string) {
  return {
    userId: session.userId,
    username: session.username,
    companyId,
    orgCode: session.orgCode,
    sessionId: session.sessionId,
  };
}

/**
 * `alarms` on the console websocket: every change of the alarms of the companies in which the
 * user holds `alarm:list`, of the devices their device list shows (data rules applied: a socket
 * whose user's rules narrow the list gets an alarm once its device was checked), each message in
 * the socket's language.
 */
export class AlarmChannelService implements ChannelKind {
  private readonly subscribers = new SocketIndex();
  /** Of a socket's companies, those whose alarms are filtered by the user's data rules. */
  private readonly narrowed = new WeakMap<ChannelSocket, Set<string>>();

  constructor(
    private readonly permissions: Pick<PermissionService, 'has'>,
    private readonly devices: Pick<DeviceService, 'hasDataRules' | 'visibleIds'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  matches(channel: TChannel): boolean {
    return channel === ALARMS_CHANNEL;
  }

  held(socket: ChannelSocket): TChannel[] {
    return this.subscribers.keysOf(socket).size > 0 ? [ALARMS_CHANNEL] : [];
  }

  async check(session: Session): Promise<ChannelCheck> {
    const companies = await companiesWith(this.permissions, session, ALARM_LIST);
    if (companies.length === 0) return { outcome: 'forbidden' };
    const narrowed = await Promise.all(
      companies.map((c) => this.devices.hasDataRules(scopeOf(session, c))),
    );
    return {
      outcome: 'allowed',
      join: (socket) => {
        this.subscribers.replace(socket, companies);
        this.narrowed.set(socket, new Set(companies.filter((_, i) => narrowed[i])));
      },
    };
  }

  leave(socket: ChannelSocket): void {
    this.subscribers.replace(socket, []);
    this.narrowed.delete(socket);
  }

  listen(bus: Bus): (() => void)[] {
    return [bus.subscribe('alarm.changed', (change) => this.deliver(change))];
  }

  private deliver({ companyId, alarm, messages }: BusTopics['alarm.changed']): void {
    const subscribers = this.subscribers.socketsOf(companyId);
    if (!subscribers) return;
    const texts = new Map<Lang, string>();
    const textFor = (lang: Lang) => {
      let text = texts.get(lang);
      if (text === undefined) {
        text = JSON.stringify({
          type: 'alarm',
          alarm: { ...alarm, message: messages[lang] },
        } satisfies TServerMessage);
        texts.set(lang, text);
      }
      return text;
    };
    for (const socket of subscribers) {
      if (!this.narrowed.get(socket)?.has(companyId)) {
        socket.deliver(textFor(socket.lang));
        continue;
      }
      this.devices
        .visibleIds(scopeOf(socket.session, companyId), [alarm.deviceId])
        .then((ids) => {
          if (ids.length > 0 && this.subscribers.has(socket, companyId))
            socket.deliver(textFor(socket.lang));
        })
        .catch((err: unknown) => {
          this.log.warn({ err, userId: socket.session.userId }, 'websocket alarm filter failed');
          socket.fail('alarm filter failed');
        });
    }
  }
}
