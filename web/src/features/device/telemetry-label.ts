import type { TFunction } from 'i18next';

/** Keys devices of every series report, named for people; any other key shows as it is. */
const NUMBERED = /^(di|do|ain|aout)(\d+)$/;

export function telemetryLabel(t: TFunction, key: string): string {
  if (key === 'signal') return t('device.monitor.keys.signal');
  const numbered = NUMBERED.exec(key);
  if (!numbered) return key;
  const [, kind, n = ''] = numbered;
  if (kind === 'di') return t('device.monitor.keys.di', { n });
  if (kind === 'do') return t('device.monitor.keys.do', { n });
  if (kind === 'ain') return t('device.monitor.keys.ain', { n });
  return t('device.monitor.keys.aout', { n });
}

/** The unit shown after a value, when the key has one. */
export function telemetryUnit(key: string): string | undefined {
  return key === 'signal' ? 'dBm' : undefined;
}

/** Signal strength first, then the keys in name order (di1, di2, ..., ain1, ...). */
export function byTelemetryKey(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'signal') return -1;
  if (b === 'signal') return 1;
  return a.localeCompare(b, 'en', { numeric: true });
}
