import { describe, expect, it } from 'vitest';
import enUS from './en-US';
import { FEATURE_CATALOGS } from './feature-catalogs';
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

type Catalog = { name: string; zhCN: object; enUS: object };

/** The shell's catalog and every feature's, in both languages. */
async function allCatalogs(): Promise<Catalog[]> {
  const features = await Promise.all(
    Object.entries(FEATURE_CATALOGS).map(async ([name, load]) => ({
      name,
      zhCN: (await load['zh-CN']()).default,
      enUS: (await load['en-US']()).default,
    })),
  );
  return [{ name: 'shell', zhCN, enUS }, ...features];
}

describe('i18n resources', () => {
  it('zh-CN and en-US have the same keys, in the shell catalog and every feature catalog', async () => {
    for (const catalog of await allCatalogs()) {
      expect(keysOf(catalog.enUS).sort(), catalog.name).toEqual(keysOf(catalog.zhCN).sort());
    }
  });

  it('every text is a non-empty string', async () => {
    for (const catalog of await allCatalogs()) {
      for (const v of [...valuesOf(catalog.zhCN), ...valuesOf(catalog.enUS)]) {
        expect(typeof v === 'string' && v.trim().length > 0, catalog.name).toBe(true);
      }
    }
  });

  it('holds each key in one catalog only, so that a key reads the same whatever is loaded', async () => {
    const owners = new Map<string, string[]>();
    for (const catalog of await allCatalogs()) {
      for (const key of keysOf(catalog.zhCN))
        owners.set(key, [...(owners.get(key) ?? []), catalog.name]);
    }
    expect([...owners].filter(([, names]) => names.length > 1)).toEqual([]);
  });

  it('lists every feature that has messages', () => {
    const withMessages = Object.keys(import.meta.glob('../../features/*/messages/zh-CN.ts')).map(
      (path) => path.split('/')[3],
    );
    expect(Object.keys(FEATURE_CATALOGS).sort()).toEqual(withMessages.sort());
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
