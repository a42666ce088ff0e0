import { Fleet } from '@blrms/device-sim';
import type { ConnectStorm, SimCommands, SimRequest, SimResponse } from './fleet-sim.js';

/** Child process of `bench/fleet.ts`: hosts the simulated fleet and answers its commands. */

let fleet: Fleet | undefined;
let stormStartedAt = 0;
let latencies: number[] = [];
let perSecond = new Map<number, number>();
let lastConnackAt = 0;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function requireFleet(): Fleet {
  if (!fleet) throw new Error('no fleet: send start first');
  return fleet;
}

async function storm(count: number, timeoutMs: number): Promise<ConnectStorm> {
  const running = requireFleet();
  const deadline = performance.now() + timeoutMs;
  while (running.counters.online < count && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    online: running.counters.online,
    durationMs: lastConnackAt - stormStartedAt,
    peakPerSecond: Math.max(0, ...perSecond.values()),
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    refused: running.counters.refused,
    connectFailures: running.counters.connectFailures,
  };
}

const handlers: { [K in keyof SimCommands]: (args: SimCommands[K]['args']) => unknown } = {
  start({ options }) {
    latencies = [];
    perSecond = new Map();
    stormStartedAt = performance.now();
    fleet = new Fleet(options, {
      connected(_agent, latencyMs) {
        lastConnackAt = performance.now();
        latencies.push(latencyMs);
        const second = Math.floor(Date.now() / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      },
    });
    fleet.start();
    return null;
  },
  storm: ({ count, timeoutMs }) => storm(count, timeoutMs),
  interval({ ms }) {
    requireFleet().setInterval(ms);
    return null;
  },
  snapshot: () => requireFleet().snapshot(),
  drop: ({ count, reconnectAfterMs }) => requireFleet().drop(count, reconnectAfterMs),
  async stop() {
    await fleet?.stop();
    fleet = undefined;
    return null;
  },
};

process.on('message', (request: SimRequest) => {
  const handler = handlers[request.cmd] as (args: unknown) => unknown;
  Promise.resolve()
    .then(() => handler(request.args))
    .then(
      (result) => process.send?.({ id: request.id, result } satisfies SimResponse),
      (error: unknown) =>
        process.send?.({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies SimResponse),
    );
});
process.on('disconnect', () => process.exit(0));
