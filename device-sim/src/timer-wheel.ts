/**
 * One clock for a whole fleet. Tens of thousands of devices each with their own `setTimeout`
 * (telemetry, keepalive, reconnect) cost a timer object and a heap operation apiece; a hashed
 * wheel files every callback into a slot of a fixed ring and one interval walks the ring. A
 * callback runs within one tick (10 ms by default) after its due time.
 */

interface WheelEntry {
  run: () => void;
  /** Full turns of the ring still to wait once the entry's slot comes round. */
  rounds: number;
  cancelled: boolean;
}

export interface WheelTimer {
  cancel(): void;
}

export class TimerWheel {
  private readonly slots: WheelEntry[][];
  private cursor = 0;
  private ticksDone = 0;
  private startedAt = 0;
  private interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly tickMs = 10,
    slotCount = 4096,
  ) {
    this.slots = Array.from({ length: slotCount }, () => []);
  }

  /** Runs `run` once, `delayMs` from now (at least one tick). */
  schedule(delayMs: number, run: () => void): WheelTimer {
    // While catching up, the cursor is behind the clock: count from the clock, or a callback that
    // reschedules itself would run again within the same catch-up, as often as it was late.
    const behind = this.interval ? Math.max(0, this.clockTicks() - this.ticksDone) : 0;
    const ticks = behind + Math.max(1, Math.ceil(delayMs / this.tickMs));
    const entry: WheelEntry = {
      run,
      rounds: Math.floor((ticks - 1) / this.slots.length),
      cancelled: false,
    };
    this.slots[(this.cursor + ticks) % this.slots.length]?.push(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  start(): void {
    if (this.interval) return;
    this.startedAt = performance.now();
    this.ticksDone = 0;
    this.interval = setInterval(() => this.catchUp(), this.tickMs);
  }

  stop(): void {
    clearInterval(this.interval);
    this.interval = undefined;
  }

  /**
   * Advances as many ticks as wall time says have passed: when the event loop was busy for
   * 200 ms, the 20 slots it missed all run now instead of drifting later and later.
   */
  private catchUp(): void {
    const due = this.clockTicks();
    while (this.ticksDone < due) {
      this.ticksDone += 1;
      this.advance();
    }
  }

  private clockTicks(): number {
    return Math.floor((performance.now() - this.startedAt) / this.tickMs);
  }

  private advance(): void {
    this.cursor = (this.cursor + 1) % this.slots.length;
    const entries = this.slots[this.cursor] ?? [];
    this.slots[this.cursor] = [];
    const waiting = this.slots[this.cursor] ?? [];
    for (const entry of entries) {
      if (entry.cancelled) continue;
      if (entry.rounds > 0) {
        entry.rounds -= 1;
        waiting.push(entry);
      } else {
        entry.run();
      }
    }
  }
}
