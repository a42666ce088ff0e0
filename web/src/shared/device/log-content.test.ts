import { describe, expect, it } from 'vitest';
import { formatLogContent } from './log-content';

describe('formatLogContent', () => {
  it('indents JSON objects and arrays', () => {
    expect(formatLogContent('{"cmd":"reboot","args":[1,2]}')).toEqual({
      json: true,
      text: '{\n  "cmd": "reboot",\n  "args": [\n    1,\n    2\n  ]\n}',
    });
    expect(formatLogContent('[]').json).toBe(true);
  });

  it('keeps plain text and bare JSON values as they are', () => {
    expect(formatLogContent('device rebooted')).toEqual({ json: false, text: 'device rebooted' });
    expect(formatLogContent('42')).toEqual({ json: false, text: '42' });
    expect(formatLogContent('{"broken":')).toEqual({ json: false, text: '{"broken":' });
  });
});
