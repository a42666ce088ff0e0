import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { LOCAL_TOPICS, type Bus, type Handler, type Topic } from './bus.js';
import { MemoryBus } from './memory-bus.js';

const CHANNEL_PREFIX = 'blrms:';
/**
 * The link is checked this often (a PING on each connection), and a command Redis has not answered
 * within the timeout counts as a lost link: a frozen Redis keeps its connections open, so only an
 * unanswered command tells.
 */
const CHECK_INTERVAL_MS = 1000;
const COMMAND_TIMEOUT_MS = 1000;
/** Reconnect attempts back off up to this, so a Redis that is back is used again within it. */
const RECONNECT_MAX_MS = 1000;

/** What goes over Redis: the publishing node, so that it skips its own events coming back. */
interface Envelope {
  from: string;
  payload: unknown;
}

export interface RedisBusOptions {
  checkIntervalMs?: number;
  commandTimeoutMs?: number;
}

/**
 * Several nodes: every event is delivered to this node's subscribers at once and sent through
 * Redis pub/sub to the other nodes, each of which delivers it to its own subscribers. The link's
 * state is tracked: while Redis is unreachable (refused, or not answering) events reach this node
 * only, a publish never waits for Redis and nothing is queued for later; when the link is back,
 * `bus.resumed` tells this node's subscribers to derive what the gap may have lost from the
 * database. A node that starts while Redis is unreachable runs the same way until it connects.
 */
export class RedisBus implements Bus {
  private readonly local = new MemoryBus();
  private readonly node = randomUUID();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly checkIntervalMs: number;
  /** When the link was lost (or, before it first worked, the start); null while it works. */
  private lostAt: number | null = Date.now();
  /** The first check, during `connect`: a link that works from the start resumes nothing. */
  private starting = true;
  private subscribed = false;
  private subscribing: Promise<void> | null = null;
  private checkTimer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;

  private constructor(
    url: string,
    private readonly log: FastifyBaseLogger,
    options: RedisBusOptions,
  ) {
    this.checkIntervalMs = options.checkIntervalMs ?? CHECK_INTERVAL_MS;
    const common: RedisOptions = {
      lazyConnect: true,
      commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      connectTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 100, RECONNECT_MAX_MS),
      // Commands fail at once while disconnected, instead of waiting in memory for the link, and
      // are not sent again after a reconnect: an event that old would arrive after the resync.
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
    };
    this.publisher = new Redis(url, common);
    // Subscribed on each connection here rather than by the client, so that the link counts as
    // working only once the subscription is in place.
    this.subscriber = new Redis(url, { ...common, autoResubscribe: false });
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (err: Error) => this.lost(err));
      client.on('close', () => {
        if (client === this.subscriber) this.subscribed = false;
        this.lost(new Error('connection closed'));
      });
    }
    this.publisher.on('ready', () => this.checkSoon(0));
    this.subscriber.on('ready', () => {
      this.subscribing = this.subscriber.psubscribe(`${CHANNEL_PREFIX}*`).then(
        () => {
          this.subscribed = true;
          this.checkSoon(0);
        },
        (err: unknown) => this.lost(err),
      );
    });
    this.subscriber.on('pmessage', (_pattern: string, channel: string, raw: string) =>
      this.received(channel, raw),
    );
  }

  /**
   * Connects to Redis; a Redis that cannot be reached yet is logged and tried again, the bus
   * working on this node alone meanwhile.
   */
  static async connect(
    url: string,
    log: FastifyBaseLogger,
    options: RedisBusOptions = {},
  ): Promise<RedisBus> {
    const bus = new RedisBus(url, log, options);
    await Promise.allSettled([bus.publisher.connect(), bus.subscriber.connect()]);
    await bus.subscribing;
    await bus.check();
    bus.starting = false;
    if (!bus.connected) {
      log.warn('Redis unreachable at start: events reach this node only until it connects');
    }
    return bus;
  }

  get connected(): boolean {
    return this.lostAt === null;
  }

  async publish<T extends Topic>(topic: T, payload: Parameters<Handler<T>>[0]): Promise<void> {
    await this.local.publish(topic, payload);
    if (LOCAL_TOPICS.has(topic) || !this.connected) return;
    const envelope: Envelope = { from: this.node, payload };
    this.publisher
      .publish(CHANNEL_PREFIX + topic, JSON.stringify(envelope))
      .catch((err: unknown) => this.lost(err));
  }

  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    return this.local.subscribe(topic, handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.checkTimer) clearTimeout(this.checkTimer);
    await this.checking;
    await this.local.close();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }

  private received(channel: string, raw: string): void {
    try {
      const topic = channel.slice(CHANNEL_PREFIX.length) as Topic;
      const envelope = JSON.parse(raw) as Partial<Envelope> | null;
      if (typeof envelope?.from !== 'string' || typeof envelope.payload !== 'object') {
        throw new Error('not an event envelope');
      }
      if (envelope.from === this.node || LOCAL_TOPICS.has(topic)) return;
      void this.local.publish(topic, envelope.payload as never);
    } catch (err) {
      this.log.warn({ err, channel }, 'ignored malformed bus message');
    }
  }

  /** Both connections answer a PING in time: the link works (again). */
  private async check(): Promise<void> {
    const ready = this.publisher.status === 'ready' && this.subscribed;
    try {
      if (!ready) throw new Error('not connected');
      await Promise.all([this.publisher.ping(), this.subscriber.ping()]);
    } catch (err) {
      this.lost(err);
      return;
    }
    this.regained();
  }

  /** The next check, `delayMs` from now (or sooner, when one is already due sooner). */
  private checkSoon(delayMs = this.checkIntervalMs): void {
    if (this.closed) return;
    if (this.checkTimer) {
      if (delayMs > 0) return;
      clearTimeout(this.checkTimer);
    }
    this.checkTimer = setTimeout(() => {
      this.checkTimer = null;
      // One check at a time: a frozen Redis holds one for the whole command timeout.
      this.checking ??= this.check().finally(() => {
        this.checking = null;
        this.checkSoon();
      });
    }, delayMs);
    this.checkTimer.unref();
  }

  private lost(err: unknown): void {
    this.checkSoon();
    if (this.lostAt !== null || this.closed) return;
    this.lostAt = Date.now();
    // Once per outage, however many requests publish meanwhile.
    this.log.warn({ err }, 'Redis unreachable: events reach this node only until it is back');
  }

  private regained(): void {
    this.checkSoon();
    if (this.lostAt === null) return;
    const gapMs = Date.now() - this.lostAt;
    this.lostAt = null;
    if (this.starting) return;
    this.log.info({ gapMs }, 'Redis reachable again: resynchronising after the gap');
    void this.publish('bus.resumed', { gapMs }).catch((err: unknown) =>
      this.log.error({ err }, 'bus resume handling failed'),
    );
  }
}
