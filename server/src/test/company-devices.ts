import { newId } from '../platform/db/ids.js';
import type { DeviceTable } from '../platform/db/schema.js';
import { newDeviceRow } from '../modules/device/device.service.js';
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

/** Whose a device is: its company, the token it connects with and that token's owner. */
export interface DeviceOwner {
  companyId: string;
  tokenId: string;
  ownerId: string;
}

/** The company's (first) token and its owner. */
export async function tokenOwner(
  t: Pick<TestContext, 'db'>,
  companyId: string,
): Promise<DeviceOwner> {
  const token = await t.db
    .selectFrom('device_token')
    .select(['id', 'owner_id'])
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return { companyId, tokenId: token.id, ownerId: token.owner_id };
}

/**
 * A device row, written directly (no registration, no MQTT): a new device's defaults
 * (`newDeviceRow`, offline) as an R40 of the owner's token, with `fields` over them.
 */
export async function insertDevice(
  t: Pick<TestContext, 'db' | 'clock'>,
  owner: DeviceOwner,
  fields: Partial<DeviceTable> = {},
): Promise<string> {
  const row = {
    ...newDeviceRow({
      company_id: owner.companyId,
      token_id: owner.tokenId,
      owner_id: owner.ownerId,
      sys_org_code: null,
      create_by: null,
      create_time: t.clock.now,
      sn: `TD${newId().slice(0, 10)}`,
      name: 'test device',
      series: 'R40',
      model: null,
      version: null,
      group_id: null,
      remark: null,
      location: null,
    }),
    ...fields,
  };
  await t.db.insertInto('device').values(row).execute();
  return row.id;
}
