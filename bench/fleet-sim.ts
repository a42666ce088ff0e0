import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FleetOptions, FleetSnapshot } from '@blrms/device-sim';

/**
 * The simulated fleet of `bench/fleet.ts` runs in a child process of its own
 * (`fleet-sim-worker.ts`), so that its event loop, busy with tens of thousands of sockets, does not
 * delay the clocks of the process that measures. This side sends commands and awaits answers.
 */

export type SimFleetOptions = Omit<FleetOptions, 'random'>;

export interface ConnectStorm {
  /** Devices online when the storm ended (all of them unless it timed out). */
  online: number;
  /** From the first connection attempt to the last CONNACK needed. */
  durationMs: number;
  /** Most CONNACKs within one wall-clock second. */
  peakPerSecond: number;
  /** Socket opened → CONNACK, per device. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  refused: number;
  connectFailures: number;
}

export interface SimCommands {
  start: { args: { options: SimFleetOptions }; result: null };
  /** Resolves when `count` devices are online, or at the timeout. */
  storm: { args: { count: number; timeoutMs: number }; result: ConnectStorm };
  interval: { args: { ms: number }; result: null };
  snapshot: { args: Record<string, never>; result: FleetSnapshot };
  drop: {
    args: { count: number; reconnectAfterMs: number };
    result: { sn: string; at: number }[];
  };
  stop: { args: Record<string, never>; result: null };
}

export type SimRequest = {
  [K in keyof SimCommands]: { id: number; cmd: K; args: SimCommands[K]['args'] };
}[keyof SimCommands];

export type SimResponse = { id: number; result: unknown } | { id: number; error: string };

const WORKER = fileURLToPath(new URL('./fleet-sim-worker.ts', import.meta.url));

export class SimProcess {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();

  constructor() {
    this.child = fork(WORKER, [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: SimResponse) => {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (!waiter) return;
      if ('error' in message) waiter.reject(new Error(`simulator: ${message.error}`));
      else waiter.resolve(message.result);
    });
    this.child.on('exit', (code) => {
      for (const waiter of this.waiting.values())
        waiter.reject(new Error(`simulator exited (${code})`));
      this.waiting.clear();
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  send<K extends keyof SimCommands>(
    cmd: K,
    args: SimCommands[K]['args'],
  ): Promise<SimCommands[K]['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, cmd, args });
    });
  }

  /** Stops the fleet politely, then the process. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.send('stop', {}).catch(() => undefined);
    this.child.disconnect();
    await exited;
  }
}
