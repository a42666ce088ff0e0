import { startFleet, type Fleet } from '@blrms/device-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep, until } from './support/ports.js';
import { PostgresInstance } from './support/postgres.js';
import { stopAllOwned } from './support/process.js';
import { RedisInstance } from './support/redis.js';
import { ServerProcess } from './support/server.js';

afterAll(stopAllOwned);

const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 30000);
/** Devices of the node that dies, on its broker only: they are away until it returns. */
const STRANDED = 50;
/** Devices given both brokers; half start on the node that dies and move to the other. */
const MOVING = 20;
const OFFLINE_WITHIN_MS = 15_000;

interface CampaignDevice {
  sn: string;
  state: string;
}

describe('a node killed with kill -9', () => {
  it('its devices are shown offline within 15 s and a campaign sends them nothing while they are away', async () => {
    const pg = await PostgresInstance.create();
    const redis = await RedisInstance.create();
    const fleets: Fleet[] = [];
    const nodes: ServerProcess[] = [];
    try {
      const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url };
      const a = await ServerProcess.start({ broker: true, env });
      nodes.push(a);
      const b = await ServerProcess.start({ broker: true, env });
      nodes.push(b);
      await a.login();
      await b.login();
      const token = await b.call<{ code: string; tokenKey: string }>('POST', '/device/token/add', {
        name: 'Dead node',
      });
      expect(token.success).toBe(true);
      const credentials = { token: token.result.tokenKey, tokenCode: token.result.code };
      const common = { ...credentials, series: ['R40' as const], connectRate: 200 };
      fleets.push(
        await startFleet({ ...common, url: a.mqttUrl, count: STRANDED, prefix: 'DEAD' }),
        await startFleet({ ...common, url: [a.mqttUrl, b.mqttUrl], count: MOVING, prefix: 'MOVE' }),
      );
      const online = async (prefix: string) => {
        const reply = await b.call<{ total: number }>('GET', '/device/device/list', {
          sn: prefix,
          status: 'online',
          pageSize: 1,
        });
        return reply.success ? reply.result.total : -1;
      };
      await until(
        async () => (await online('DEAD')) === STRANDED && (await online('MOVE')) === MOVING,
        'every device shown online',
        30_000,
      );

      await a.kill();
      const killedAt = Date.now();
      const created = await b.call<{ id: string; total: number }>('POST', '/campaign/add', {
        name: 'After the kill',
        kind: 'config',
        series: 'R40',
        configPatch: { heartbeatSec: 45 },
        target: { series: 'R40' },
        maxConcurrent: 100,
      });
      expect(created.success, created.message).toBe(true);
      expect(created.result.total).toBe(STRANDED + MOVING);
      const campaignDevices = async () => {
        const reply = await b.call<{ records: CampaignDevice[] }>('GET', '/campaign/devices', {
          id: created.result.id,
          pageSize: 100,
        });
        return reply.success ? reply.result.records : [];
      };

      // While node A is dead: how long its devices look online, what the campaign sends them.
      let offlineAfterMs: number | null = null;
      const sentToStranded = new Set<string>();
      let moved: CampaignDevice[] = [];
      const watchUntil = killedAt + Math.max(OUTAGE_MS, OFFLINE_WITHIN_MS + 5000);
      while (Date.now() < watchUntil) {
        if (offlineAfterMs === null && (await online('DEAD')) === 0)
          offlineAfterMs = Date.now() - killedAt;
        const devices = await campaignDevices();
        for (const d of devices)
          if (d.sn.startsWith('DEAD') && d.state !== 'queued') sentToStranded.add(d.sn);
        moved = devices.filter((d) => d.sn.startsWith('MOVE'));
        await sleep(200);
      }
      console.log(
        `dead node: devices shown offline after ${offlineAfterMs ?? 'more than'} ms` +
          `${offlineAfterMs === null ? ` ${watchUntil - killedAt}` : ''}; campaign sent to ` +
          `${sentToStranded.size} of them`,
      );
      expect(offlineAfterMs).not.toBeNull();
      expect(offlineAfterMs).toBeLessThanOrEqual(OFFLINE_WITHIN_MS);
      expect([...sentToStranded]).toEqual([]);
      // The devices that moved to node B are online there and the campaign went on with them.
      expect(await online('MOVE')).toBe(MOVING);
      expect(moved.map((d) => d.state)).toEqual(Array<string>(MOVING).fill('updated'));

      // Node A returns: its devices come back to it and the campaign finishes.
      await a.boot();
      await until(async () => (await online('DEAD')) === STRANDED, 'node A’s devices back', 90_000);
      await until(
        async () => (await campaignDevices()).every((d) => d.state === 'updated'),
        'the campaign through on every device',
        30_000,
      );
    } finally {
      await Promise.all(fleets.map((fleet) => fleet.stop()));
      for (const node of nodes) await node.remove();
      await Promise.all([pg.remove(), redis.remove()]);
    }
  }, 240_000);
});
