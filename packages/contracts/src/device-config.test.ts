import { describe, expect, it } from 'vitest';
import {
  CONFIG_DEFAULTS,
  SECRET_MASK,
  SECRET_PATHS,
  configPatchProblem,
  maskSecrets,
  withoutMaskedSecrets,
  type TR40Config,
} from './device-config.js';
import { ZConfigDownPayload, configAfter } from './device-protocol.js';

const R40 = CONFIG_DEFAULTS.R40 as TR40Config;

describe('secret fields', () => {
  it('are the passwords of every series, read from the schemas', () => {
    expect(SECRET_PATHS).toEqual({
      R40: ['wan.apnPassword', 'wifi.password'],
      BL10X: ['mqtt.password'],
      S27X: [],
    });
  });

  it('are masked when set, left empty when empty, in a whole configuration or part of one', () => {
    const config = { ...R40, wan: { ...R40.wan, apnPassword: 'apn-secret' } };
    expect(maskSecrets('R40', config)).toEqual({
      ...R40,
      wan: { ...R40.wan, apnPassword: SECRET_MASK },
      wifi: { ...R40.wifi, password: SECRET_MASK },
    });
    expect(maskSecrets('R40', R40).wan).toEqual(R40.wan);
    expect(maskSecrets('R40', { wifi: { ssid: 'a' } })).toEqual({ wifi: { ssid: 'a' } });
    expect(maskSecrets('R40', null)).toBeNull();
  });

  it('sent back masked are left out of an edit, so that merging it keeps them', () => {
    const edit = { wifi: { ssid: 'b', password: SECRET_MASK }, heartbeatSec: 30 };
    expect(withoutMaskedSecrets('R40', edit)).toEqual({ wifi: { ssid: 'b' }, heartbeatSec: 30 });
    expect(withoutMaskedSecrets('R40', { wifi: { password: 'new-secret' } })).toEqual({
      wifi: { password: 'new-secret' },
    });
  });
});

describe('configPatchProblem: part of a configuration, checked field by field', () => {
  it('accepts fields left out, and names the first bad or unknown one', () => {
    expect(configPatchProblem('R40', { heartbeatSec: 120, wifi: { ssid: 'x' } })).toBeNull();
    expect(configPatchProblem('R40', { wifi: { channel: 99 } })).toMatch(/^wifi\.channel: /);
    expect(configPatchProblem('R40', { wifi: { radio: 'on' } })).toBe('wifi.radio: unknown field');
    expect(configPatchProblem('R40', { telnet: true })).toBe('telnet: unknown field');
    // A merge patch's null would remove a field every device needs.
    expect(configPatchProblem('R40', { heartbeatSec: null })).toMatch(/^heartbeatSec: /);
  });

  it('checks a list whole, as a patch replaces it', () => {
    expect(configPatchProblem('S27X', { ai: [{ channel: 1, low: 5, high: 1 }] })).toMatch(
      /^ai\.0\.low: /,
    );
    expect(configPatchProblem('S27X', { ai: [{ channel: 1 }] })).toMatch(/^ai\.0\./);
  });
});

describe('down/config', () => {
  it('carries a whole configuration or a patch, never both', () => {
    expect(ZConfigDownPayload.safeParse({ version: 1, config: R40 }).success).toBe(true);
    expect(ZConfigDownPayload.safeParse({ version: 1, patch: { heartbeatSec: 9 } }).success).toBe(
      true,
    );
    expect(ZConfigDownPayload.safeParse({ version: 1, config: R40, patch: {} }).success).toBe(
      false,
    );
  });

  it('is taken whole, or merged into what the device runs', () => {
    expect(configAfter(R40, { version: 2, config: { heartbeatSec: 5 } })).toEqual({
      heartbeatSec: 5,
    });
    expect(configAfter(R40, { version: 2, patch: { wifi: { ssid: 'x' } } })).toEqual({
      ...R40,
      wifi: { ...R40.wifi, ssid: 'x' },
    });
  });
});
