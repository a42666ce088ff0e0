import type { TOnlineField, TOnlineRecord } from '@blrms/contracts';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  cellText,
  designerFieldOf,
  fieldInputOf,
  fieldLabel,
  fieldProblem,
  initialFormValues,
  newField,
  previewFields,
  problemMessage,
  recordFieldOf,
  recordFromForm,
  searchOf,
  sortColumns,
} from './form-fields';

const base = {
  required: false,
  unique: false,
  searchable: false,
  listed: true,
  sortable: false,
  labelEn: null,
};
const title: TOnlineField = {
  ...base,
  type: 'text',
  key: 'title',
  label: '标题',
  labelEn: 'Title',
  required: true,
  searchable: true,
  sortable: true,
};
const hours: TOnlineField = {
  ...base,
  type: 'number',
  key: 'hours',
  label: '工时',
  min: 1,
  max: 24,
  precision: 1,
  searchable: true,
};
const kind: TOnlineField = {
  ...base,
  type: 'select',
  key: 'kind',
  label: '类型',
  dictCode: 'visit_kind',
};
const done: TOnlineField = { ...base, type: 'switch', key: 'done', label: '完成', sortable: true };
const day: TOnlineField = { ...base, type: 'date', key: 'day', label: '日期', searchable: true };
const at: TOnlineField = { ...base, type: 'datetime', key: 'at', label: '时间' };
const device: TOnlineField = {
  ...base,
  type: 'device',
  key: 'device',
  label: '设备',
  searchable: true,
};
const FIELDS = [title, hours, kind, done, day, at, device];

const record = (over: Partial<TOnlineRecord> = {}): TOnlineRecord => ({
  id: 'r1',
  data: { title: 'A', hours: 2.5, kind: 'repair', done: true, day: '2026-01-31', device: 'd1' },
  display: { kind: '维修', device: 'SN001 / Pump' },
  stale: [],
  createBy: 'admin',
  createTime: '2026-01-31T00:00:00.000Z',
  updateBy: null,
  updateTime: null,
  ...over,
});

/** Echoes the key and its options, so a test sees which text was asked for. */
const t = ((key: string, options?: Record<string, unknown>) =>
  `${key} ${JSON.stringify(options ?? {})}`) as unknown as TFunction;

describe('labels', () => {
  it('reads the English label in en-US and falls back to the Chinese one', () => {
    expect(fieldLabel(title, 'en-US')).toBe('Title');
    expect(fieldLabel(title, 'zh-CN')).toBe('标题');
    expect(fieldLabel(hours, 'en-US')).toBe('工时');
  });
});

describe('list columns', () => {
  it('sorts by the fixed columns and the sortable fields whose type allows it', () => {
    const device_ = { ...device, sortable: true };
    expect(sortColumns([title, done, device_])).toEqual([
      'createTime',
      'updateTime',
      'title',
      'done',
    ]);
  });

  it('shows the server’s display text, switches as Yes/No, times in the local format', () => {
    const yesNo = (on: boolean) => (on ? 'Yes' : 'No');
    const row = record({ data: { ...record().data, at: '2026-01-31T08:00:00.000Z' } });
    expect(cellText(kind, row, yesNo)).toBe('维修');
    expect(cellText(device, row, yesNo)).toBe('SN001 / Pump');
    expect(cellText(done, row, yesNo)).toBe('Yes');
    expect(cellText(hours, row, yesNo)).toBe('2.5');
    expect(cellText(at, row, yesNo)).toBe(
      dayjs('2026-01-31T08:00:00.000Z').format('YYYY-MM-DD HH:mm:ss'),
    );
    expect(cellText(title, record({ data: {} }), yesNo)).toBe('');
  });
});

describe('search', () => {
  it('sends texts trimmed, exact values, number and date ranges, and leaves empty ones out', () => {
    const search = searchOf(FIELDS, {
      title: '  pump ',
      hours: { from: 2, to: null },
      day: [dayjs('2026-01-01'), dayjs('2026-01-31')],
      device: 'd1',
      kind: 'repair', // not searchable: ignored
    });
    expect(search).toEqual({
      title: 'pump',
      hours: { from: 2, to: null },
      day: { from: '2026-01-01', to: '2026-01-31' },
      device: 'd1',
    });
    expect(searchOf(FIELDS, { title: ' ', hours: { from: null, to: null } })).toBeUndefined();
  });
});

describe('record form values', () => {
  it('starts an add with the defaults and an edit with the record, dates as dayjs', () => {
    const added = initialFormValues([{ ...hours, defaultValue: 8 }, done, day], null);
    expect(added).toEqual({ hours: 8, done: false, day: undefined });
    const edited = initialFormValues(FIELDS, record({ stale: ['kind'] }));
    expect(edited.kind).toBeUndefined();
    expect(dayjs.isDayjs(edited.day) && edited.day.format('YYYY-MM-DD')).toBe('2026-01-31');
  });

  it('sends days as YYYY-MM-DD, instants as UTC ISO and empty inputs as null', () => {
    const data = recordFromForm(FIELDS, {
      title: 'A',
      day: dayjs('2026-02-03'),
      at: dayjs('2026-02-03T10:00:00.000Z'),
      hours: undefined,
    });
    expect(data).toMatchObject({
      title: 'A',
      day: '2026-02-03',
      at: '2026-02-03T10:00:00.000Z',
      hours: null,
    });
  });
});

describe('field problems', () => {
  it('names the rule that refused the value, as the server would', () => {
    expect(fieldProblem(title, '  ')).toEqual({ kind: 'required' });
    expect(fieldProblem(hours, 30)).toEqual({ kind: 'range', min: 1, max: 24 });
    expect(fieldProblem(hours, 2.25)).toEqual({ kind: 'precision', precision: 1 });
    expect(fieldProblem(hours, 2.5)).toBeNull();
    expect(fieldProblem(hours, null)).toBeNull();
    const code = { ...title, pattern: '[A-Z]{2}\\d+', patternHint: 'Like AB12' } as TOnlineField;
    expect(fieldProblem(code, 'ab12')).toEqual({ kind: 'pattern', hint: 'Like AB12' });
    expect(fieldProblem(code, 'AB12')).toBeNull();
    expect(fieldProblem({ ...title, minLength: 3 } as TOnlineField, 'ab')).toEqual({
      kind: 'minLength',
      min: 3,
    });
  });

  it('words a range with both ends, and a pattern by its hint', () => {
    expect(problemMessage({ kind: 'range', min: 1, max: 24 }, '工时', t)).toBe(
      'onlineForm.rule.between {"field":"工时","min":1,"max":24}',
    );
    expect(problemMessage({ kind: 'pattern', hint: 'Like AB12' }, 'Code', t)).toBe('Like AB12');
  });

  it('places a server error under the field it names', () => {
    expect(recordFieldOf(FIELDS, ['data', 'hours'])).toEqual(['hours']);
    expect(recordFieldOf(FIELDS, ['hours'])).toEqual(['hours']);
    expect(recordFieldOf(FIELDS, ['data', 'gone'])).toBeNull();
  });
});

describe('designer', () => {
  it('gives a new field a free key', () => {
    expect(newField('text', ['field_1', 'field_2']).key).toBe('field_3');
    expect(newField('number', ['field_2']).key).toBe('field_3');
  });

  it('sends only the settings of the field’s type, and turns off flags the type cannot have', () => {
    const input = fieldInputOf({
      ...newField('file', []),
      label: ' 附件 ',
      labelEn: '',
      unique: true,
      sortable: true,
      minLength: 3,
      accept: ['.pdf'],
      maxSizeMb: 2,
    });
    expect(input).toEqual({
      type: 'file',
      key: 'field_1',
      label: '附件',
      labelEn: null,
      required: false,
      unique: false,
      searchable: false,
      listed: true,
      sortable: false,
      accept: ['.pdf'],
      maxSize: 2 * 1024 * 1024,
    });
  });

  it('keeps a stored field unchanged through the designer', () => {
    for (const field of [title, hours, kind, done, { ...day, defaultValue: '2026-01-31' }]) {
      expect(fieldInputOf(designerFieldOf(field))).toMatchObject(field);
    }
  });

  it('previews only fields that already make a valid field', () => {
    const fields = previewFields([
      { ...newField('text', []), label: 'A' },
      { ...newField('number', ['field_1']), label: 'B', key: 'Bad key' },
      undefined,
    ]);
    expect(fields.map((f) => f.key)).toEqual(['field_1']);
  });
});
