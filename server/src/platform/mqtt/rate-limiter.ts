/** New connections allowed per source address: `perSecond` on average, `burst` at once. */
export interface ConnectRateLimit {
  perSecond: number;
  burst: number;
}

/**
 * Generous enough for a gateway that reconnects hundreds of devices behind one NAT address, and
 * for the fleet benchmark; a burst of 10,000 connects from one address is mostly refused at once.
 */
export const DEFAULT_CONNECT_RATE_LIMIT: ConnectRateLimit = { perSecond: 200, burst: 1000 };

/**
 * A token bucket per source address. Checked when the socket is accepted, before any MQTT state
 * exists for it, so a refused connection costs almost nothing.
 */
export class ConnectRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: ConnectRateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(address: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(address);
    if (!bucket) {
      this.buckets.set(address, { tokens: this.limit.burst - 1, at: now });
      return this.limit.burst >= 1;
    }
    bucket.tokens = Math.min(
      this.limit.burst,
      bucket.tokens + ((now - bucket.at) * this.limit.perSecond) / 1000,
    );
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets addresses whose bucket has filled up again: a new bucket would start full anyway. */
  prune(): void {
    const now = this.now();
    for (const [address, bucket] of this.buckets) {
      const tokens = bucket.tokens + ((now - bucket.at) * this.limit.perSecond) / 1000;
      if (tokens >= this.limit.burst) this.buckets.delete(address);
    }
  }
}
