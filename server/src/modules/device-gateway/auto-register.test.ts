import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { companyWithToken, insertDevice, tokenOwner } from '../../test/company-devices.js';
import { DeviceLogRepository } from '../device/device-log.repository.js';
import { DeviceLogService } from '../device/device-log.service.js';
import { AutoRegistration, type RegistrationRequest } from './auto-register.service.js';
import { GatewayRepository } from './gateway.repository.js';

/** Another node registers `sn` between this node's lookup and its insert. */
class RacedRepository extends GatewayRepository {
  raced = false;

  constructor(
    private readonly t: TestContext,
    private readonly race: () => Promise<unknown>,
  ) {
    super(t.db);
  }

  override async devicesOfToken(tokenId: string, sns: string[]) {
    const held = await super.devicesOfToken(tokenId, sns);
    if (!this.raced) {
      this.raced = true;
      await this.race();
    }
    return held;
  }
}

describe('auto-registration', () => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('registers a batch that lost a race for one SN: that SN keeps the other node’s device', async () => {
    const { companyId } = await companyWithToken(t, 'race');
    const owner = await tokenOwner(t, companyId);
    let theirs = '';
    const repository = new RacedRepository(t, async () => {
      theirs = await insertDevice(t, owner, { sn: 'RACE-1' });
    });
    const registration = new AutoRegistration(
      repository,
      new DeviceLogService(new DeviceLogRepository(t.db), () => t.clock.now),
      () => t.clock.now,
      pino({ level: 'silent' }),
    );
    const request = (sn: string): RegistrationRequest => ({
      sn,
      companyId,
      tokenId: owner.tokenId,
      ownerId: owner.ownerId,
      ownerName: 'race',
      ownerOrgCode: null,
      ip: '10.0.0.9',
    });
    const outcomes = await Promise.all(
      ['RACE-1', 'RACE-2', 'RACE-3'].map((sn) => registration.register(request(sn))),
    );
    const devices = await t.db
      .selectFrom('device')
      .select(['id', 'sn', 'name', 'series', 'status', 'enabled', 'create_time'])
      .where('token_id', '=', owner.tokenId)
      .orderBy('sn')
      .execute();
    expect(devices.map((d) => d.sn)).toEqual(['RACE-1', 'RACE-2', 'RACE-3']);
    expect(outcomes).toEqual(devices.map((d) => ({ deviceId: d.id })));
    expect(outcomes[0]).toEqual({ deviceId: theirs });
    // The rows this node wrote are whole: the defaults of a new device, named by its SN.
    expect(devices[1]).toMatchObject({ name: 'RACE-2', series: 'R40', status: 'offline' });
    expect(Number(devices[1]!.enabled)).toBe(1);
    expect(Number(devices[1]!.create_time)).toBe(t.clock.now);
  });
});
