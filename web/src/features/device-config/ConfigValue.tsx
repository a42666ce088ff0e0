import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ConfigOption, ConfigValueField } from './config-fields';
import { fieldLabel, optionLabel } from './config-labels';

const MASK = '••••••••';

function isOption(value: unknown): value is ConfigOption {
  return typeof value === 'string' || typeof value === 'number';
}

/** A value as text: options and switches in words, secrets masked, list rows one per line. */
export function configValueText(
  t: TFunction,
  field: ConfigValueField | null,
  value: unknown,
): string | null {
  if (value === undefined || value === null) return null;
  if (!field) return typeof value === 'string' ? value : JSON.stringify(value);
  switch (field.kind) {
    case 'switch':
      return value === true ? t('common.on') : value === false ? t('common.off') : String(value);
    case 'select':
      return isOption(value) ? optionLabel(t, field, value) : JSON.stringify(value);
    case 'text':
      if (value === '') return '';
      return field.password ? MASK : String(value);
    case 'number':
      return String(value);
    case 'tags':
      return Array.isArray(value) ? value.join(', ') : JSON.stringify(value);
    case 'list':
      if (!Array.isArray(value)) return JSON.stringify(value);
      return value
        .map((row: unknown) =>
          field.item
            .map((item) => {
              if (item.kind === 'section') return null;
              const cell = configValueText(t, item, (row as Record<string, unknown>)[item.key]);
              return `${fieldLabel(t, item)}: ${cell ?? '-'}`;
            })
            .filter(Boolean)
            .join(' · '),
        )
        .join('\n');
  }
}

/**
 * A configuration value in a table cell; absent and empty values say so. What the device runs
 * but has not reported is `unknown`, which is not the same as empty.
 */
export function ConfigValue({
  field,
  value,
  absent = 'unset',
}: {
  field: ConfigValueField | null;
  value: unknown;
  absent?: 'unset' | 'unknown';
}) {
  const { t } = useTranslation();
  const text = configValueText(t, field, value);
  if (text === null && absent === 'unknown') {
    return (
      <Typography.Text type="secondary" italic data-testid="config-unknown">
        {t('deviceConfig.view.unknown')}
      </Typography.Text>
    );
  }
  if (text === null) return <Typography.Text type="secondary">-</Typography.Text>;
  if (text === '') {
    const empty =
      field?.kind === 'list' || field?.kind === 'tags'
        ? t('deviceConfig.view.noItems')
        : t('deviceConfig.view.empty');
    return <Typography.Text type="secondary">{empty}</Typography.Text>;
  }
  return <span style={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>{text}</span>;
}
