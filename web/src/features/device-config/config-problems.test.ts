import { CONFIG_DEFAULTS, DEVICE_SERIES } from '@blrms/contracts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import enUS from '../../app/i18n/en-US';
import zhCN from '../../app/i18n/zh-CN';
import { allFields, configFields } from './config-fields';
import { failureText, fieldLabel, fullLabel, optionLabel } from './config-labels';
import { configProblems, errorsAt, patchProblems, serverFieldName } from './config-problems';
import deviceConfigEnUS from './messages/en-US';
import deviceConfigZhCN from './messages/zh-CN';

const i18n = i18next.createInstance();
void i18n.init({
  resources: {
    'zh-CN': { translation: zhCN, 'device-config': deviceConfigZhCN },
    'en-US': { translation: enUS, 'device-config': deviceConfigEnUS },
  },
  fallbackNS: ['device-config'],
  lng: 'en-US',
  initAsync: false,
  interpolation: { escapeValue: false },
});
const en = i18n.getFixedT('en-US');
const zh = i18n.getFixedT('zh-CN');

const r40 = (change: Record<string, unknown>) => ({ ...CONFIG_DEFAULTS.R40, ...change });
const wan = CONFIG_DEFAULTS.R40.wan as Record<string, unknown>;

describe('configProblems: the zod schema’s verdict, on the field it concerns', () => {
  it('finds nothing wrong with the factory settings', () => {
    for (const series of DEVICE_SERIES) {
      expect(configProblems(en, series, CONFIG_DEFAULTS[series])).toEqual({ fields: [], rest: [] });
    }
  });

  it('says a number is out of range, in the console’s language', () => {
    const problems = configProblems(en, 'R40', r40({ heartbeatSec: 5000 }));
    expect(problems.fields).toEqual([
      { name: ['heartbeatSec'], errors: ['Must be from 10 to 3600'] },
    ]);
    expect(errorsAt(configProblems(zh, 'R40', r40({ heartbeatSec: 5 })), ['heartbeatSec'])).toEqual(
      ['必须在 10 到 3600 之间'],
    );
  });

  it('names empty, non-integer, too long and badly formed values', () => {
    const problems = configProblems(
      en,
      'R40',
      r40({
        wan: { ...wan, apn: 'x'.repeat(64) },
        lan: { ...(CONFIG_DEFAULTS.R40.lan as object), ip: '300.1.1.1' },
        wifi: { enabled: true, ssid: '', password: '12345678', channel: 1.5 },
        heartbeatSec: null,
      }),
    );
    const at = (name: (string | number)[]) => errorsAt(problems, name);
    expect(at(['wan', 'apn'])).toEqual(['Must be at most 63 characters']);
    expect(at(['lan', 'ip'])).toEqual(['Must be an IPv4 address']);
    expect(at(['wifi', 'ssid'])).toEqual(['Required']);
    expect(at(['wifi', 'channel'])).toEqual(['Must be a whole number']);
    expect(at(['heartbeatSec'])).toEqual(['Required']);
  });

  it('lists the allowed options of a select, translated', () => {
    const problems = configProblems(zh, 'BL10X', {
      ...CONFIG_DEFAULTS.BL10X,
      serial: { baudRate: 1000, dataBits: 8, parity: 'mark', stopBits: 1 },
    });
    expect(errorsAt(problems, ['serial', 'baudRate'])[0]).toBe(
      '必须是以下之一：1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200',
    );
    expect(errorsAt(problems, ['serial', 'parity'])[0]).toBe('必须是以下之一：无, 偶校验, 奇校验');
  });

  it('puts a list row’s problem on that row’s field, and a tag’s on the tag list', () => {
    const problems = configProblems(en, 'S27X', {
      ...CONFIG_DEFAULTS.S27X,
      ai: [
        { channel: 1, low: 0, high: 10 },
        { channel: 2, low: 20, high: 10 },
      ],
      smsNumbers: ['+8613800000000', 'call me'],
    });
    expect(problems.fields).toEqual([
      { name: ['ai', 1, 'low'], errors: ['The low threshold must be below the high threshold'] },
      { name: ['smsNumbers'], errors: ['“call me”: Must be a phone number'] },
    ]);
  });

  it('keeps what no field of the form holds apart', () => {
    const problems = configProblems(en, 'R40', r40({ vendorExtra: 1 }));
    expect(problems.fields).toEqual([]);
    expect(problems.rest).toEqual(['configuration: Fields not allowed: vendorExtra']);
  });
});

describe('patchProblems: a bulk change checked on the series’ factory settings', () => {
  it('accepts a valid partial change and refuses an invalid one on its field', () => {
    expect(patchProblems(en, 'R40', { wan: { apn: 'iot' } })).toEqual({ fields: [], rest: [] });
    expect(patchProblems(en, 'R40', { wifi: { password: 'short' } }).fields).toEqual([
      { name: ['wifi', 'password'], errors: ['Must be at least 8 characters'] },
    ]);
  });
});

describe('serverFieldName: the field a server 400 names', () => {
  const fields = configFields('BL10X');
  it('reads the body path (config.…) and the configuration path', () => {
    expect(serverFieldName(fields, ['config', 'mqtt', 'port'])).toEqual(['mqtt', 'port']);
    expect(serverFieldName(fields, ['modbus', 'slaves', '0', 'count'])).toEqual([
      'modbus',
      'slaves',
      0,
      'count',
    ]);
    expect(serverFieldName(fields, ['baseVersion'])).toBeNull();
  });
});

describe('labels', () => {
  it('translates every field and every option of every series in both languages', () => {
    for (const t of [en, zh]) {
      const fieldTexts = t('deviceConfig.fields', { returnObjects: true }) as Record<
        string,
        string
      >;
      const optionTexts = t('deviceConfig.options', { returnObjects: true }) as Record<
        string,
        string
      >;
      for (const series of DEVICE_SERIES) {
        for (const field of allFields(configFields(series))) {
          expect(fieldTexts[field.path], `${t('lang.label')}: ${field.path}`).toBeTruthy();
          if (field.kind !== 'select') continue;
          for (const option of field.options) {
            if (typeof option === 'number') continue; // Numbers read the same in any language.
            expect(optionTexts[`${field.path}.${option}`], `${field.path}.${option}`).toBeTruthy();
          }
        }
      }
    }
  });

  it('falls back to the schema title, and to the value for options', () => {
    expect(fieldLabel(en, { path: 'wan.newThing', title: 'New thing' })).toBe('New thing');
    const mode = configFields('R40')[0]!;
    if (mode.kind !== 'section' || mode.fields[0]!.kind !== 'select') throw new Error('wan.mode');
    expect(optionLabel(zh, mode.fields[0]!, 'lte')).toBe('4G（LTE）');
    expect(optionLabel(zh, mode.fields[0]!, 'satellite')).toBe('satellite');
  });

  it('names a field with its section and list', () => {
    expect(fullLabel(en, configFields('BL10X'), 'modbus.slaves.address')).toBe(
      'Modbus / Slaves / Slave address',
    );
    expect(fullLabel(zh, configFields('R40'), 'wan.apn')).toBe('WAN / APN');
  });
});

describe('failureText: why a version failed, in both languages', () => {
  it('words a refusal with the device’s own reason, and a device that did not answer', () => {
    const refused = { code: 'device-refused', reason: 'wan.apn: not allowed' } as const;
    expect(failureText(zh, refused)).toBe('设备拒绝：wan.apn: not allowed');
    expect(failureText(en, refused)).toBe('The device refused it: wan.apn: not allowed');
    expect(failureText(zh, { code: 'device-refused', reason: '' })).toBe('设备拒绝，未说明原因');
    const silent = { code: 'no-answer', afterSec: 60 } as const;
    expect(failureText(zh, silent)).toBe('设备在线，但 60 秒内没有应答');
    expect(failureText(en, silent)).toBe('The device was online but did not answer within 60 s');
  });
});
