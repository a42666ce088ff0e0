import { RESTART_KINDS, type TExpectedRestart, type TRestartKind } from '@blrms/contracts';
import type { DeviceTable } from '../../platform/db/schema.js';
import { iso } from '../../platform/http/paging.js';

const isRestartKind = (kind: string | null | undefined): kind is TRestartKind =>
  (RESTART_KINDS as readonly (string | null | undefined)[]).includes(kind);

/** The restart the platform expects of a device, while its window lasts; else null. */
export function expectedRestart(
  row: Pick<DeviceTable, 'restart_kind' | 'restart_until'>,
  now: number,
): TExpectedRestart | null {
  const until = row.restart_until ?? null;
  if (!isRestartKind(row.restart_kind) || until === null || until <= now) return null;
  return { kind: row.restart_kind, until: iso(until) };
}
