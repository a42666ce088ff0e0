import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * A child process the suite started and therefore may stop. Its output is kept (bounded) for the
 * failure message; every instance is ended when the test file ends, even after a failed test.
 */
export class OwnedProcess {
  private output = '';
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], options: SpawnOptions = {}) {
    this.child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-200_000);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    live.add(this);
    void this.exited.then(() => live.delete(this));
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything the process printed so far (the last 200 kB). */
  get log(): string {
    return this.output;
  }

  /** Sends the signal and waits for the exit (SIGKILL after `graceMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** `kill -9`: the process gets no chance to clean up. */
  async kill(): Promise<void> {
    await this.stop('SIGKILL');
  }
}

const live = new Set<OwnedProcess>();

/** Ends every process the suite still owns (an `afterAll` safety net). */
export async function stopAllOwned(): Promise<void> {
  await Promise.all([...live].map((p) => p.kill()));
}

process.once('exit', () => {
  for (const p of live) p.child.kill('SIGKILL');
});
