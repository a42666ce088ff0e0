import { connect, createServer } from 'node:net';

/** A TCP port nobody listens on right now (the machine's shared services hold the standard ones). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? ok(address.port) : fail()));
    });
  });
}

/** Whether something accepts TCP connections on the port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `check` holds; fails naming what it waited for. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
