import { describe, expect, it } from 'vitest';
import { DeviceAbuse, type AbuseSummary } from './device-abuse.service.js';

const device = (n: number) => ({
  id: `device-${n}`,
  companyId: 'company',
  sn: `SN${n}`,
  address: `CODE:SN${n}`,
});

function abuse(options = { eventsPerWindow: 3, windowMs: 60_000, maxDevices: 2 }) {
  const clock = { now: 0 };
  const summaries: AbuseSummary[] = [];
  const limits = new DeviceAbuse(
    () => clock.now,
    (s) => summaries.push(s),
    options,
  );
  return { limits, clock, summaries };
}

describe('DeviceAbuse', () => {
  it('shares one budget of recorded events per device and window, whatever the kind', () => {
    const { limits } = abuse();
    const d = device(1);
    expect(limits.note(d, 'malformed-payload')).toEqual({ record: true, count: 1 });
    expect(limits.note(d, 'takeover')).toEqual({ record: true, count: 1 });
    expect(limits.note(d, 'malformed-payload')).toEqual({ record: true, count: 2 });
    expect(limits.note(d, 'malformed-payload')).toEqual({ record: false, count: 3 });
    // Counted only, never recorded: no part of the budget.
    expect(limits.note(d, 'bad-payload-disconnect')).toEqual({ record: false, count: 1 });
    // Another device has its own.
    expect(limits.note(device(2), 'malformed-payload')).toEqual({ record: true, count: 1 });
    limits.close();
  });

  it('summarises a window that ended with offences not recorded, once, and starts afresh', () => {
    const { limits, clock, summaries } = abuse();
    const d = device(1);
    for (let i = 0; i < 5; i += 1) limits.note(d, 'malformed-payload');
    clock.now = 59_999;
    limits.sweep();
    expect(summaries).toEqual([]);
    clock.now = 60_000;
    expect(limits.note(d, 'malformed-payload')).toEqual({ record: true, count: 1 });
    expect(summaries).toEqual([
      { device: d, since: 0, counts: { 'malformed-payload': 5 }, notRecorded: 2 },
    ]);
    clock.now = 120_000;
    limits.sweep();
    // Everything of the second window was recorded: nothing to summarise.
    expect(summaries).toHaveLength(1);
    limits.close();
  });

  it('stays bounded: past maxDevices the device quiet the longest is summarised and forgotten', () => {
    const { limits, summaries } = abuse({ eventsPerWindow: 1, windowMs: 60_000, maxDevices: 2 });
    limits.note(device(1), 'malformed-payload');
    limits.note(device(1), 'malformed-payload');
    limits.note(device(2), 'malformed-payload');
    limits.note(device(1), 'malformed-payload');
    // Device 2 was quiet the longest (device 1 acted after it): forgotten, nothing to summarise.
    limits.note(device(3), 'malformed-payload');
    expect(summaries.map((s) => s.device.id)).toEqual([]);
    limits.note(device(4), 'malformed-payload');
    limits.note(device(5), 'malformed-payload');
    expect(summaries.map((s) => [s.device.id, s.notRecorded])).toEqual([['device-1', 2]]);
    limits.close();
  });

  it('summarises repeated disconnects even when every event was recorded', () => {
    const { limits, summaries } = abuse();
    limits.note(device(1), 'bad-payload-disconnect');
    limits.note(device(1), 'bad-payload-disconnect');
    limits.close();
    expect(summaries).toEqual([
      {
        device: device(1),
        since: 0,
        counts: { 'bad-payload-disconnect': 2 },
        notRecorded: 0,
      },
    ]);
  });
});
