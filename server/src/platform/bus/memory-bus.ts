import { EventEmitter } from 'node:events';
import type { Bus, Handler, Topic } from './bus.js';

/**
 * Node warns of a leak beyond this many listeners of one topic. The services subscribe once each
 * (ten of them to `bus.resumed` already, Node's default limit); more than this would mean
 * something subscribing per request or connection without unsubscribing.
 */
const SUBSCRIBERS_PER_TOPIC_WARNING = 100;

/** One process: events go to this process's subscribers only. */
export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter().setMaxListeners(SUBSCRIBERS_PER_TOPIC_WARNING);
  /** There are no other nodes to lose touch with. */
  readonly connected = true;

  async publish<T extends Topic>(topic: T, payload: Parameters<Handler<T>>[0]): Promise<void> {
    this.emitter.emit(topic, payload);
  }

  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    this.emitter.on(topic, handler);
    return () => this.emitter.off(topic, handler);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
