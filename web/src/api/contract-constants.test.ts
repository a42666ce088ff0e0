import * as contracts from '@blrms/contracts';
import { expect, it } from 'vitest';
import { PERMISSION_VERSION_HEADER } from './client';
import { SSO_CALLBACK_PATHS } from './sso';

it('reads the permission version from the header the server sets', () => {
  expect(PERMISSION_VERSION_HEADER).toBe(contracts.PERMISSION_VERSION_HEADER);
});

it('sends single sign-on providers back to the callback pages the server accepts', () => {
  expect(SSO_CALLBACK_PATHS).toEqual(contracts.SSO_CALLBACK_PATHS);
});
