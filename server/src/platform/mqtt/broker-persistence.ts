import { createRequire } from 'node:module';
import type AsyncMemoryPersistence from 'aedes-persistence/types/asyncPersistence.js';

// The promise-based class itself, not the package's default export, which wraps it in a
// callback layer that turns every stream into a second stream.
const MemoryPersistence = createRequire(import.meta.url)(
  'aedes-persistence/asyncPersistence.js',
) as typeof AsyncMemoryPersistence;

type AedesPacket = Parameters<AsyncMemoryPersistence['storeRetained']>[0];

/**
 * The embedded broker's state: Aedes' in-memory persistence, which also knows what it has never
 * held. Aedes builds a stream pipeline for every CONNECT to send what was queued for the client
 * while it was away, and a retained-message stream for every SUBSCRIBE; in a connect storm of
 * clean sessions, which have neither, those streams and the default persistence's callback
 * wrapper were a fifth of the server's CPU (bench/README.md). Our patch of Aedes
 * (`patches/aedes+1.2.0.patch`) asks these two questions first and skips the streams when the
 * answer is no.
 *
 * Both answers err on the side of "maybe": a client id stays in `queuedFor` after its queue is
 * emptied, and a retained message stored once keeps `retainedStored` set. Only persistent
 * sessions (clean = false) get messages queued, and this server stores no retained messages
 * (uplinks are forced to non-retained, downlinks are sent non-retained).
 */
export class BrokerPersistence extends MemoryPersistence {
  private readonly queuedFor = new Set<string>();
  private retainedStored = false;

  /** Whether anything may be queued for this client id (read by the patched CONNECT handler). */
  mayHaveQueued(clientId: string): boolean {
    return this.queuedFor.has(clientId);
  }

  /** Whether any retained message may be held (read by the patched SUBSCRIBE handler). */
  mayHaveRetained(): boolean {
    return this.retainedStored;
  }

  override storeRetained(packet: AedesPacket): Promise<void> {
    this.retainedStored = true;
    return super.storeRetained(packet);
  }

  override outgoingEnqueue(sub: { clientId: string }, packet: AedesPacket): Promise<void> {
    this.queuedFor.add(sub.clientId);
    return super.outgoingEnqueue(sub, packet);
  }

  override outgoingEnqueueCombi(subs: { clientId: string }[], packet: AedesPacket): Promise<void> {
    for (const sub of subs) this.queuedFor.add(sub.clientId);
    return super.outgoingEnqueueCombi(subs, packet);
  }
}
