import { DATA_RETENTION_DEFAULT_DAYS, ZDataRetention, type TDataRetention } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import { forbidden } from '../../platform/http/app-error.js';
import type { DeviceDataRepository } from './device-data.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The retention job runs this long after start, then every RETENTION_INTERVAL_MS. */
const RETENTION_FIRST_RUN_MS = 30_000;
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** Rows per DELETE statement: short statements, so a large purge never holds a long lock. */
const PURGE_CHUNK = 5000;

function safeJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * How long telemetry and events are kept (a platform-wide setting), and the hourly job that
 * deletes rows older than that.
 */
export class DeviceDataRetentionService {
  constructor(
    private readonly repository: DeviceDataRepository,
    private readonly permissions: PermissionService,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {}

  /** The purge, hourly on one node of the cluster (the deletes are idempotent all the same). */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'device-data.retention',
        everyMs: RETENTION_INTERVAL_MS,
        firstRunMs: RETENTION_FIRST_RUN_MS,
        scope: 'cluster',
        run: (signal) => this.runRetention(signal),
      },
    ];
  }

  /** Platform-wide, so platform administrators only, whoever else holds the permission code. */
  async viewRetention(scope: Scope): Promise<TDataRetention> {
    await this.requirePlatformAdmin(scope);
    return this.retention();
  }

  async setRetention(scope: Scope, input: TDataRetention): Promise<TDataRetention> {
    await this.requirePlatformAdmin(scope);
    await this.repository.writeRetention(JSON.stringify(input), this.clock());
    return this.retention();
  }

  private async requirePlatformAdmin(scope: Scope) {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }

  private async retention(): Promise<TDataRetention> {
    const raw = await this.repository.readRetention();
    const parsed = ZDataRetention.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : { days: DATA_RETENTION_DEFAULT_DAYS };
  }

  /**
   * Deletes samples and events received longer ago than the retention period, a chunk per
   * statement, until `signal` aborts (shutdown). Several nodes may run it at once: the deletes are
   * idempotent.
   */
  async purgeExpired(signal?: AbortSignal): Promise<{ samples: number; events: number }> {
    const cutoff = this.clock() - (await this.retention()).days * DAY_MS;
    const purge = async (chunk: (cutoff: number, limit: number) => Promise<number>) => {
      let total = 0;
      for (;;) {
        const n = await chunk(cutoff, PURGE_CHUNK);
        total += n;
        if (n < PURGE_CHUNK || signal?.aborted) return total;
        // Lets the ingest writer and requests in between chunks (SQLite has one connection).
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const samples = await purge((c, l) => this.repository.deleteSamplesReceivedBefore(c, l));
    const events = await purge((c, l) => this.repository.deleteEventsReceivedBefore(c, l));
    return { samples, events };
  }

  /** The retention job's run (every RETENTION_INTERVAL_MS): purges, logs what went, never throws. */
  async runRetention(signal?: AbortSignal): Promise<void> {
    try {
      const { samples, events } = await this.purgeExpired(signal);
      if (samples + events > 0)
        this.log.info({ samples, events }, 'expired telemetry and events deleted');
    } catch (err) {
      this.log.warn({ err }, 'telemetry retention run failed');
    }
  }
}
