import { accepts, freePort, until } from './ports.js';
import { OwnedProcess } from './process.js';

/**
 * A Redis server of the suite's own on a free port (no persistence). `stop()` makes it refuse
 * connections; `freeze()` makes it accept and never answer, as a hung server does.
 */
export class RedisInstance {
  private process: OwnedProcess | null = null;

  private constructor(readonly port: number) {}

  static async create(): Promise<RedisInstance> {
    const instance = new RedisInstance(await freePort());
    await instance.start();
    return instance;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.process?.running) return;
    this.process = new OwnedProcess('redis-server', [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    const started = this.process;
    await until(async () => {
      if (!started.running) throw new Error(`redis-server exited:\n${started.log}`);
      return accepts(this.port);
    }, `Redis on ${this.port}`);
  }

  async stop(): Promise<void> {
    await this.process?.stop('SIGTERM');
    this.process = null;
  }

  freeze(): void {
    this.process?.child.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.child.kill('SIGCONT');
  }

  async remove(): Promise<void> {
    this.thaw();
    await this.stop();
  }
}
