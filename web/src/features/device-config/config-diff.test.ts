import { CONFIG_DEFAULTS } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { compareConfigs } from './config-diff';
import { configFields } from './config-fields';

const fields = configFields('R40');
const desired = {
  ...CONFIG_DEFAULTS.R40,
  wan: { ...(CONFIG_DEFAULTS.R40.wan as object), apn: 'iot.example' },
  heartbeatSec: 30,
};

describe('compareConfigs: desired and reported side by side', () => {
  it('marks exactly the fields that differ, in the schema’s order', () => {
    const rows = compareConfigs(fields, desired, CONFIG_DEFAULTS.R40);
    expect(rows.filter((r) => r.differs).map((r) => [r.path, r.reported, r.desired])).toEqual([
      ['wan.apn', 'cmnet', 'iot.example'],
      ['heartbeatSec', 60, 30],
    ]);
    expect(rows.map((r) => r.path).slice(0, 3)).toEqual(['wan.mode', 'wan.apn', 'wan.apnUser']);
  });

  it('marks nothing while either side is missing', () => {
    expect(compareConfigs(fields, null, CONFIG_DEFAULTS.R40).some((r) => r.differs)).toBe(false);
    expect(compareConfigs(fields, desired, null).some((r) => r.differs)).toBe(false);
  });

  it('adds the keys only the device reports, after the schema’s fields', () => {
    const rows = compareConfigs(fields, desired, { ...desired, vendor: { led: 'on' } });
    expect(rows.at(-1)).toEqual({
      path: 'vendor',
      field: null,
      desired: undefined,
      reported: { led: 'on' },
      // Nothing the platform set: no difference to act on.
      differs: false,
    });
  });

  it('compares only the fields both sides have: what the platform did not set is no difference', () => {
    const rows = compareConfigs(fields, { heartbeatSec: 30 }, CONFIG_DEFAULTS.R40);
    expect(rows.filter((r) => r.differs).map((r) => r.path)).toEqual(['heartbeatSec']);
    const unknown = compareConfigs(fields, { heartbeatSec: 30 }, { heartbeatSec: 30 });
    expect(unknown.find((r) => r.path === 'wan.apn')).toMatchObject({
      desired: undefined,
      reported: undefined,
      differs: false,
    });
  });

  it('compares a list whole', () => {
    const s27x = configFields('S27X');
    const a = { ...CONFIG_DEFAULTS.S27X, di: [{ channel: 1, alarm: 'open' }] };
    const b = { ...CONFIG_DEFAULTS.S27X, di: [{ channel: 1, alarm: 'close' }] };
    expect(
      compareConfigs(s27x, a, b)
        .filter((r) => r.differs)
        .map((r) => r.path),
    ).toEqual(['di']);
  });
});
