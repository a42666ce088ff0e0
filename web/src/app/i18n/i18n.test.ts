import { describe, expect, it } from 'vitest';
import enUS from './en-US';
import zhCN from './zh-CN';

function keysOf(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function valuesOf(obj: object): unknown[] {
  return Object.values(obj).flatMap((v) =>
    typeof v === 'object' && v !== null ? valuesOf(v) : [v],
  );
}

describe('i18n resources', () => {
  it('zh-CN and en-US have the same keys', () => {
    expect(keysOf(enUS).sort()).toEqual(keysOf(zhCN).sort());
  });

  it('every text is a non-empty string', () => {
    for (const v of [...valuesOf(zhCN), ...valuesOf(enUS)]) {
      expect(typeof v === 'string' && v.trim().length > 0).toBe(true);
    }
  });

  it('keeps the texts the spec fixes', () => {
    expect(zhCN.tabs.lastNotClosable).toBe('这是最后一页，不能再关闭了啦');
    expect(enUS.tabs.homeNotClosable).toBe('Homepage cannot be closed');
    expect(zhCN.lang.switchSuccess).toBe('中文切换成功');
    expect(enUS.lang.switchSuccess).toBe('switch language success');
    expect(enUS.password.mismatch).toBe('The passwords entered do not match');
    expect(zhCN.http.sessionExpiredTitle).toBe('登录已过期');
  });
});
