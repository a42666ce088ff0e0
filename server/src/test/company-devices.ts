import { newId } from '../platform/db/ids.js';
import { sha256 } from '../platform/auth/tokens.js';
import type { TestContext } from './app.js';
import type { TokenCredential } from './mqtt-devices.js';

/** A company of its own with a user and an auto-registering token its devices connect with. */
export async function companyWithToken(
  t: Pick<TestContext, 'db' | 'clock' | 'createCompany' | 'createUser'>,
  label: string,
): Promise<{ companyId: string; token: TokenCredential }> {
  const suffix = newId().slice(0, 6);
  const companyId = await t.createCompany(`${label}-${suffix}`);
  const ownerId = await t.createUser({
    username: `${label}${suffix}`,
    password: 'Owner-Pass-1',
    companyId,
  });
  const token = { code: newId().slice(0, 8).toUpperCase(), key: `${label}-${newId()}` };
  await t.db
    .insertInto('device_token')
    .values({
      id: newId(),
      company_id: companyId,
      owner_id: ownerId,
      code: token.code,
      name: label,
      remark: null,
      token_key: token.key,
      key_hash: sha256(token.key),
      auto_register: 1,
      enabled: 1,
      create_time: t.clock.now,
      update_time: null,
    })
    .execute();
  return { companyId, token };
}
