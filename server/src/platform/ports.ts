import { createServer } from 'node:net';

export interface PortClaim {
  /** The configuration variable that chose the port, for the message. */
  variable: string;
  port: number;
  host: string;
  /** What to do instead, when the port is taken. */
  hint: string;
}

/** Whether the port can be listened on now: null when free, else why not. */
function probe(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/**
 * The ports the server will listen on, checked before anything is created: a first start that
 * cannot listen must not have made the admin account and shown its one-time password. Returns
 * one line per port that cannot be used (empty when all are free).
 */
export async function unusablePorts(claims: PortClaim[]): Promise<string[]> {
  const problems: string[] = [];
  for (const claim of claims) {
    const code = await probe(claim.port, claim.host);
    if (code === null) continue;
    const why =
      code === 'EADDRINUSE'
        ? 'is in use by another program'
        : code === 'EACCES'
          ? 'needs privileges this process does not have'
          : code === 'EADDRNOTAVAIL'
            ? `cannot be opened: ${claim.host} is not an address of this machine`
            : `cannot be opened (${code})`;
    problems.push(`${claim.variable} ${claim.port} ${why}: ${claim.hint}`);
  }
  return problems;
}
