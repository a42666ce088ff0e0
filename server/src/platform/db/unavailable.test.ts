import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OutageLog, fromDatabase, unavailableCause } from './unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('unavailableCause', () => {
  it('names the cause of connection failures of the database', () => {
    expect(unavailableCause(fromDatabase(withCode('connect ECONNREFUSED', 'ECONNREFUSED')))).toBe(
      'ECONNREFUSED',
    );
    expect(unavailableCause(fromDatabase(withCode('terminating connection', '57P01')))).toBe(
      '57P01',
    );
    expect(
      unavailableCause(fromDatabase(withCode('the database system is starting up', '57P03'))),
    ).toBe('57P03');
    expect(unavailableCause(fromDatabase(withCode('connection failure', '08006')))).toBe('08006');
    expect(
      unavailableCause(fromDatabase(new Error('timeout exceeded when trying to connect'))),
    ).toBe('connect-timeout');
    expect(unavailableCause(fromDatabase(new Error('Connection terminated unexpectedly')))).toBe(
      'connection-terminated',
    );
  });

  it('leaves query errors and other services’ network errors alone', () => {
    // A unique violation, a syntax error: bugs or conflicts, not an outage.
    expect(unavailableCause(fromDatabase(withCode('duplicate key', '23505')))).toBeNull();
    expect(unavailableCause(fromDatabase(withCode('syntax error', '42601')))).toBeNull();
    expect(unavailableCause(fromDatabase(new Error('no such table: sys_log')))).toBeNull();
    // The same code from SMTP or Redis is not the database's.
    expect(unavailableCause(withCode('connect ECONNREFUSED', 'ECONNREFUSED'))).toBeNull();
    expect(unavailableCause('ECONNREFUSED')).toBeNull();
  });
});

describe('OutageLog', () => {
  function logged() {
    let now = 1_000_000;
    const lines: Record<string, unknown>[] = [];
    const outage = new OutageLog(() => now, 15_000);
    const log = pino(
      { base: null, timestamp: false, hooks: { logMethod: outage.hook() } },
      { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    outage.reportTo(log);
    return { outage, log, lines, advance: (ms: number) => (now += ms) };
  }
  const refused = () =>
    fromDatabase(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'));

  it('logs one line per cause and interval, with the count left out and no stack', () => {
    const { log, lines, advance } = logged();
    const request = log.child({ reqId: 'req-1' });
    request.error({ err: refused() }, 'request failed: database unavailable');
    request.error({ err: refused() }, 'request failed: database unavailable');
    log.warn({ err: refused() }, 'campaign engine failed');
    log.warn({ err: fromDatabase(withCode('terminating connection', '57P01')) }, 'idle lost');
    advance(15_000);
    log.error(refused(), 'sweep failed');

    expect(lines).toEqual([
      {
        level: 50,
        reqId: 'req-1',
        database: 'unavailable',
        cause: 'ECONNREFUSED',
        suppressed: 0,
        error: 'connect ECONNREFUSED 127.0.0.1:5432',
        msg: 'request failed: database unavailable',
      },
      {
        level: 40,
        database: 'unavailable',
        cause: '57P01',
        suppressed: 0,
        error: 'terminating connection',
        msg: 'idle lost',
      },
      {
        level: 50,
        database: 'unavailable',
        cause: 'ECONNREFUSED',
        suppressed: 2,
        error: 'connect ECONNREFUSED 127.0.0.1:5432',
        msg: 'sweep failed',
      },
    ]);
  });

  it('says when the database is available again, once, and then logs a new outage at once', () => {
    const { outage, log, lines, advance } = logged();
    outage.available();
    expect(lines).toEqual([]);
    log.error({ err: refused() }, 'request failed');
    log.error({ err: refused() }, 'request failed');
    advance(4_000);
    outage.available();
    outage.available();
    log.error({ err: refused() }, 'request failed');
    expect(lines.map((l) => [l.msg, l.lastedMs ?? null, l.suppressed])).toEqual([
      ['request failed', null, 0],
      ['database available again', 4_000, 1],
      ['request failed', null, 0],
    ]);
  });

  it('passes every other line through unchanged', () => {
    const { log, lines } = logged();
    log.error({ err: new Error('boom') }, 'request failed');
    log.info('plain');
    expect(lines.map((l) => [l.msg, (l.err as { message?: string } | undefined)?.message])).toEqual(
      [
        ['request failed', 'boom'],
        ['plain', undefined],
      ],
    );
  });
});
