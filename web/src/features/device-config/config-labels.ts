import type { TConfigFailure } from '@blrms/contracts';
import type { TFunction } from 'i18next';
import type { ConfigField, ConfigOption, ConfigValueField } from './config-fields';

/*
 * Field labels are translated by path (`deviceConfig.fields['wan.apn']`), option labels by path
 * and value (`deviceConfig.options['wan.mode.lte']`); what the console has no text for shows the
 * schema's title or the value itself.
 */

function table(t: TFunction, key: 'deviceConfig.fields' | 'deviceConfig.options') {
  return t(key, { returnObjects: true }) as Record<string, string | undefined>;
}

export function fieldLabel(t: TFunction, field: Pick<ConfigField, 'path' | 'title'>): string {
  return table(t, 'deviceConfig.fields')[field.path] ?? field.title;
}

/** `WAN / APN`: a field's label with the labels of the sections and list it sits in. */
export function fullLabel(t: TFunction, fields: ConfigField[], path: string): string {
  const keys = path.split('.');
  const labels: string[] = [];
  for (let i = 1; i <= keys.length; i++) {
    const field = findField(fields, keys.slice(0, i).join('.'));
    labels.push(field ? fieldLabel(t, field) : keys[i - 1]!);
  }
  return labels.join(' / ');
}

export function optionLabel(t: TFunction, field: ConfigValueField, value: ConfigOption): string {
  return table(t, 'deviceConfig.options')[`${field.path}.${value}`] ?? String(value);
}

function findField(fields: ConfigField[], path: string): ConfigField | undefined {
  for (const f of fields) {
    if (f.path === path) return f;
    if (path.startsWith(`${f.path}.`)) {
      if (f.kind === 'section') return findField(f.fields, path);
      if (f.kind === 'list') return findField(f.item, path);
    }
  }
  return undefined;
}

/** Why a version failed, in the reader's language (the device's own reason as it said it). */
export function failureText(t: TFunction, failure: TConfigFailure | null): string {
  if (failure?.code === 'no-answer') {
    return t('deviceConfig.failure.noAnswer', { seconds: failure.afterSec });
  }
  return failure?.reason
    ? t('deviceConfig.failure.refused', { reason: failure.reason })
    : t('deviceConfig.failure.refusedNoReason');
}
