import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      mqttPort: 1883,
      captcha: true,
      logLevel: 'info',
      databaseUrl: undefined,
      adminPassword: undefined,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
    });
  });

  it('reads overrides', () => {
    const config = loadConfig({
      PORT: '9000',
      CAPTCHA: 'off',
      DATABASE_URL: 'postgres://u@db:5432/blrms',
      REDIS_URL: 'redis://cache:6379',
      MQTT_PORT: '0',
    });
    expect(config).toMatchObject({
      port: 9000,
      captcha: false,
      databaseUrl: 'postgres://u@db:5432/blrms',
      redisUrl: 'redis://cache:6379',
      mqttPort: 0,
    });
  });

  it('reads the company storage quota as a size: 2 GiB by default, units, bytes, 0 unlimited', () => {
    expect(loadConfig({}).companyStorageQuota).toBe(2 * 1024 ** 3);
    expect(loadConfig({ COMPANY_STORAGE_QUOTA: '5GiB' }).companyStorageQuota).toBe(5 * 1024 ** 3);
    expect(loadConfig({ COMPANY_STORAGE_QUOTA: '500 MB' }).companyStorageQuota).toBe(500e6);
    expect(loadConfig({ COMPANY_STORAGE_QUOTA: '1.5kib' }).companyStorageQuota).toBe(1536);
    expect(loadConfig({ COMPANY_STORAGE_QUOTA: '1048576' }).companyStorageQuota).toBe(1048576);
    expect(loadConfig({ COMPANY_STORAGE_QUOTA: '0' }).companyStorageQuota).toBe(0);
  });

  it('reads trusted proxies as addresses and CIDR ranges; none by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(
      loadConfig({ TRUSTED_PROXIES: '10.0.0.5, 10.0.0.0/8,fd00::/8 ,::1' }).trustedProxies,
    ).toEqual(['10.0.0.5', '10.0.0.0/8', 'fd00::/8', '::1']);
  });

  it.each([
    ['TRUSTED_PROXIES', 'lb.example.com'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', '10.0.0.1/8/8'],
    ['TRUSTED_PROXIES', ','],
    ['COMPANY_STORAGE_QUOTA', 'lots'],
    ['COMPANY_STORAGE_QUOTA', '-1GiB'],
    ['COMPANY_STORAGE_QUOTA', '2 parsecs'],
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['CAPTCHA', 'maybe'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_PASSWORD', 'short'],
  ])('stops with a message naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });
});
