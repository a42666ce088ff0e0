import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { DeviceTable } from '../../platform/db/schema.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import type { DeviceLogEntry, DeviceLogService } from '../device/device-log.service.js';
import { newDeviceRow } from '../device/device.service.js';
import type { GatewayRepository } from './gateway.repository.js';

/** An unknown SN logging in with a token that registers unknown SNs. */
export interface RegistrationRequest {
  sn: string;
  companyId: string;
  tokenId: string;
  ownerId: string;
  ownerName: string;
  ownerOrgCode: string | null;
  ip: string | null;
}

export type RegistrationOutcome = { deviceId: string } | { refused: 'device-removed' };

/**
 * Auto-registered devices get this series until their first `up/status` names the real one: the
 * column is required and the CONNECT packet does not say.
 */
const PLACEHOLDER_SERIES = 'R40';
/**
 * Registrations gather this long, so that a fleet's first connect storm writes in batches: each
 * batch costs two commits and two statements prepared for its row count, whatever its size, and
 * 10 ms made batches of about a dozen devices at a few hundred connects a second.
 */
const GATHER_MS = 50;
const BATCH_MAX = 500;
const CONNECT_REQUEST = 'MQTT CONNECT';

interface Pending {
  request: RegistrationRequest;
  resolve: (outcome: RegistrationOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Registers unknown SNs in batches: one query per token for the SNs it already holds and one for
 * the SNs an operator removed from it (which are refused), one multi-row insert, and, once the
 * devices have their answer, one write of the device log, for up to 500 devices at a time. A fleet
 * connecting for the first time would otherwise cost four statements per device. An SN is unique
 * per token only (another token's device with the same SN is another device); one registered by
 * another node in the meantime is caught by the unique index and the batch retried device by
 * device.
 */
export class AutoRegistration {
  private queue: Pending[] = [];
  /** Device log entries of registrations done, written after their devices were answered. */
  private unlogged: DeviceLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly repository: GatewayRepository,
    private readonly deviceLogs: DeviceLogService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  register(request: RegistrationRequest): Promise<RegistrationOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.running ??= this.drain().finally(() => (this.running = null));
      }, GATHER_MS);
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_MAX);
      try {
        const outcomes = await this.registerBatch(batch.map((p) => p.request));
        batch.forEach((p, i) => {
          const outcome = outcomes[i];
          if (outcome) p.resolve(outcome);
          else p.reject(new Error('registration without outcome'));
        });
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
      await this.writeLogs();
    }
  }

  /** After the devices had their answer: their CONNACK does not wait for the log. */
  private async writeLogs(): Promise<void> {
    const logs = this.unlogged;
    if (logs.length === 0) return;
    this.unlogged = [];
    try {
      await this.deviceLogs.writeMany(logs);
    } catch (error) {
      this.log.error({ err: error }, 'auto-registration not logged');
    }
  }

  private async registerBatch(
    requests: RegistrationRequest[],
    retried = false,
  ): Promise<RegistrationOutcome[]> {
    const holders = new Map<string, string>();
    const removed = new Set<string>();
    const tagOf = (tokenId: string, sn: string) => `${tokenId}|${sn}`;
    const snsByToken = new Map<string, Set<string>>();
    for (const r of requests) {
      snsByToken.set(r.tokenId, (snsByToken.get(r.tokenId) ?? new Set()).add(r.sn));
    }
    for (const [tokenId, set] of snsByToken) {
      const sns = [...set];
      // Asked together: on PostgreSQL they run at once, on two pooled connections.
      const [devices, removedOfToken] = await Promise.all([
        this.repository.devicesOfToken(tokenId, sns),
        this.repository.removedSns(tokenId, sns),
      ]);
      for (const d of devices) holders.set(tagOf(tokenId, d.sn), d.id);
      for (const sn of removedOfToken) removed.add(tagOf(tokenId, sn));
    }
    const now = this.clock();
    const rows: DeviceTable[] = [];
    const logs: DeviceLogEntry[] = [];
    const outcomes = requests.map((request): RegistrationOutcome => {
      const own = holders.get(tagOf(request.tokenId, request.sn));
      if (own) return { deviceId: own };
      if (removed.has(tagOf(request.tokenId, request.sn))) return { refused: 'device-removed' };
      const row = newDevice(request, now);
      rows.push(row);
      // A second login of the same device in this batch finds this row.
      holders.set(tagOf(request.tokenId, request.sn), row.id);
      logs.push({
        companyId: request.companyId,
        deviceId: row.id,
        sn: request.sn,
        requestUrl: CONNECT_REQUEST,
        sourceUser: null,
        targetUser: request.ownerName,
        subject: 'device.add',
        content: { autoRegistered: true, tokenId: request.tokenId },
        sourceIp: request.ip,
        state: 'succeeded',
      });
      return { deviceId: row.id };
    });
    if (rows.length === 0) return outcomes;
    try {
      await this.repository.insertDevices(rows);
    } catch (error) {
      if (!isUniqueViolation(error) || retried) throw error;
      // Another node registered one of the SNs since the query: look again, one by one.
      const single: RegistrationOutcome[] = [];
      for (const request of requests) single.push(...(await this.registerBatch([request], true)));
      return single;
    }
    this.log.info({ devices: rows.length }, 'MQTT devices auto-registered');
    this.unlogged.push(...logs);
    return outcomes;
  }
}

function newDevice(request: RegistrationRequest, now: number): DeviceTable {
  return newDeviceRow({
    company_id: request.companyId,
    token_id: request.tokenId,
    owner_id: request.ownerId,
    sys_org_code: request.ownerOrgCode,
    create_by: null,
    create_time: now,
    sn: request.sn,
    name: request.sn,
    series: PLACEHOLDER_SERIES,
    model: null,
    version: null,
    group_id: null,
    remark: null,
    location: null,
  });
}
