import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, Handler, Topic } from './bus.js';
import { MemoryBus } from './memory-bus.js';

const CHANNEL_PREFIX = 'blrms:';

/**
 * Several nodes: every event goes through Redis pub/sub, and each node (the publisher too) delivers
 * it to its local subscribers when it comes back, so all nodes see events in the same way.
 */
export class RedisBus implements Bus {
  private readonly local = new MemoryBus();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;

  private constructor(url: string, log: FastifyBaseLogger) {
    this.publisher = new Redis(url, { lazyConnect: true });
    this.subscriber = new Redis(url, { lazyConnect: true });
    this.subscriber.on('pmessage', (_pattern, channel: string, raw: string) => {
      try {
        const topic = channel.slice(CHANNEL_PREFIX.length) as Topic;
        void this.local.publish(topic, JSON.parse(raw));
      } catch (err) {
        log.warn({ err, channel }, 'ignored malformed bus message');
      }
    });
  }

  static async connect(url: string, log: FastifyBaseLogger): Promise<RedisBus> {
    const bus = new RedisBus(url, log);
    await Promise.all([bus.publisher.connect(), bus.subscriber.connect()]);
    await bus.subscriber.psubscribe(`${CHANNEL_PREFIX}*`);
    return bus;
  }

  async publish<T extends Topic>(topic: T, payload: Parameters<Handler<T>>[0]): Promise<void> {
    await this.publisher.publish(CHANNEL_PREFIX + topic, JSON.stringify(payload));
  }

  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    return this.local.subscribe(topic, handler);
  }

  async close(): Promise<void> {
    await this.local.close();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
