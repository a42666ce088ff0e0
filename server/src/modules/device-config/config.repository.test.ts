import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/db/ids.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { companyWithToken, insertDevice, tokenOwner } from '../../test/company-devices.js';
import { DeviceConfigRepository } from './config.repository.js';

describe('boot reports written together', () => {
  let t: TestContext;
  let repository: DeviceConfigRepository;

  beforeAll(async () => {
    t = await createTestApp();
    repository = new DeviceConfigRepository(t.db);
  });
  afterAll(() => t.close());

  it('keeps each report to its own device and company; one that cannot be written fails alone', async () => {
    const { companyId: ours } = await companyWithToken(t, 'rpa');
    const { companyId: theirs } = await companyWithToken(t, 'rpb');
    const fresh = await insertDevice(t, await tokenOwner(t, ours));
    const known = await insertDevice(t, await tokenOwner(t, ours));
    const other = await insertDevice(t, await tokenOwner(t, theirs));
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
