import type { DeviceAgent } from './device-agent.js';
import { describeFaults } from './faults.js';
import { describeCurve } from './telemetry-profile.js';
import type { Fleet, FleetHooks } from './fleet.js';

/** MQTT 3.1.1 CONNACK return codes (§3.2.2.3). */
const CONNACK_MEANINGS: Record<number, string> = {
  1: 'unacceptable protocol version',
  2: 'client identifier rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

/** Refusals printed one by one before they are only counted. */
const REFUSALS_SHOWN = 5;

/**
 * Console output of a running fleet: the first refusals one by one (a wrong token shows at once),
 * then one status line per period.
 */
export function fleetLogHooks(write: (line: string) => void): FleetHooks {
  let shown = 0;
  return {
    refused(agent: DeviceAgent, code: number) {
      if (shown >= REFUSALS_SHOWN) return;
      shown += 1;
      const meaning = CONNACK_MEANINGS[code] ?? 'refused';
      write(
        `${agent.sn}: connection refused, ${meaning} (CONNACK ${code})${shown === REFUSALS_SHOWN ? '; further refusals are only counted' : ''}`,
      );
    },
  };
}

export function reportEvery(fleet: Fleet, periodMs: number, write: (line: string) => void) {
  let previous = fleet.snapshot();
  let previousAt = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const s = fleet.snapshot();
    const seconds = (now - previousAt) / 1000;
    const perSecond = (n: number, before: number) => ((n - before) / seconds).toFixed(1);
    write(
      [
        `online ${s.online}/${s.devices}`,
        `connecting ${s.connecting + s.queued}`,
        `connects ${s.connects}`,
        `refused ${s.refused}`,
        `failed ${s.connectFailures}`,
        `lost ${s.lost}`,
        `dropped ${s.drops}`,
        `telemetry ${s.telemetry} (${perSecond(s.telemetry, previous.telemetry)}/s)`,
        `events ${s.events}`,
        `bad ${s.badPayloads}`,
        `rpc ${s.rpcAnswered}`,
      ].join(' · '),
    );
    if (s.configsApplied + s.configsRefused + s.reboots + s.upgradeJobs + s.upgradesFailed > 0)
      write(
        [
          `  config applied ${s.configsApplied}, refused ${s.configsRefused}`,
          `reboots ${s.reboots}`,
          `upgrade jobs ${s.upgradeJobs}: downloading ${s.downloadsActive}, downloaded ${s.downloads} (${mib(s.downloadBytes)} MiB, ${mib((s.downloadBytes - previous.downloadBytes) / seconds)} MiB/s, ${s.downloadResumes} resumed), upgraded ${s.upgrades}, failed ${s.upgradesFailed}`,
        ].join(' · '),
      );
    previous = s;
    previousAt = now;
  }, periodMs);
  return () => clearInterval(timer);
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The fleet's faulty devices, one line each (the first `limit`, then how many more). */
export function faultLines(fleet: Fleet, limit = 20): string[] {
  const faulty = fleet.faulty();
  const lines = faulty
    .slice(0, limit)
    .map(({ sn, faults }) => `  ${sn}: ${describeFaults(faults)}`);
  if (faulty.length > limit) lines.push(`  … and ${faulty.length - limit} more`);
  return lines;
}

/** The telemetry profile and who follows it (at most `limit` SNs), or nothing without one. */
export function profileLines(fleet: Fleet, limit = 20): string[] {
  const followers = fleet.profiled();
  const curves = followers[0]?.profile?.curves;
  if (!curves) return [];
  const sns = followers.slice(0, limit).map((agent) => agent.sn);
  if (followers.length > limit) sns.push(`… and ${followers.length - limit} more`);
  return [
    `Telemetry profile: ${curves.map(describeCurve).join('; ')}`,
    `  followed by ${followers.length} of ${fleet.agents.length} devices: ${sns.join(', ')}`,
  ];
}
