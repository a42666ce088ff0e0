import { afterAll, describe, expect, it } from 'vitest';
import { sleep, until } from './support/ports.js';
import { PostgresInstance } from './support/postgres.js';
import { stopAllOwned } from './support/process.js';
import { ServerProcess, type Reply } from './support/server.js';

afterAll(stopAllOwned);

const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 30000);
/** Each call during the outage answers within this (the "about 1 s"). */
const ANSWER_WITHIN_MS = 1500;
/** Lines the server may print during the whole outage: one per cause and interval, not per call. */
const MAX_OUTAGE_LOG_LINES = 10;
/** After PostgreSQL is back, the API answers again within this, without a restart. */
const RECOVERY_WITHIN_MS = 10_000;

const UNAVAILABLE = {
  'zh-CN': '数据库暂不可用，请稍后再试',
  'en-US': 'The database is unavailable; please try again later',
} as const;

interface Device {
  id: string;
  sn: string;
  name: string;
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('PostgreSQL outage', () => {
  it('answers 503 fast in the user’s language, logs once per cause, loses nothing, recovers alone', async () => {
    const pg = await PostgresInstance.create();
    let server: ServerProcess | null = null;
    try {
      server = await ServerProcess.start({ env: { DATABASE_URL: pg.url } });
      const api = server;
      await api.login();
      const token = await api.call<{ id: string }>('POST', '/device/token/add', { name: 'Outage' });
      expect(token.success).toBe(true);
      const tokenId = token.result.id;

      // What the API acknowledged before the outage.
      const acknowledged: Device[] = [];
      for (let i = 0; i < 5; i += 1) {
        const sn = `PG-OUT-${i}`;
        const added = await api.call<{ id: string }>('POST', '/device/device/add', {
          tokenId,
          sn,
          name: `before ${i}`,
          series: 'R40',
        });
        expect(added.success, added.message).toBe(true);
        acknowledged.push({ id: added.result.id, sn, name: `before ${i}` });
      }

      const logBefore = api.log.length;
      await pg.stop();
      const outageStarted = Date.now();
      const replies: { what: string; lang: keyof typeof UNAVAILABLE; reply: Reply }[] = [];
      const refusedSns: string[] = [];
      let round = 0;
      while (Date.now() - outageStarted < OUTAGE_MS) {
        round += 1;
        // Ten rounds in each language: each has logins (below) and a 5 s outage covers both.
        const lang = Math.floor(round / 10) % 2 === 0 ? 'zh-CN' : 'en-US';
        const options = { lang, timeoutMs: 5000 };
        const target = acknowledged[round % acknowledged.length]!;
        const sn = `PG-DURING-${round}`;
        refusedSns.push(sn);
        const calls: [string, () => Promise<Reply>][] = [
          ['list', () => api.call('GET', '/device/device/list', { pageNo: 1 }, options)],
          ['get', () => api.call('GET', '/device/device/queryById', { id: target.id }, options)],
          [
            'create',
            () =>
              api.call(
                'POST',
                '/device/device/add',
                { tokenId, sn, name: 'during', series: 'R40' },
                options,
              ),
          ],
          [
            'update',
            () =>
              api.call(
                'PUT',
                '/device/device/edit',
                { id: target.id, name: 'changed during', series: 'R40', enabled: true },
                options,
              ),
          ],
        ];
        // Not every round: logins are rate limited (30 a minute), refused ones too.
        if (round % 10 === 5) {
          calls.push([
            'login',
            () =>
              api.call(
                'POST',
                '/sys/login',
                { username: 'admin', password: api.adminPassword },
                { ...options, token: '' },
              ),
          ]);
        }
        for (const [what, call] of calls) {
          replies.push({ what, lang, reply: await call() });
        }
        await sleep(200);
      }
      const outageLog = api.log.slice(logBefore);

      const wrong = replies.filter(
        ({ lang, reply }) =>
          reply.status !== 503 ||
          reply.ms > ANSWER_WITHIN_MS ||
          reply.message !== UNAVAILABLE[lang],
      );
      expect
        .soft(
          wrong.slice(0, 5).map(({ what, lang, reply }) => ({
            what,
            lang,
            status: reply.status,
            ms: reply.ms,
            message: reply.message,
          })),
          `${wrong.length} of ${replies.length} calls`,
        )
        .toEqual([]);
      expect(replies.length).toBeGreaterThan(10);
      expect
        .soft(lines(outageLog).length, outageLog.slice(0, 4000))
        .toBeLessThanOrEqual(MAX_OUTAGE_LOG_LINES);

      await pg.start();
      const back = Date.now();
      await until(
        async () => (await api.call('GET', '/device/device/list', { pageNo: 1 })).status === 200,
        'the API to answer again',
        RECOVERY_WITHIN_MS,
      );
      const recoveredMs = Date.now() - back;
      // Logging in again works too (a fresh session, not only the cached one).
      await api.login();

      for (const device of acknowledged) {
        const found = await api.call<Device>('GET', '/device/device/queryById', { id: device.id });
        expect(found.status, device.sn).toBe(200);
        expect({ sn: found.result.sn, name: found.result.name }).toEqual({
          sn: device.sn,
          name: device.name,
        });
      }
      for (const sn of refusedSns) {
        const listed = await api.call<{ total: number }>('GET', '/device/device/list', {
          pageNo: 1,
          sn,
        });
        expect(listed.result.total, sn).toBe(0);
      }
      console.info(
        `database outage: ${replies.length} calls in ${OUTAGE_MS} ms, slowest ${Math.max(
          ...replies.map((r) => r.reply.ms),
        )} ms, ${lines(outageLog).length} log lines, recovered in ${recoveredMs} ms\n${lines(
          outageLog,
        )
          .map((line) => line.slice(0, 300))
          .join('\n')}`,
      );
    } finally {
      await server?.remove();
      await pg.remove();
    }
  });
});
