import type { TFunction } from 'i18next';
import type { RuleMessages } from './zod-rules';

/** The console's usual texts of a field's rules: "{field} is required", "at most {max} characters". */
export const fieldRuleMessages = (t: TFunction, field: string): RuleMessages => ({
  required: t('form.required', { field }),
  maxLength: (max) => t('form.maxLength', { field, max }),
});
