/**
 * Runs work one at a time per key, in the order it was queued, and different keys side by side.
 * The gateway hands a device's messages over without waiting for each to be handled; a module
 * whose handling of one message depends on the one before (a report, then a reconnect) queues
 * them by device so that they cannot overtake each other.
 */
export class KeyedQueue {
  /** The tail of each key's work; removed once the key has nothing left. */
  private readonly tails = new Map<string, Promise<void>>();

  run(key: string, work: () => Promise<void>): Promise<void> {
    const run = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
