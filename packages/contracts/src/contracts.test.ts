import { describe, expect, it } from 'vitest';
import {
  ZCaptchaKey,
  ZDictCode,
  ZDuplicateCheckQuery,
  ZPageQuery,
  ZSysLogQuery,
  ZUpdatePasswordRequest,
  hasAction,
  type TAuthEntry,
} from './index.js';

const entry = (action: string, extra: Partial<TAuthEntry> = {}): TAuthEntry => ({
  action,
  describe: action,
  type: '1',
  ...extra,
});

describe('hasAction (spec section 5 permission directive)', () => {
  it('shows an element only when the user has the action', () => {
    const perms = {
      auth: [entry('log:list')],
      allAuth: [entry('log:list', { status: '1' }), entry('log:export', { status: '1' })],
    };
    expect(hasAction(perms, 'log:list')).toBe(true);
    expect(hasAction(perms, 'log:export')).toBe(false);
    expect(hasAction(perms, 'never:defined')).toBe(false);
  });

  it('shows an element to everyone when its rule has status 0', () => {
    const perms = { auth: [], allAuth: [entry('log:export', { status: '0' })] };
    expect(hasAction(perms, 'log:export')).toBe(true);
  });

  it('ignores entries of type 2', () => {
    const perms = {
      auth: [entry('log:delete', { type: '2' })],
      allAuth: [entry('log:purge', { type: '2', status: '0' })],
    };
    expect(hasAction(perms, 'log:delete')).toBe(false);
    expect(hasAction(perms, 'log:purge')).toBe(false);
  });
});

describe('input rules', () => {
  it('requires the confirmation to equal the new password and names the field', () => {
    const result = ZUpdatePasswordRequest.safeParse({
      username: 'admin',
      oldpassword: 'old-secret',
      password: 'New-secret-1',
      confirmpassword: 'New-secret-2',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['confirmpassword']);
  });

  it('refuses new passwords shorter than 8 characters', () => {
    const result = ZUpdatePasswordRequest.safeParse({
      username: 'admin',
      oldpassword: 'x',
      password: 'Short1',
      confirmpassword: 'Short1',
    });
    expect(result.error?.issues[0]?.path).toEqual(['password']);
  });

  it('rejects unknown fields in the password change (no mass assignment)', () => {
    const result = ZUpdatePasswordRequest.safeParse({
      username: 'admin',
      oldpassword: 'old-secret',
      password: 'New-secret-1',
      confirmpassword: 'New-secret-1',
      status: 1,
    });
    expect(result.success).toBe(false);
  });

  it.each([
    'sys_user,username,password',
    '`sys_user`',
    'sys_user t',
    '1=1',
    'sex.js',
    "a' or '1'='1",
  ])('refuses dictionary code %s', (code) => {
    expect(ZDictCode.safeParse(code).success).toBe(false);
  });

  it('accepts plain dictionary codes', () => {
    expect(ZDictCode.parse('device_series')).toBe('device_series');
  });

  it.each(['updatexml(1,concat(0x7e,user(),0x7e),1)', 'create_time;drop table x', 'password'])(
    'refuses sort column %s',
    (column) => {
      expect(ZSysLogQuery.safeParse({ column }).success).toBe(false);
    },
  );

  it('refuses sort orders other than asc and desc', () => {
    expect(ZSysLogQuery.safeParse({ order: 'desc;drop table x' }).success).toBe(false);
  });

  it('caps page size at 1000 and defaults paging', () => {
    expect(ZPageQuery.safeParse({ pageSize: '1001' }).success).toBe(false);
    expect(ZPageQuery.parse({})).toMatchObject({ pageNo: 1, pageSize: 10, order: 'desc' });
  });

  it('limits captcha keys to safe characters', () => {
    expect(ZCaptchaKey.safeParse('../../etc/passwd').success).toBe(false);
    expect(ZCaptchaKey.safeParse('1763712000000abcd').success).toBe(true);
  });

  it('rejects unknown duplicate-check parameters', () => {
    expect(
      ZDuplicateCheckQuery.safeParse({ tableName: 'sys_user', fieldName: 'username', where: '1=1' })
        .success,
    ).toBe(false);
  });
});
