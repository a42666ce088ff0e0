import { ZPositionAdd } from '@blrms/contracts';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { zodRules } from './zod-rules';

it('reads required, length and pattern from a string field of the contract', () => {
  expect(zodRules(ZPositionAdd, 'code', { required: 'fill it', pattern: 'letters' })).toEqual([
    { required: true, whitespace: true, message: 'fill it' },
    { max: 64 },
    { pattern: /^[A-Za-z0-9_-]+$/, message: 'letters' },
  ]);
});

it('leaves optional fields free and reads a number range', () => {
  const schema = z.object({
    remark: z.string().max(500).nullable().optional(),
    sortNo: z.number().int().min(0).max(9999),
    code: z.string().min(4).max(8),
  });
  expect(zodRules(schema, 'remark')).toEqual([{ max: 500 }]);
  expect(zodRules(schema, 'sortNo', { range: 'out of range' })).toEqual([
    { required: true },
    { type: 'number', min: 0, max: 9999, message: 'out of range' },
  ]);
  expect(zodRules(schema, 'code', { minLength: (min) => `at least ${min}` })).toEqual([
    { required: true },
    { max: 8 },
    { min: 4, message: 'at least 4' },
  ]);
});
