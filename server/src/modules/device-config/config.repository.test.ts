import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/db/ids.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { companyWithToken } from '../../test/company-devices.js';
import { DeviceConfigRepository } from './config.repository.js';

describe('boot reports written together', () => {
  let t: TestContext;
  let repository: DeviceConfigRepository;

  beforeAll(async () => {
    t = await createTestApp();
    repository = new DeviceConfigRepository(t.db);
  });
  afterAll(() => t.close());

  async function device(companyId: string): Promise<string> {
    const { token_id: tokenId, owner_id: ownerId } = await t.db
      .selectFrom('device_token')
      .select(['id as token_id', 'owner_id'])
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    const id = newId();
    await t.db
      .insertInto('device')
      .values({
        id,
        company_id: companyId,
        token_id: tokenId,
        sn: `RP${newId().slice(0, 10)}`,
        name: 'reporting device',
        series: 'R40',
        model: null,
        version: null,
        group_id: null,
        owner_id: ownerId,
        sys_org_code: null,
        enabled: 1,
        remark: null,
        location: null,
        status: 'online',
        ip: null,
        last_seen_at: null,
        last_connect_at: null,
        last_disconnect_at: null,
        disconnect_reason: null,
        create_by: null,
        create_time: t.clock.now,
        update_time: null,
        location_id: null,
      })
      .execute();
    return id;
  }

  it('keeps each report to its own device and company; one that cannot be written fails alone', async () => {
    const { companyId: ours } = await companyWithToken(t, 'rpa');
    const { companyId: theirs } = await companyWithToken(t, 'rpb');
    const [fresh, known, other] = [await device(ours), await device(ours), await device(theirs)];
    await repository.saveReported(ours, known, { version: 5, configJson: '{"a":1}', at: 1 });

    const report = (json: string) => ({ version: 7, configJson: json, at: 2 });
    const results = await Promise.allSettled([
      repository.saveReported(ours, fresh, report('{"fresh":1}')),
      // A report naming no version keeps the one the device reported before.
      repository.saveReported(ours, known, { version: null, configJson: '{"a":2}', at: 2 }),
      // A device of another company, named with ours: nothing is written for it.
      repository.saveReported(ours, other, report('{"other":1}')),
      repository.saveReported(ours, newId(), report('{"gone":1}')),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);

    const rows = await t.db
      .selectFrom('device_config')
      .select(['device_id', 'company_id', 'reported_version', 'reported_json', 'state'])
      .where('device_id', 'in', [fresh, known, other])
      .orderBy('reported_json')
      .execute();
    expect(rows).toEqual([
      {
        device_id: known,
        company_id: ours,
        reported_version: 5,
        reported_json: '{"a":2}',
        state: 'none',
      },
      {
        device_id: fresh,
        company_id: ours,
        reported_version: 7,
        reported_json: '{"fresh":1}',
        state: 'none',
      },
    ]);
    // What the caller was answered is the row as written.
    const answered = results[0]!.status === 'fulfilled' ? results[0]!.value : null;
    expect(answered).toMatchObject({ device_id: fresh, reported_version: 7, desired_version: 0 });
  });
});
