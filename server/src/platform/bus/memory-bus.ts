import { EventEmitter } from 'node:events';
import type { Bus, Handler, Topic } from './bus.js';

/** One process: events go to this process's subscribers only. */
export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter();
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
