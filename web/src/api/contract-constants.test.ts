import * as contracts from '@blrms/contracts';
import * as constants from '@blrms/contracts/constants';
import { expect, it } from 'vitest';

it('offers the login route the same constants from the zod-free entry as from the main one', () => {
  expect(constants.PERMISSION_VERSION_HEADER).toBe(contracts.PERMISSION_VERSION_HEADER);
  expect(constants.SSO_CALLBACK_PATHS).toEqual(contracts.SSO_CALLBACK_PATHS);
  expect(constants.VERIFY_CODE_RESEND_SECONDS).toBe(contracts.VERIFY_CODE_RESEND_SECONDS);
  expect(constants.PHONE_PATTERN).toBe(contracts.PHONE_PATTERN);
});

it('keeps zod out of the constants entry', async () => {
  const { readFile } = await import('node:fs/promises');
  const source = await readFile(
    new URL('../../../packages/contracts/src/constants.ts', import.meta.url),
    'utf8',
  );
  expect(source).not.toMatch(/^import /m);
});
