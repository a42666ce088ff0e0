import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepts, freePort, until } from './ports.js';
import { OwnedProcess } from './process.js';

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root)
    ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0]
    : undefined;
  if (!version) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  return join(root, version, 'bin');
}

function uidOf(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
  return { uid, gid };
}

/**
 * A PostgreSQL server of the suite's own: `initdb` into a temporary directory, run as the
 * `postgres` user on a free port, so a test can stop it and start it again without touching the
 * machine's shared server. `remove()` stops it and deletes the directory.
 */
export class PostgresInstance {
  private process: OwnedProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
    private readonly owner: { uid: number; gid: number },
  ) {}

  static async create(): Promise<PostgresInstance> {
    const bin = postgresBin();
    const owner = uidOf('postgres');
    const dir = mkdtempSync(join(tmpdir(), 'blrms-fault-pg-'));
    chmodSync(dir, 0o700);
    chownSync(dir, owner.uid, owner.gid);
    execFileSync(
      join(bin, 'initdb'),
      ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'],
      { uid: owner.uid, gid: owner.gid, stdio: 'pipe', cwd: dir },
    );
    const instance = new PostgresInstance(await freePort(), dir, bin, owner);
    await instance.start();
    return instance;
  }

  /** `postgres://postgres@127.0.0.1:{port}/postgres` (trust authentication). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get running(): boolean {
    return this.process?.running ?? false;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.process = new OwnedProcess(
      join(this.bin, 'postgres'),
      [
        '-D',
        join(this.dir, 'data'),
        '-p',
        String(this.port),
        '-k',
        this.dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'max_connections=100',
      ],
      { uid: this.owner.uid, gid: this.owner.gid, cwd: this.dir },
    );
    const started = this.process;
    await until(async () => {
      if (!started.running) throw new Error(`postgres exited:\n${started.log}`);
      return accepts(this.port);
    }, `PostgreSQL on ${this.port}`);
    // Accepting TCP comes a moment before accepting queries (startup recovery).
    await until(() => {
      try {
        execFileSync(join(this.bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(this.port)]);
        return true;
      } catch {
        return false;
      }
    }, `PostgreSQL on ${this.port} ready`);
  }

  /** Fast shutdown (SIGINT): sessions are ended, new connections refused. */
  async stop(): Promise<void> {
    await this.process?.stop('SIGINT');
    this.process = null;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
