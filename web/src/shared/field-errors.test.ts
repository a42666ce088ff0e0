import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, parseFieldProblems } from './field-errors';

const formField = (path: string[]) =>
  ['name', 'maxConcurrent', 'target.versionFrom'].includes(path.join('.')) ? path : null;

describe('server field errors', () => {
  it('splits a validation message into fields and rules', () => {
    expect(
      parseFieldProblems(
        'target.versionFrom: must be dotted numbers; maxConcurrent: must be at most 10000',
      ),
    ).toEqual([
      { path: ['target', 'versionFrom'], message: 'must be dotted numbers' },
      { path: ['maxConcurrent'], message: 'must be at most 10000' },
    ]);
  });

  it('puts each rule under the field it names and hands back the others', () => {
    const result = fieldErrorsOf(
      'name: 不能为空; name: 最多 64 个字符; jitter: is not an allowed field',
      formField,
    );
    expect(result.fields).toEqual([{ name: ['name'], errors: ['不能为空', '最多 64 个字符'] }]);
    expect(result.rest).toBe('jitter: is not an allowed field');
  });

  it('hands back a message that names no field whole', () => {
    expect(fieldErrorsOf('设备不属于本公司', formField)).toEqual({
      fields: [],
      rest: '设备不属于本公司',
    });
  });
});
