import { describe, expect, it } from 'vitest';
import { assignFaults, describeFaults, faultyCount } from './faults.js';
import { Fleet } from './fleet.js';

describe('fault assignment', () => {
  it('counts and shares: whole numbers are devices, numbers below 1 a share rounded up', () => {
    expect(faultyCount('x', 3, 200)).toBe(3);
    expect(faultyCount('x', 0.05, 200)).toBe(10);
    expect(faultyCount('x', 0.001, 200)).toBe(1);
    expect(faultyCount('x', 0, 200)).toBe(0);
    expect(() => faultyCount('x', 1.5, 200)).toThrow(/neither a whole number/);
    expect(() => faultyCount('x', -1, 200)).toThrow(/neither a count/);
  });

  it('gives each fault to distinct devices spread over the fleet', () => {
    const assigned = assignFaults(200, { dropMidDownload: 1, corruptDownload: 1 });
    expect([...assigned.entries()]).toEqual([
      [50, { dropMidDownload: true }],
      [150, { corruptDownload: true }],
    ]);
    const many = assignFaults(10, { refuseUpgrade: 4, rejectConfig: 6 });
    expect(many.size).toBe(10);
    expect(() => assignFaults(3, { refuseUpgrade: 2, dropMidDownload: 2 })).toThrow(
      /4 faulty devices asked for, but the fleet has only 3/,
    );
  });

  it('a fleet combines spread faults, per-device ones and faults by SN, and lists them', () => {
    const fleet = new Fleet({
      url: 'mqtt://127.0.0.1:1',
      token: 't',
      tokenCode: 'FAULTS01',
      count: 4,
      series: ['R40'],
      prefix: 'F',
      intervalMs: 60_000,
      keepaliveSec: 60,
      churn: 0,
      badPayloadRate: 0,
      sourceIps: [],
      connectRate: 100,
      firmware: '1.0.0',
      devices: [{ sn: 'EXTRA', series: 'S27X', fw: '9.9.9', faults: { ignoreRpc: true } }],
      faults: { corruptDownload: 1 },
      faultsBySn: { F000001: { rejectConfig: ['wifi.ssid'] } },
    });
    expect(fleet.agents.map((a) => [a.sn, a.model.series, a.firmware])).toEqual([
      ['F000001', 'R40', '1.0.0'],
      ['F000002', 'R40', '1.0.0'],
      ['F000003', 'R40', '1.0.0'],
      ['F000004', 'R40', '1.0.0'],
      ['EXTRA', 'S27X', '9.9.9'],
    ]);
    expect(fleet.faulty()).toEqual([
      { sn: 'F000001', faults: { rejectConfig: ['wifi.ssid'] } },
      { sn: 'F000003', faults: { corruptDownload: true } },
      { sn: 'EXTRA', faults: { ignoreRpc: true } },
    ]);
    expect(fleet.faulty().map(({ faults }) => describeFaults(faults))).toEqual([
      'refuse config wifi.ssid',
      'corrupt download',
      'ignore commands',
    ]);
    expect(fleet.agent('EXTRA')?.config).toMatchObject({ heartbeatSec: 60, di: [] });
  });
});
