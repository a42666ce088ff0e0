import { DEVICE_SERIES, ZEventPayload, ZTelemetryPayload } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { R40_WEAK_SIGNAL_DBM, createDeviceModel, type Random } from './device-models.js';

/** mulberry32: the same sequence every run, so a failure can be replayed. */
function seeded(seed: number): Random {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('device models', () => {
  it.each(DEVICE_SERIES)('%s reports values and events the protocol accepts', (series) => {
    const model = createDeviceModel(series, seeded(7));
    for (let i = 0; i < 2000; i++) {
      const { values, events } = model.step();
      ZTelemetryPayload.parse({ ts: Date.now(), values });
      for (const event of events) ZEventPayload.parse({ ts: Date.now(), ...event });
      expect(Number.isInteger(model.signal())).toBe(true);
    }
  });

  it('R40 warns when its signal drops below the threshold, once per drop', () => {
    const model = createDeviceModel('R40', seeded(1));
    let weak = false;
    let warnings = 0;
    for (let i = 0; i < 5000; i++) {
      const { values, events } = model.step();
      const warned = events.some((e) => e.code === 'signal_weak' && e.level === 'warn');
      if (warned) {
        expect(weak).toBe(false);
        expect(values.signal).toBeLessThanOrEqual(R40_WEAK_SIGNAL_DBM);
        warnings += 1;
        weak = true;
      }
      if (events.some((e) => e.code === 'signal_restored')) weak = false;
    }
    expect(warnings).toBeGreaterThan(0);
  });

  it('S27X raises an alarm when an input turns on and a recovery when it turns off', () => {
    const model = createDeviceModel('S27X', seeded(3));
    let previous = model.step().values;
    let alarms = 0;
    for (let i = 0; i < 1000; i++) {
      const { values, events } = model.step();
      for (const n of [1, 2, 3, 4]) {
        const key = `di${n}`;
        const changed = values[key] !== previous[key];
        const event = events.find((e) => e.code.startsWith(`di${n}_`));
        expect(Boolean(event)).toBe(changed);
        if (event) {
          expect(event.level).toBe(values[key] === 1 ? 'alarm' : 'recovery');
          if (event.level === 'alarm') alarms += 1;
        }
      }
      previous = values;
    }
    expect(alarms).toBeGreaterThan(10);
  });
});
