/** How long a lookup may wait for others, and how many keys one fetch takes at most. */
export interface BatchedLookupOptions {
  waitMs: number;
  maxKeys: number;
}

/**
 * What modules reading per device when devices come online use: a storm brings thousands a second.
 * These reads come after the CONNACK (the device's boot report, its coming online), where 20 ms
 * adds nothing a device would notice; at 5 ms a 19,000-device storm made three times as many
 * statements, each a round trip (on PostgreSQL a write to a backend's socket, which wakes it on a
 * machine the server shares: bench/README.md, "Fewer, larger batches of presence and lookups").
 */
export const DEVICES_COMING_ONLINE: BatchedLookupOptions = { waitMs: 20, maxKeys: 500 };

/** When a batch goes: as soon as it holds `maxKeys`, or `waitMs` after its first key. */
class BatchWindow {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: BatchedLookupOptions,
    private readonly flush: () => void,
  ) {}

  /** A key joined the batch, which now holds `size`. */
  added(size: number): void {
    if (size >= this.options.maxKeys) this.flush();
    else this.timer ??= setTimeout(this.flush, this.options.waitMs);
  }

  /** The batch was taken: the next key starts a new wait. */
  taken(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the lookups asked for within `waitMs` (or until `maxKeys` keys) into one `fetch` of
 * them all. A storm of devices coming online asks the same question of each one; one statement
 * for a batch costs about what one statement for one device did (on PostgreSQL it also takes one
 * pool connection instead of one per device). Each lookup is answered by a fetch that starts
 * after it was asked, so it sees everything written before it, as a query of its own would.
 */
export class BatchedLookup<K, V> {
  private waiting = new Map<K, Waiter<V>[]>();
  private readonly window: BatchWindow;

  /** `fetch` answers the keys it found; a key it leaves out is answered `undefined`. */
  constructor(
    private readonly fetch: (keys: K[]) => Promise<Map<K, V>>,
    options: BatchedLookupOptions,
  ) {
    this.window = new BatchWindow(options, () => this.flush());
  }

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.window.added(this.waiting.size);
    });
  }

  private flush(): void {
    this.window.taken();
    const batch = this.waiting;
    this.waiting = new Map();
    this.fetch([...batch.keys()]).then(
      (found) => {
        for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
      },
    );
  }
}

interface PendingWrite<I, V> extends Waiter<V> {
  input: I;
}

/**
 * The writes asked for within `waitMs` (or until `maxKeys`), done by one `write` of them all: a
 * storm of new devices writes a row each, and one statement for the batch costs about what one
 * for a single row did (on SQLite one commit instead of one per row; on PostgreSQL one round trip
 * and one WAL flush). Batches are written one after another, never two at once. Unlike a lookup,
 * a key written again while its first write waits goes into the next batch, so that each write
 * is done with its own input, in the order they were asked.
 */
export class BatchedWrites<K, I, V> {
  private waiting = new Map<K, PendingWrite<I, V>>();
  private again: [K, PendingWrite<I, V>][] = [];
  private readonly window: BatchWindow;
  private written: Promise<void> = Promise.resolve();

  /** `write` answers the keys it wrote; a key it leaves out is answered `undefined`. */
  constructor(
    private readonly write: (inputs: Map<K, I>) => Promise<Map<K, V>>,
    options: BatchedLookupOptions,
  ) {
    this.window = new BatchWindow(options, () => this.flush());
  }

  put(key: K, input: I): Promise<V | undefined> {
    return new Promise((resolve, reject) => this.enqueue(key, { input, resolve, reject }));
  }

  private enqueue(key: K, pending: PendingWrite<I, V>): void {
    if (this.waiting.has(key)) this.again.push([key, pending]);
    else this.waiting.set(key, pending);
    this.window.added(this.waiting.size);
  }

  private flush(): void {
    this.window.taken();
    const batch = this.waiting;
    this.waiting = new Map();
    const inputs = new Map([...batch].map(([key, pending]) => [key, pending.input]));
    this.written = this.written.then(() =>
      this.write(inputs).then(
        (written) => {
          for (const [key, pending] of batch) pending.resolve(written.get(key));
        },
        (error: unknown) => {
          for (const pending of batch.values()) pending.reject(error);
        },
      ),
    );
    const again = this.again;
    this.again = [];
    for (const [key, pending] of again) this.enqueue(key, pending);
  }
}
