/** Stored bytes would pass the company's quota; `used` and `limit` are bytes. */
export class StorageQuotaExceededError extends Error {
  override name = 'StorageQuotaExceededError';

  constructor(
    readonly used: number,
    readonly limit: number,
  ) {
    super(`storage quota exceeded: ${used} of ${limit} bytes used`);
  }
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** `1.2 GiB`, `512 KiB`, `900 B`: a size people read (binary units, one decimal below 10). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${UNITS[unit]}`;
}

interface Ledger {
  /** Bytes of uploads of the company being written now. */
  held: number;
  /** Bytes of uploads stored (their rows written) since the ledger opened; only ever grows. */
  committed: number;
  /** Reservations not yet committed or released; the ledger goes when none is left. */
  open: number;
}

/**
 * One upload's claim on its company's quota: every chunk is added before it is written, and the
 * sum of what is stored and what every upload of the company holds on this node must stay within
 * the limit, so two uploads that each fit but not together cannot both finish.
 */
export class StorageReservation {
  private bytes = 0;
  private closed = false;

  constructor(
    private readonly ledger: Ledger,
    private readonly onClose: () => void,
    /** Bytes stored when the reservation opened (from the database). */
    private readonly storedAtOpen: number,
    private readonly committedAtOpen: number,
    /** Null: unlimited. */
    readonly limit: number | null,
  ) {}

  /** Bytes stored now: at the opening, plus uploads of this node that finished since. */
  get stored(): number {
    return this.storedAtOpen + this.ledger.committed - this.committedAtOpen;
  }

  /** Bytes this upload may still add (Infinity when unlimited). */
  get room(): number {
    if (this.limit === null) return Infinity;
    return this.limit - this.stored - this.ledger.held;
  }

  /**
   * Claims `n` more bytes, or throws StorageQuotaExceededError. A refused upload gives its bytes
   * back at once, so that another upload of the company still streaming can use them.
   */
  add(n: number): void {
    if (this.closed) throw this.exceeded();
    if (n > this.room) {
      const error = this.exceeded();
      this.release();
      throw error;
    }
    this.bytes += n;
    this.ledger.held += n;
  }

  /** The refusal, with what is taken: stored, plus what other uploads of the company hold. */
  exceeded(): StorageQuotaExceededError {
    const others = this.ledger.held - this.bytes;
    return new StorageQuotaExceededError(this.stored + others, this.limit ?? 0);
  }

  /** The file is stored and its row written: the database counts it from now on. */
  commit(): void {
    this.close(true);
  }

  /** The upload failed: its bytes are free again. Harmless after commit. */
  release(): void {
    this.close(false);
  }

  private close(stored: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.ledger.held -= this.bytes;
    if (stored) this.ledger.committed += this.bytes;
    this.onClose();
  }
}

/**
 * The uploads in flight, per company, in this process. Across several nodes each node checks its
 * own uploads against the total the database holds: concurrent uploads through different nodes
 * can together pass the quota by at most what they carry at once.
 */
export class StorageReservations {
  private readonly ledgers = new Map<string, Ledger>();

  /**
   * `load` reads the company's stored bytes and its limit (null: unlimited) from the database. The
   * ledger is joined first, so an upload that finishes during the read is counted (perhaps twice,
   * which errs on the safe side) rather than missed.
   */
  async open(
    companyId: string,
    load: () => Promise<{ stored: number; limit: number | null }>,
  ): Promise<StorageReservation> {
    let ledger = this.ledgers.get(companyId);
    if (!ledger) {
      ledger = { held: 0, committed: 0, open: 0 };
      this.ledgers.set(companyId, ledger);
    }
    ledger.open += 1;
    const current = ledger;
    const committedAtOpen = current.committed;
    const leave = () => {
      current.open -= 1;
      if (current.open === 0) this.ledgers.delete(companyId);
    };
    let loaded;
    try {
      loaded = await load();
    } catch (error) {
      leave();
      throw error;
    }
    return new StorageReservation(current, leave, loaded.stored, committedAtOpen, loaded.limit);
  }
}
