// Preloaded into the server by `bench/fleet.ts --cpu-prof <dir>` (NODE_OPTIONS=--import; node
// refuses --cpu-prof there): SIGUSR2 starts a V8 CPU profile, the next SIGUSR2 writes it to
// <dir>/server-<pid>-<n>.cpuprofile, so that each storm (connect, telemetry, reconnect) gets a
// profile of its own.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR ?? '.';
const session = new Session();
session.connect();
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.enable');
let running = false;
let written = 0;

process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.start');
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (error) throw error;
    written += 1;
    const file = path.join(dir, `server-${process.pid}-${written}.cpuprofile`);
    writeFileSync(file, JSON.stringify(result.profile));
  });
});
