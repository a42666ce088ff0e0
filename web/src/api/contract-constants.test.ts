import * as contracts from '@blrms/contracts';
import { expect, it } from 'vitest';
import { PERMISSION_VERSION_HEADER } from './client';

it('reads the permission version from the header the server sets', () => {
  expect(PERMISSION_VERSION_HEADER).toBe(contracts.PERMISSION_VERSION_HEADER);
});
