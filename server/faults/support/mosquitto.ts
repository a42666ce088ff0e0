import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepts, freePort, until } from './ports.js';
import { OwnedProcess } from './process.js';

/** A Mosquitto broker of the suite's own on a free port (anonymous, loopback only). */
export class MosquittoInstance {
  private process: OwnedProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async create(): Promise<MosquittoInstance> {
    const dir = mkdtempSync(join(tmpdir(), 'blrms-fault-mqtt-'));
    const port = await freePort();
    writeFileSync(
      join(dir, 'mosquitto.conf'),
      `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`,
    );
    const instance = new MosquittoInstance(port, dir);
    await instance.start();
    return instance;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.process?.running) return;
    this.process = new OwnedProcess('mosquitto', ['-c', join(this.dir, 'mosquitto.conf')]);
    const started = this.process;
    await until(async () => {
      if (!started.running) throw new Error(`mosquitto exited:\n${started.log}`);
      return accepts(this.port);
    }, `Mosquitto on ${this.port}`);
  }

  async stop(): Promise<void> {
    await this.process?.stop('SIGTERM');
    this.process = null;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
