import {
  DEVICE_LOG_CONTENT_MAX_BYTES,
  MQTT_PAYLOAD_MAX_BYTES,
  ZConfigSnapshot,
  downTopic,
  isBuiltInMethod,
  type TCommandState,
  type TDeviceCommand,
  type TDeviceCommandQuery,
  type TDeviceCommandSend,
  type TRpcDownPayload,
  type TRpcReplyPayload,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { DeviceCommandTable } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { DeviceConfigService } from '../device-config/config.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { ActionOrigin, DeviceService } from '../device/device.service.js';
import { iso, isoOrNull, pageResult, type Page } from '../../platform/http/paging.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { DeviceRef } from '../device-gateway/uplink-sink.service.js';
import type { CommandOutcome, DeviceCommandRepository } from './command.repository.js';

const CUSTOM_PERMISSION = 'device:command:custom';
/**
 * Commands past their deadline are looked for this often: a timeout shows at most this late. The
 * query reads the `(state, deadline)` index, so an idle sweep costs one index probe.
 */
const SWEEP_INTERVAL_MS = 1000;
const SWEEP_BATCH = 500;
/** Held devices looked up at once when waiting commands are re-sent after a gap in the bus. */
const RESEND_BATCH = 500;

function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function toCommand(row: DeviceCommandTable): TDeviceCommand {
  return {
    id: row.id,
    deviceId: row.device_id,
    sn: row.sn,
    method: row.method,
    params: parseJson(row.params_json) as Record<string, unknown> | null,
    timeoutSec: row.timeout_sec,
    state: row.state as TCommandState,
    result: parseJson(row.result_json),
    error: row.error,
    createBy: row.create_by,
    createTime: iso(row.create_time),
    replyTime: isoOrNull(row.reply_time),
    lateReply: parseJson(row.late_reply_json) as TDeviceCommand['lateReply'],
  };
}

function requestOf(row: DeviceCommandTable): TRpcDownPayload {
  const params = parseJson(row.params_json) as Record<string, unknown> | null;
  return {
    method: row.method,
    ...(params ? { params } : {}),
    timeoutSec: row.timeout_sec,
  };
}

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * Commands (RPC) to one online device: `down/rpc/{reqId}`, answered on `up/rpc/{reqId}` within
 * the command's timeout, or ended as `timeout` by a scheduled sweep (one node of the cluster runs
 * it, though any number could: every end is a conditional update of a command still waiting).
 * Each command is a device log entry whose state follows the answer; sockets watching the device
 * get every change. A `get_config` answer is also what the device reports as its configuration;
 * it is kept with its secrets masked. An answer after the timeout is kept beside it (`lateReply`).
 */
export class DeviceCommandService {
  constructor(
    private readonly repository: DeviceCommandRepository,
    private readonly devices: DeviceService,
    private readonly configs: DeviceConfigService,
    private readonly logs: DeviceLogService,
    private readonly permissions: PermissionService,
    private readonly gateway: Pick<
      GatewayService,
      'send' | 'expectRestart' | 'heldDevices' | 'reachable'
    >,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {
    bus.subscribe('bus.resumed', () => {
      this.resendHeld().catch((err: unknown) =>
        this.log.warn({ err }, 'commands not re-sent after the bus gap'),
      );
    });
  }

  /** The timeout sweep, every second on one node of the cluster. */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'device-command.timeout-sweep',
        everyMs: SWEEP_INTERVAL_MS,
        scope: 'cluster',
        run: async () => {
          await this.sweepTimeouts();
        },
        onFailure: (err) => this.log.warn({ err }, 'command timeout sweep failed'),
      },
    ];
  }

  // ---------------------------------------------------------------- API

  /**
   * Sends a command to an online device (409 when it is offline: a command is answered now or
   * not at all, unlike a configuration, which waits). Free-form methods need
   * `device:command:custom` besides the route's `device:command`.
   */
  async send(
    scope: Scope,
    input: TDeviceCommandSend,
    origin: ActionOrigin,
  ): Promise<TDeviceCommand> {
    if (
      !isBuiltInMethod(input.method) &&
      !(await this.permissions.hasIn(scope, CUSTOM_PERMISSION))
    ) {
      throw new AppError('deviceCommandCustomDenied', 403);
    }
    const device = await this.devices.get(scope, input.deviceId);
    if (device.status !== 'online' || !(await this.gateway.reachable(device.id)))
      throw new AppError('deviceOffline', 409);
    const payload: TRpcDownPayload = {
      method: input.method,
      ...(input.params ? { params: input.params } : {}),
      timeoutSec: input.timeoutSec,
    };
    if (bytes(payload) > MQTT_PAYLOAD_MAX_BYTES) {
      throw new AppError('deviceCommandTooLarge', 400, { kb: MQTT_PAYLOAD_MAX_BYTES / 1024 });
    }
    const id = newId();
    const now = this.clock();
    const logId = await this.logs.write({
      companyId: scope.companyId,
      deviceId: device.id,
      sn: device.sn,
      requestUrl: downTopic(device.tagCode, 'rpc', id),
      sourceUser: scope.username,
      targetUser: device.ownerName,
      subject: 'command.send',
      content: payload,
      sourceIp: origin.ip,
      state: 'sent',
    });
    const row: DeviceCommandTable = {
      id,
      company_id: scope.companyId,
      device_id: device.id,
      sn: device.sn,
      method: input.method,
      params_json: input.params ? JSON.stringify(input.params) : null,
      timeout_sec: input.timeoutSec,
      state: 'sent',
      result_json: null,
      error: null,
      create_by: scope.username,
      create_time: now,
      deadline: now + input.timeoutSec * 1000,
      reply_time: null,
      log_id: logId,
      late_reply_json: null,
    };
    await this.repository.insert(row);
    const command = toCommand(row);
    // Announced before it leaves, so that the answer is always announced after it.
    await this.bus.publish('device.command', { companyId: scope.companyId, command });
    if (input.method === 'reboot') await this.gateway.expectRestart(device.id, 'reboot');
    await this.gateway.send(device.tagCode, 'rpc', id, payload);
    return command;
  }

  async list(scope: Scope, query: TDeviceCommandQuery): Promise<Page<TDeviceCommand>> {
    const device = await this.devices.get(scope, query.deviceId);
    const { records, total } = await this.repository.page(scope.companyId, device.id, query);
    return pageResult(records.map(toCommand), total, query);
  }

  // ---------------------------------------------------------------- devices (uplink handler)

  /**
   * `up/rpc/{reqId}`. A reply to a command that timed out is kept as its late reply (the first
   * one); other replies to a command that already ended are ignored.
   */
  async rpcReplied(
    device: DeviceRef,
    reqId: string,
    payload: TRpcReplyPayload,
    receivedAt: number,
  ): Promise<void> {
    const command = await this.repository.find(device.companyId, reqId);
    if (!command || command.device_id !== device.id) {
      this.log.debug({ sn: device.sn, reqId }, 'reply to an unknown command');
      return;
    }
    const snapshot =
      command.method === 'get_config' && payload.ok
        ? ZConfigSnapshot.safeParse(payload.result)
        : undefined;
    // What the platform keeps and shows of the answer: secrets masked.
    const result = snapshot?.success
      ? { ...snapshot.data, config: await this.configs.masked(device, snapshot.data.config) }
      : payload.result;
    const outcome: CommandOutcome = payload.ok
      ? {
          state: 'succeeded',
          resultJson: result === undefined ? null : JSON.stringify(result),
          error: null,
          at: receivedAt,
        }
      : {
          state: 'failed',
          resultJson: null,
          error: payload.error ?? 'failed',
          at: receivedAt,
        };
    if (await this.repository.finish(device.companyId, device.id, reqId, outcome)) {
      await this.ended({
        ...command,
        state: outcome.state,
        result_json: outcome.resultJson,
        error: outcome.error,
        reply_time: outcome.at,
      });
    } else if (!(await this.lateReply(command, outcome))) {
      this.log.debug({ sn: device.sn, reqId }, 'reply to a command that is not waiting');
      return;
    }
    if (snapshot?.success) {
      await this.configs.configReported(device, { ...snapshot.data, result: 'ok' }, receivedAt);
    }
  }

  // ---------------------------------------------------------------- timeouts

  /**
   * Ends every command past its deadline as `timeout` (a scheduled job every second; tests call it
   * after moving the clock). Returns how many this call ended.
   */
  async sweepTimeouts(): Promise<number> {
    const now = this.clock();
    let ended = 0;
    for (;;) {
      const rows = await this.repository.expired(now, SWEEP_BATCH);
      for (const row of rows) {
        const outcome: CommandOutcome = {
          state: 'timeout',
          resultJson: null,
          error: `no answer within ${row.timeout_sec} s`,
          at: now,
        };
        if (!(await this.repository.finish(row.company_id, row.device_id, row.id, outcome))) {
          continue;
        }
        ended += 1;
        await this.ended({ ...row, state: outcome.state, error: outcome.error });
      }
      if (rows.length < SWEEP_BATCH) return ended;
    }
  }

  // ---------------------------------------------------------------- internals

  /**
   * The bus is back after a gap: a command another node sent meanwhile to a device this node
   * holds went nowhere, so every command still waiting for a held device goes out again. A device
   * that did get it gets it twice, as QoS 1 allows; the first answer ends the command.
   */
  private async resendHeld(): Promise<void> {
    const held = this.gateway.heldDevices();
    for (let at = 0; at < held.length; at += RESEND_BATCH) {
      const batch = new Map(held.slice(at, at + RESEND_BATCH).map((d) => [d.id, d]));
      for (const row of await this.repository.waitingFor([...batch.keys()], this.clock())) {
        const device = batch.get(row.device_id);
        if (device) await this.gateway.send(device.address, 'rpc', row.id, requestOf(row));
      }
    }
  }

  /**
   * Keeps the first answer to a command that timed out beside the timeout, in the command and its
   * log entry; false when the command did not time out or already has one.
   */
  private async lateReply(command: DeviceCommandTable, outcome: CommandOutcome) {
    const late = {
      ok: outcome.state === 'succeeded',
      result: parseJson(outcome.resultJson),
      error: outcome.error,
      at: iso(outcome.at),
    };
    const noted = await this.repository.noteLateReply(
      command.company_id,
      command.id,
      JSON.stringify(late),
    );
    if (!noted) return false;
    // Read again: `command` may have been read before the sweep that timed it out wrote its end.
    const row = await this.repository.find(command.company_id, command.id);
    if (row) await this.ended(row);
    return true;
  }

  /** The command's log entry takes its outcome (with the answer); watchers get the command. */
  private async ended(row: DeviceCommandTable) {
    if (row.log_id) {
      const request = requestOf(row);
      const result = parseJson(row.result_json);
      const lateReply = parseJson(row.late_reply_json);
      let content: unknown =
        row.state === 'succeeded'
          ? { ...request, result }
          : { ...request, error: row.error, ...(lateReply === null ? {} : { lateReply }) };
      // The request and a 64 KiB answer together may not fit: the answer stays in the command.
      if (bytes(content) > DEVICE_LOG_CONTENT_MAX_BYTES) content = request;
      await this.logs.setState(
        row.log_id,
        row.state as 'succeeded' | 'failed' | 'timeout',
        content,
      );
    }
    await this.bus.publish('device.command', {
      companyId: row.company_id,
      command: toCommand(row),
    });
  }
}
