import type { Migration } from 'kysely';
import * as foundation from './20250601000000-foundation.js';
import * as accountsSelfService from './20261121000200-accounts-self-service.js';

/** Every migration, by name; names sort in the order they must run. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '20250601000000-foundation': foundation,
  '20261121000200-accounts-self-service': accountsSelfService,
};
