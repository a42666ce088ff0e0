import { Fleet } from './fleet.js';
import { faultLines, fleetLogHooks, profileLines, reportEvery } from './fleet-report.js';
import { USAGE, UsageError, parseSimArgs } from './args.js';

/** `npm run sim -- --token <key> ...`: runs a fleet until Ctrl-C. */

const write = (line: string) => process.stdout.write(`${line}\n`);

let parsed;
try {
  parsed = parseSimArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`device-sim: ${error.message}\nRun with --help for the options.\n`);
  process.exit(2);
}
if (parsed.help) {
  write(USAGE);
  process.exit(0);
}

const { options } = parsed;
const fleet = new Fleet(options, fleetLogHooks(write));
write(
  `${options.count} devices (${options.series.join(', ')}) → ${options.url.join(', ')}, ${options.connectRate} connects/s, telemetry every ${options.intervalMs / 1000} s. Ctrl-C stops.`,
);
const faulty = faultLines(fleet);
if (faulty.length) write(`Faulty devices:\n${faulty.join('\n')}`);
for (const line of profileLines(fleet)) write(line);
fleet.start();
const stopReport = reportEvery(fleet, 10_000, write);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  stopReport();
  write('disconnecting…');
  void fleet.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
