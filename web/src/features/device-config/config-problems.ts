import type { TDeviceSeries } from '@blrms/contracts';
import { CONFIG_DEFAULTS, CONFIG_SCHEMAS, mergePatch } from '@blrms/contracts';
import type { TFunction } from 'i18next';
import type { ConfigField, ConfigValueField } from './config-fields';
import { configFields, formNameOf, valueAt } from './config-fields';
import { optionLabel } from './config-labels';

/*
 * What is wrong with a configuration, in the console's language and on the field it concerns.
 * The rules are the contracts' zod schemas (the ones the server and the simulator apply), so the
 * form refuses exactly what the server would, before anything is sent.
 */

export type FormName = (string | number)[];
export type FieldProblems = { name: FormName; errors: string[] }[];
export type ConfigProblems = { fields: FieldProblems; rest: string[] };

type Issue = {
  code: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  keys?: string[];
};

/** The contracts' own messages (English, in `device-config.ts`), by their translation key. */
const CONTRACT_MESSAGES: Record<string, 'ipv4' | 'controlChars' | 'phone' | 'lowBelowHigh'> = {
  'must be an IPv4 address': 'ipv4',
  'must not contain control characters': 'controlChars',
  'must be a phone number': 'phone',
  'low threshold must be below high threshold': 'lowBelowHigh',
};

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function issueText(t: TFunction, issue: Issue, field: ConfigValueField, value: unknown): string {
  const n = Number(issue.minimum ?? issue.maximum);
  switch (issue.code) {
    case 'invalid_type':
      if (isBlank(value)) return t('deviceConfig.rule.required');
      if (issue.expected === 'int') return t('deviceConfig.rule.integer');
      return issue.expected === 'number'
        ? t('deviceConfig.rule.number')
        : t('deviceConfig.rule.invalid');
    case 'too_small':
    case 'too_big': {
      if (issue.origin === 'string') {
        if (isBlank(value)) return t('deviceConfig.rule.required');
        return issue.code === 'too_small'
          ? t('deviceConfig.rule.minLength', { n })
          : t('deviceConfig.rule.maxLength', { n });
      }
      if (issue.origin === 'array') return t('deviceConfig.rule.maxItems', { n });
      if (field.kind === 'number' && field.min !== undefined && field.max !== undefined) {
        return t('deviceConfig.rule.between', { min: field.min, max: field.max });
      }
      return issue.code === 'too_small'
        ? t('deviceConfig.rule.min', { n })
        : t('deviceConfig.rule.max', { n });
    }
    case 'invalid_value':
    case 'invalid_union':
      if (isBlank(value)) return t('deviceConfig.rule.required');
      if (field.kind === 'select') {
        const values = field.options.map((o) => optionLabel(t, field, o)).join(', ');
        return t('deviceConfig.rule.oneOf', { values });
      }
      return t('deviceConfig.rule.invalid');
    default: {
      const key = CONTRACT_MESSAGES[issue.message];
      return key ? t(`deviceConfig.rule.${key}`) : issue.message;
    }
  }
}

/** The problems of a whole configuration, each on its form field where it has one. */
export function configProblems(
  t: TFunction,
  series: TDeviceSeries,
  config: unknown,
  fields: ConfigField[] = configFields(series),
): ConfigProblems {
  const parsed = CONFIG_SCHEMAS[series].safeParse(config);
  const out: ConfigProblems = { fields: [], rest: [] };
  if (parsed.success) return out;
  for (const issue of parsed.error.issues as Issue[]) {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const target = formNameOf(fields, path);
    if (!target) {
      const where = path.join('.') || t('deviceConfig.rule.wholeConfig');
      const text =
        issue.code === 'unrecognized_keys'
          ? t('deviceConfig.rule.unknownKeys', { keys: (issue.keys ?? []).join(', ') })
          : issue.message;
      out.rest.push(`${where}: ${text}`);
      continue;
    }
    const value = valueAt(config, path.join('.'));
    let text = issueText(t, issue, target.field, value);
    // A tag list's problem names the tag it is about.
    if (target.rest.length > 0) text = `“${String(value)}”: ${text}`;
    const key = target.name.join('.');
    const entry = out.fields.find((f) => f.name.join('.') === key);
    if (entry) entry.errors.push(text);
    else out.fields.push({ name: target.name, errors: [text] });
  }
  return out;
}

/**
 * The problems of a bulk change: its patch is checked on the series' factory settings (every
 * device's configuration has the same shape), and only the fields it sets can be wrong.
 */
export function patchProblems(
  t: TFunction,
  series: TDeviceSeries,
  patch: Record<string, unknown>,
): ConfigProblems {
  return configProblems(t, series, mergePatch(CONFIG_DEFAULTS[series], patch));
}

/** The errors a problem list has for one form field. */
export function errorsAt(problems: ConfigProblems, name: FormName): string[] {
  const key = name.join('.');
  return problems.fields.find((f) => f.name.join('.') === key)?.errors ?? [];
}

/**
 * The form field a server message's path names: the server may name it from the request body
 * (`config.wan.apn`) or from the configuration itself (`wan.apn`).
 */
export function serverFieldName(fields: ConfigField[], path: string[]): FormName | null {
  const inConfig = path[0] === 'config' ? path.slice(1) : path;
  const segments = inConfig.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return formNameOf(fields, segments)?.name ?? null;
}
