import {
  CONFIG_DEFAULTS,
  DEVICE_SERIES,
  SECRET_MASK,
  maskSecrets,
  mergePatch,
  type TDeviceConfigState,
} from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import type { ConfigField } from './config-fields';
import {
  allFields,
  configFields,
  editValuesOf,
  formNameOf,
  formValuesOf,
  isWholeConfig,
  knownConfigOf,
  newListRow,
  patchOf,
  valueFields,
} from './config-fields';

/** A field tree as `path kind` lines, with what each kind needs to render. */
function shape(fields: ConfigField[]): string[] {
  return allFields(fields).map((f) => {
    switch (f.kind) {
      case 'select':
        return `${f.path} select ${f.options.join('|')}`;
      case 'number':
        return `${f.path} ${f.integer ? 'integer' : 'number'} ${f.min}..${f.max}`;
      case 'text':
        return `${f.path} ${f.password ? 'password' : 'text'} ≤${f.maxLength ?? '-'}`;
      case 'tags':
        return `${f.path} tags ≤${f.maxItems}`;
      case 'list':
        return `${f.path} list ≤${f.maxItems}`;
      default:
        return `${f.path} ${f.kind}`;
    }
  });
}

describe('configFields: the form read from the JSON Schema', () => {
  it('maps R40: sections, enum select, switches, password inputs, integer ranges', () => {
    expect(shape(configFields('R40'))).toEqual([
      'wan section',
      'wan.mode select lte|dhcp|static',
      'wan.apn text ≤63',
      'wan.apnUser text ≤63',
      'wan.apnPassword password ≤63',
      'lan section',
      'lan.ip text ≤-',
      'lan.netmask text ≤-',
      'lan.dhcp switch',
      'lan.dhcpStart text ≤-',
      'lan.dhcpEnd text ≤-',
      'wifi section',
      'wifi.enabled switch',
      'wifi.ssid text ≤32',
      'wifi.password password ≤63',
      'wifi.channel integer 0..13',
      'heartbeatSec integer 10..3600',
    ]);
  });

  it('maps BL10X: literal unions as selects of numbers, a list of objects', () => {
    const shown = shape(configFields('BL10X'));
    expect(shown).toContain('serial.baudRate select 1200|2400|4800|9600|19200|38400|57600|115200');
    expect(shown).toContain('serial.dataBits select 7|8');
    expect(shown).toContain('modbus.slaves list ≤32');
    expect(shown).toContain('modbus.slaves.address integer 1..247');
    expect(shown).toContain('modbus.slaves.function select coils|discrete|holding|input');
    expect(shown).toContain('mqtt.password password ≤128');
    expect(shown).toContain('mqtt.tls switch');
  });

  it('maps S27X: lists of objects, a tag list of strings, non-integer numbers', () => {
    const shown = shape(configFields('S27X'));
    expect(shown).toEqual([
      'di list ≤8',
      'di.channel integer 1..8',
      'di.alarm select off|open|close|change',
      'ai list ≤4',
      'ai.channel integer 1..4',
      'ai.low number -100000..100000',
      'ai.high number -100000..100000',
      'smsNumbers tags ≤5',
      'doDefaults list ≤4',
      'doDefaults.channel integer 1..4',
      'doDefaults.state select on|off',
      'heartbeatSec integer 10..3600',
    ]);
  });

  it('has a value field for every value of the factory settings of each series', () => {
    for (const series of DEVICE_SERIES) {
      const fields = configFields(series);
      expect(formValuesOf(fields, CONFIG_DEFAULTS[series], {})).toEqual(CONFIG_DEFAULTS[series]);
    }
  });
});

describe('formValuesOf: where the editor starts', () => {
  it('cuts keys the schema lacks and fills missing ones from the base', () => {
    const fields = configFields('R40');
    const reported = {
      wan: { mode: 'dhcp', apn: 'internet' },
      heartbeatSec: 30,
      vendorExtra: { x: 1 },
    };
    const values = formValuesOf(fields, reported, CONFIG_DEFAULTS.R40);
    expect(values).toEqual({
      ...CONFIG_DEFAULTS.R40,
      wan: { ...(CONFIG_DEFAULTS.R40.wan as object), mode: 'dhcp', apn: 'internet' },
      heartbeatSec: 30,
    });
  });
});

describe('patchOf: the JSON Merge Patch of a bulk change', () => {
  const fields = configFields('R40');

  it('holds only the fields that are set, nested as the configuration', () => {
    const values = {
      wan: { mode: undefined, apn: 'iot.example', apnUser: undefined, apnPassword: undefined },
      lan: { ip: undefined, netmask: undefined, dhcp: false },
      wifi: { enabled: undefined, ssid: undefined, password: undefined, channel: null },
      heartbeatSec: 120,
    };
    expect(patchOf(fields, values)).toEqual({
      wan: { apn: 'iot.example' },
      lan: { dhcp: false },
      heartbeatSec: 120,
    });
  });

  it('is empty when nothing is set, and keeps a text set to empty', () => {
    expect(patchOf(fields, {})).toEqual({});
    expect(patchOf(fields, { wan: { apnUser: '' } })).toEqual({ wan: { apnUser: '' } });
  });

  it('takes a list whole, an emptied list included, so the patch replaces it', () => {
    const s27x = configFields('S27X');
    expect(patchOf(s27x, { di: [], smsNumbers: ['+8613800000000'] })).toEqual({
      di: [],
      smsNumbers: ['+8613800000000'],
    });
  });

  it('applies to a device with mergePatch, leaving the fields not set as they were', () => {
    const device = { ...CONFIG_DEFAULTS.R40, heartbeatSec: 45 };
    const patch = patchOf(fields, { wan: { apn: 'iot.example' } });
    expect(mergePatch(device, patch)).toEqual({
      ...device,
      wan: { ...(CONFIG_DEFAULTS.R40.wan as object), apn: 'iot.example' },
    });
  });
});

describe('knownConfigOf and editValuesOf: an edit starts from what is known, nothing else', () => {
  const r40 = configFields('R40');
  const state = (change: Partial<TDeviceConfigState>): TDeviceConfigState => ({
    deviceId: 'd'.repeat(32),
    series: 'R40',
    desired: null,
    reported: null,
    state: 'none',
    failure: null,
    sentAt: null,
    ...change,
  });
  const at = '2026-01-01T00:00:00.000Z';
  const desired = (version: number, config: Record<string, unknown>) => ({
    version,
    config,
    changedBy: 'admin',
    changedAt: at,
  });

  it('knows only the fields set on a device that never reported: no factory settings', () => {
    const known = knownConfigOf(state({ desired: desired(1, { heartbeatSec: 120 }) }));
    expect(known).toEqual({ heartbeatSec: 120 });
    expect(isWholeConfig(r40, known)).toBe(false);
    const values = editValuesOf(r40, known);
    expect(values.heartbeatSec).toBe(120);
    expect(values.wan).toEqual({
      mode: undefined,
      apn: undefined,
      apnUser: undefined,
      apnPassword: undefined,
    });
  });

  it('puts the desired fields the device has not reported yet on what it reported', () => {
    const reported = {
      version: 0,
      config: maskSecrets('R40', CONFIG_DEFAULTS.R40),
      reportedAt: at,
    };
    const known = knownConfigOf(
      state({ reported, desired: desired(1, { heartbeatSec: 120 }), state: 'pending' }),
    );
    expect(known).toEqual({ ...maskSecrets('R40', CONFIG_DEFAULTS.R40), heartbeatSec: 120 });
    expect(isWholeConfig(r40, known)).toBe(true);
    // A device that reported the desired version runs what it says.
    const applied = { ...reported, version: 1 };
    expect(knownConfigOf(state({ reported: applied, desired: desired(1, {}) }))).toEqual(
      applied.config,
    );
  });

  it('never puts a secret, masked or not, in the form', () => {
    const values = editValuesOf(r40, maskSecrets('R40', CONFIG_DEFAULTS.R40));
    expect(values.wifi).toMatchObject({ ssid: 'R40', password: undefined });
    expect(JSON.stringify(values)).not.toContain(SECRET_MASK);
  });

  it('leaves a secret left empty out of the change: the device keeps it', () => {
    const values = mergePatch(CONFIG_DEFAULTS.R40, { wifi: { password: '' } });
    // The factory's empty APN password is empty in the form too: kept, not sent.
    expect(patchOf(r40, values)).toEqual({
      ...CONFIG_DEFAULTS.R40,
      wan: { mode: 'lte', apn: 'cmnet', apnUser: '' },
      wifi: { enabled: true, ssid: 'R40', channel: 0 },
    });
  });
});

describe('newListRow', () => {
  it('gives the key field the lowest free value and selects their first option', () => {
    const di = configFields('S27X').find((f) => f.path === 'di');
    if (di?.kind !== 'list') throw new Error('di is a list');
    expect(newListRow(di.item, [])).toEqual({ channel: 1, alarm: 'off' });
    expect(newListRow(di.item, [{ channel: 1 }, { channel: 3 }])).toEqual({
      channel: 2,
      alarm: 'off',
    });
  });

  it('leaves numbers other than the key and starts texts empty', () => {
    const slaves = configFields('BL10X')
      .flatMap((f) => (f.kind === 'section' ? f.fields : [f]))
      .find((f) => f.path === 'modbus.slaves');
    if (slaves?.kind !== 'list') throw new Error('slaves is a list');
    expect(newListRow(slaves.item, [{ address: 1 }])).toEqual({
      address: 2,
      name: '',
      function: 'coils',
    });
  });
});

describe('formNameOf: the form field a problem path names', () => {
  it('names fields of sections, list rows by index, and a tag list for its items', () => {
    const bl10x = configFields('BL10X');
    expect(formNameOf(bl10x, ['serial', 'parity'])?.name).toEqual(['serial', 'parity']);
    expect(formNameOf(bl10x, ['modbus', 'slaves', 2, 'name'])?.name).toEqual([
      'modbus',
      'slaves',
      2,
      'name',
    ]);
    const s27x = configFields('S27X');
    expect(formNameOf(s27x, ['smsNumbers', 1])).toMatchObject({ name: ['smsNumbers'], rest: [1] });
  });

  it('knows no field for paths outside the schema', () => {
    const r40 = configFields('R40');
    expect(formNameOf(r40, ['vendorExtra'])).toBeNull();
    expect(formNameOf(r40, ['wan'])).toBeNull();
    expect(formNameOf(r40, [])).toBeNull();
  });
});

describe('valueFields', () => {
  it('opens sections and keeps lists whole', () => {
    expect(valueFields(configFields('BL10X')).map((f) => f.path)).toContain('modbus.slaves');
    expect(valueFields(configFields('BL10X')).map((f) => f.path)).not.toContain(
      'modbus.slaves.name',
    );
  });
});
