import {
  DEVICES_CHANNEL,
  deviceChannel,
  type TChannel,
  type TDeviceLive,
  type TServerMessage,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Session } from '../../platform/auth/sessions.js';
import { AppError } from '../../platform/http/app-error.js';
import { iso } from '../../platform/http/paging.js';
import {
  SocketIndex,
  companiesWith,
  type ChannelKind,
  type ChannelSocket,
} from '../../platform/ws/channels.js';
import type { DeviceService } from '../device/device.service.js';

/**
 * Device channels one socket may hold (subscribed or being checked). A detail page needs one; the
 * cap keeps a client from making the server check and route for thousands of devices.
 */
export const MAX_DEVICE_CHANNELS = 50;
const DEVICE_CHANNEL_PREFIX = 'device:';
/**
 * Status batches of one socket waiting for its data rules' check, at most: a socket that falls
 * this far behind (the database is slow) is dropped like one that does not read its messages.
 */
const MAX_FILTER_BACKLOG = 100;
/** A status batch whose data-rule check failed. */
const CHECK_FAILED = Symbol('check failed');
const DEVICE_LIST = 'device:list';

/** A company whose device status changes a socket may watch (`devices`). */
interface FleetCompany {
  companyId: string;
  /** The user's data rules hide some of the company's devices from them. */
  narrowed: boolean;
}

/** What a `devices` socket gets besides the plain status messages. */
interface FleetSocket {
  /** Of its companies, those whose status changes are filtered by the user's data rules. */
  narrowedIn: Set<string>;
  /**
   * Status batches on their way to the socket after a data-rule check; later batches queue behind
   * them, so that the socket gets them in order.
   */
  backlog: Promise<void>;
  backlogSize: number;
}

function scopeOf(session: Session, companyId: string): Scope {
  return {
    userId: session.userId,
    username: session.username,
    companyId,
    orgCode: session.orgCode,
    sessionId: session.sessionId,
  };
}

/** The device id of a `device:{id}` channel. */
function deviceIdOf(channel: TChannel): string {
  return channel.slice(DEVICE_CHANNEL_PREFIX.length);
}

/**
 * The device channels of the console websocket. `devices`: status changes of the devices the
 * user's device list shows, in the companies in which they hold `device:list` (data rules
 * applied to each batch when they narrow the list). `device:{id}`: status, telemetry, events,
 * configuration state and commands of a device the user may see as its detail page would show
 * it. Sockets are indexed by company and by device, so a bus message costs its recipients.
 */
export class DeviceChannelsService {
  /** Sockets subscribed to `devices`, by company: status changes go to their recipients only. */
  private readonly fleet = new SocketIndex();
  /** Sockets subscribed to `device:{id}`, by device id. */
  private readonly watchers = new SocketIndex();
  /** Kept for the socket's life, so that batches checked across a resubscription stay in order. */
  private readonly fleetSockets = new WeakMap<ChannelSocket, FleetSocket>();

  /** `devices`. */
  readonly fleetKind: ChannelKind = {
    matches: (channel) => channel === DEVICES_CHANNEL,
    held: (socket) => (this.fleet.keysOf(socket).size > 0 ? [DEVICES_CHANNEL] : []),
    check: async (session) => {
      const companies = await this.fleetCompanies(session);
      if (companies.length === 0) return { outcome: 'forbidden' };
      return { outcome: 'allowed', join: (socket) => this.setFleet(socket, companies) };
    },
    leave: (socket) => this.setFleet(socket, []),
    listen: (bus) => [
      bus.subscribe('device.live', ({ companyId, devices }) => this.deviceLive(companyId, devices)),
    ],
  };

  /** `device:{id}`; its status changes come with `devices` ({@link fleetKind}). */
  readonly deviceKind: ChannelKind = {
    matches: (channel) => channel.startsWith(DEVICE_CHANNEL_PREFIX),
    maxPerSocket: MAX_DEVICE_CHANNELS,
    held: (socket) => [...this.watchers.keysOf(socket)].map(deviceChannel),
    check: async (session, channel) => {
      const deviceId = deviceIdOf(channel);
      const outcome = await this.deviceAccess(session, deviceId);
      if (outcome !== 'allowed') return { outcome };
      return { outcome, join: (socket) => this.watchers.add(socket, deviceId) };
    },
    leave: (socket, channel) => this.watchers.delete(socket, deviceIdOf(channel)),
    listen: (bus) => [
      bus.subscribe('device.telemetry', ({ points }) => {
        for (const { deviceId, ts, values } of points) {
          this.toWatchers(deviceId, () => ({
            type: 'device-telemetry',
            deviceId,
            point: { ts: iso(ts), values },
          }));
        }
      }),
      bus.subscribe('device.event', ({ event }) =>
        this.toWatchers(event.deviceId, () => ({ type: 'device-event', event })),
      ),
      bus.subscribe('device.config', ({ config }) =>
        this.toWatchers(config.deviceId, () => ({ type: 'device-config', config })),
      ),
      bus.subscribe('device.command', ({ command }) =>
        this.toWatchers(command.deviceId, () => ({ type: 'device-command', command })),
      ),
    ],
  };

  constructor(
    private readonly devices: DeviceService,
    private readonly permissions: Pick<PermissionService, 'has'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Companies of the session in which the user may watch the fleet's status (`device:list`), each
   * with whether their data rules narrow it: then every status change is filtered for them
   * ({@link visibleStatus}), as the device list would be.
   */
  private async fleetCompanies(session: Session): Promise<FleetCompany[]> {
    const companies = await companiesWith(this.permissions, session, DEVICE_LIST);
    const narrowed = await Promise.all(
      companies.map((c) => this.devices.hasDataRules(scopeOf(session, c))),
    );
    return companies.map((companyId, i) => ({ companyId, narrowed: narrowed[i] === true }));
  }

  /**
   * Whether the user may watch this device: it is visible to them as the detail page would show
   * it (company, `device:list`, data rules) in one of the session's companies. Forbidden without
   * `device:list` anywhere; not found when no company of theirs shows it.
   */
  private async deviceAccess(
    session: Session,
    deviceId: string,
  ): Promise<'allowed' | 'forbidden' | 'not-found'> {
    const companies = await companiesWith(this.permissions, session, DEVICE_LIST);
    if (companies.length === 0) return 'forbidden';
    for (const companyId of companies) {
      try {
        await this.devices.get(scopeOf(session, companyId), deviceId);
        return 'allowed';
      } catch (err) {
        if (!(err instanceof AppError && err.httpStatus === 404)) throw err;
      }
    }
    return 'not-found';
  }

  private setFleet(socket: ChannelSocket, companies: FleetCompany[]) {
    this.fleet.replace(
      socket,
      companies.map((c) => c.companyId),
    );
    this.fleetSocket(socket).narrowedIn = new Set(
      companies.filter((c) => c.narrowed).map((c) => c.companyId),
    );
  }

  private fleetSocket(socket: ChannelSocket): FleetSocket {
    let state = this.fleetSockets.get(socket);
    if (!state) {
      state = { narrowedIn: new Set(), backlog: Promise.resolve(), backlogSize: 0 };
      this.fleetSockets.set(socket, state);
    }
    return state;
  }

  /** A message about one device, serialized once, to the sockets watching it. */
  private toWatchers(deviceId: string, message: () => TServerMessage) {
    const watchers = this.watchers.socketsOf(deviceId);
    if (!watchers) return;
    const text = JSON.stringify(message());
    for (const socket of watchers) socket.deliver(text);
  }

  /**
   * The whole change goes, serialized once, to the company's `devices` sockets whose users see
   * every device; sockets whose users' data rules narrow the list get the devices they may see
   * (one query and one serialization per user). Each device's own watchers that are not among
   * them get that device's change, serialized once per device.
   */
  private deviceLive(companyId: string, devices: TDeviceLive[]) {
    const fleet = this.fleet.socketsOf(companyId);
    if (fleet) {
      let text: string | undefined;
      const narrowed = new Map<string, { session: Session; sockets: ChannelSocket[] }>();
      for (const socket of fleet) {
        const state = this.fleetSocket(socket);
        if (state.narrowedIn.has(companyId)) {
          const { userId, username, orgCode } = socket.session;
          // What the rules' variables are replaced with: sockets that agree share one query.
          const key = JSON.stringify([userId, username, orgCode]);
          const group = narrowed.get(key) ?? { session: socket.session, sockets: [] };
          group.sockets.push(socket);
          narrowed.set(key, group);
          continue;
        }
        text ??= JSON.stringify({ type: 'device-status', devices } satisfies TServerMessage);
        if (state.backlogSize === 0) socket.deliver(text);
        else this.queue(socket, companyId, Promise.resolve(text));
      }
      for (const { session, sockets } of narrowed.values()) {
        const shown = this.visibleStatus(session, companyId, devices);
        for (const socket of sockets) this.queue(socket, companyId, shown);
      }
    }
    if (this.watchers.empty) return;
    for (const device of devices) {
      const watchers = this.watchers.socketsOf(device.id);
      if (!watchers) continue;
      let text: string | undefined;
      for (const socket of watchers) {
        if (fleet?.has(socket)) continue;
        text ??= JSON.stringify({
          type: 'device-status',
          devices: [device],
        } satisfies TServerMessage);
        socket.deliver(text);
      }
    }
  }

  /**
   * The message of the devices of a batch that the user may see; null when they see none of them.
   * A failed check is logged here, once for all of the user's sockets.
   */
  private async visibleStatus(
    session: Session,
    companyId: string,
    devices: TDeviceLive[],
  ): Promise<string | null | typeof CHECK_FAILED> {
    try {
      const ids = new Set(
        await this.devices.visibleIds(
          scopeOf(session, companyId),
          devices.map((d) => d.id),
        ),
      );
      const shown = devices.filter((d) => ids.has(d.id));
      if (shown.length === 0) return null;
      return JSON.stringify({ type: 'device-status', devices: shown } satisfies TServerMessage);
    } catch (err) {
      this.log.warn({ err, userId: session.userId }, 'websocket device filter failed');
      return CHECK_FAILED;
    }
  }

  /** Sends a status batch of the company once those queued before it on the socket are sent. */
  private queue(
    socket: ChannelSocket,
    companyId: string,
    message: Promise<string | null | typeof CHECK_FAILED>,
  ) {
    const state = this.fleetSocket(socket);
    if (state.backlogSize >= MAX_FILTER_BACKLOG) return socket.drop();
    state.backlogSize += 1;
    state.backlog = state.backlog
      .then(() => message)
      .then((text) => {
        state.backlogSize -= 1;
        // The socket may have left `devices`, or lost the company, while the batch was checked.
        if (text === null || !this.fleet.has(socket, companyId)) return;
        // The console reconnects and reloads what it shows: no status change goes missing.
        if (text === CHECK_FAILED) socket.fail('device filter failed');
        else socket.deliver(text);
      });
  }
}
