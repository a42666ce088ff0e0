import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './field-errors';

const formField = (path: string[]) =>
  ['name', 'maxConcurrent', 'target.versionFrom'].includes(path.join('.')) ? path : null;

describe('server field errors', () => {
  it('puts each rule under the field it names and hands back the others', () => {
    const result = fieldErrorsOf(
      {
        message: '名称：不能为空；名称：最多 64 个字符；不允许的字段 jitter',
        fields: [
          { field: 'name', message: '不能为空' },
          { field: 'name', message: '最多 64 个字符' },
          { field: 'target.versionFrom', message: '格式不正确' },
          { field: 'jitter', message: '不允许的字段 jitter' },
        ],
      },
      formField,
    );
    expect(result.fields).toEqual([
      { name: ['name'], errors: ['不能为空', '最多 64 个字符'] },
      { name: ['target', 'versionFrom'], errors: ['格式不正确'] },
    ]);
    expect(result.rest).toEqual({
      message: '不允许的字段 jitter',
      fields: [{ field: 'jitter', message: '不允许的字段 jitter' }],
    });
  });

  it('hands back a message that names no field of the form whole', () => {
    const problems = { message: '设备不属于本公司', fields: [] };
    expect(fieldErrorsOf(problems, formField)).toEqual({ fields: [], rest: problems });
  });
});
