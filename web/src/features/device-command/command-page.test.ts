import type { TDeviceCommand } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { formatResult, parseParams, replyMs, withCommand } from './command-page';

const command = (id: string, change: Partial<TDeviceCommand> = {}): TDeviceCommand => ({
  id: id.padEnd(32, '0'),
  deviceId: 'd'.repeat(32),
  sn: 'SN-1',
  method: 'ping',
  params: null,
  timeoutSec: 30,
  state: 'sent',
  result: null,
  error: null,
  createBy: 'admin',
  createTime: '2026-01-01T00:00:00.000Z',
  replyTime: null,
  lateReply: null,
  ...change,
});

describe('withCommand: a command list following sends and answers', () => {
  const page = { records: [command('b'), command('a')], total: 12 };

  it('puts a new command at the top of the first page and drops the last row', () => {
    const next = withCommand(page, 1, 2, command('c'));
    expect(next.records.map((c) => c.id[0])).toEqual(['c', 'b']);
    expect(next.total).toBe(13);
  });

  it('only counts a new command on a later page', () => {
    expect(withCommand(page, 2, 2, command('c'))).toEqual({ ...page, total: 13 });
  });

  it('replaces a known command with its outcome in place', () => {
    const answered = command('a', { state: 'succeeded', result: 'pong' });
    const next = withCommand(page, 1, 2, answered);
    expect(next.records[1]).toBe(answered);
    expect(next.total).toBe(12);
  });

  it('keeps an outcome that arrived before the response to the send', () => {
    const answered = { records: [command('a', { state: 'succeeded' })], total: 1 };
    expect(withCommand(answered, 1, 10, command('a'))).toBe(answered);
  });
});

describe('replyMs', () => {
  it('is the time to the answer, and nothing while waiting or after a timeout', () => {
    expect(
      replyMs(command('a', { state: 'succeeded', replyTime: '2026-01-01T00:00:00.045Z' })),
    ).toBe(45);
    expect(replyMs(command('a'))).toBeNull();
    expect(
      replyMs(command('a', { state: 'timeout', replyTime: '2026-01-01T00:00:30.000Z' })),
    ).toBeNull();
  });
});

describe('formatResult', () => {
  it('shows strings as they are and anything else as indented JSON', () => {
    expect(formatResult('pong')).toBe('pong');
    expect(formatResult({ version: 3 })).toBe('{\n  "version": 3\n}');
    expect(formatResult(null)).toBe('');
  });
});

describe('parseParams', () => {
  it('takes a JSON object or nothing, and says why anything else is refused', () => {
    expect(parseParams('')).toEqual({ params: undefined });
    expect(parseParams(' {"on": true} ')).toEqual({ params: { on: true } });
    expect(parseParams('{on: true}')).toEqual({ problem: 'json' });
    expect(parseParams('[1, 2]')).toEqual({ problem: 'object' });
    expect(parseParams('"on"')).toEqual({ problem: 'object' });
  });
});
