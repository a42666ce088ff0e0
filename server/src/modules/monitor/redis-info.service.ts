import type { TMonitorRedis } from '@blrms/contracts';
import { Redis } from 'ioredis';

/** A Redis that does not answer within this is reported down; the screen must not hang on it. */
const TIMEOUT_MS = 1500;

const NOT_CONFIGURED: TMonitorRedis = {
  configured: false,
  ok: false,
  error: null,
  version: null,
  usedMemoryBytes: null,
  peakMemoryBytes: null,
  maxMemoryBytes: null,
  connectedClients: null,
  blockedClients: null,
  pubsubChannels: null,
  uptimeSeconds: null,
};

/** `INFO` text (`key:value` lines, `#` sections) as a map. */
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

function numberOf(fields: Map<string, string>, key: string): number | null {
  const value = fields.get(key);
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * What the system monitor shows of Redis (REDIS_URL): memory, clients, pub/sub channels. Its own
 * connection, not the bus's: a slow INFO must not delay events. A Redis that is down answers as
 * such (the error), never as a failed request.
 */
export class RedisInfoService {
  private client: Redis | null = null;

  constructor(private readonly url: string | undefined) {}

  async info(): Promise<TMonitorRedis> {
    if (!this.url) return NOT_CONFIGURED;
    try {
      const client = await this.connected();
      const [server, memory, clients, channels] = await Promise.all([
        client.info('server'),
        client.info('memory'),
        client.info('clients'),
        client.pubsub('CHANNELS') as Promise<string[]>,
      ]);
      const fields = new Map([...parseInfo(server), ...parseInfo(memory), ...parseInfo(clients)]);
      const maxMemory = numberOf(fields, 'maxmemory');
      return {
        configured: true,
        ok: true,
        error: null,
        version: fields.get('redis_version') ?? null,
        usedMemoryBytes: numberOf(fields, 'used_memory'),
        peakMemoryBytes: numberOf(fields, 'used_memory_peak'),
        // 0 means no limit.
        maxMemoryBytes: maxMemory === 0 ? null : maxMemory,
        connectedClients: numberOf(fields, 'connected_clients'),
        blockedClients: numberOf(fields, 'blocked_clients'),
        pubsubChannels: channels.length,
        uptimeSeconds: numberOf(fields, 'uptime_in_seconds'),
      };
    } catch (error) {
      this.drop();
      return {
        ...NOT_CONFIGURED,
        configured: true,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  }

  close(): void {
    this.drop();
  }

  /** The open connection, or a new one: a connection that failed once is replaced, not retried. */
  private async connected(): Promise<Redis> {
    if (this.client?.status === 'ready') return this.client;
    this.drop();
    const client = new Redis(this.url ?? '', {
      lazyConnect: true,
      connectTimeout: TIMEOUT_MS,
      commandTimeout: TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      connectionName: 'blrms-monitor',
    });
    // Errors are reported by the failed command; an unheard 'error' event would only be logged.
    client.on('error', () => undefined);
    this.client = client;
    await client.connect();
    return client;
  }

  private drop(): void {
    this.client?.disconnect();
    this.client = null;
  }
}
