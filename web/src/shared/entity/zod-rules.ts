import type { Rule } from 'antd/es/form';
import { z } from 'zod';

/**
 * The messages of the rules, when the form words them itself; a rule without one shows antd's
 * message for its kind, in the console's language (the ConfigProvider's locale).
 */
export type RuleMessages = {
  required?: string;
  pattern?: string;
  maxLength?: (max: number) => string;
  minLength?: (min: number) => string;
  range?: string;
};

/** The schema under `.optional()`, `.nullable()` and `.default()`, where the limits are declared. */
function unwrap(schema: z.ZodType): z.ZodType {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault
  ) {
    return unwrap(schema.unwrap() as z.ZodType);
  }
  return schema;
}

/** Whether the schema trims what it is given: a blank then counts as missing. */
function trims(schema: z.ZodString): boolean {
  const parsed = schema.safeParse(' x ');
  return parsed.success && parsed.data === 'x';
}

function patternsOf(schema: z.ZodString): RegExp[] {
  return (schema.def.checks ?? []).flatMap((check) => {
    const def = check._zod.def;
    return def.check === 'string_format' && 'pattern' in def && def.pattern instanceof RegExp
      ? [def.pattern]
      : [];
  });
}

/**
 * The antd rules of a form field, read from the contract's schema of the request it submits:
 * required when the schema accepts neither its absence nor an empty string (nor a blank when it
 * trims), the string's length limits and patterns, the number's range. The server applies the
 * same schema, so the form refuses before sending what the server would refuse.
 */
export function zodRules(schema: z.ZodObject, field: string, messages: RuleMessages = {}): Rule[] {
  const declared = schema.shape[field];
  if (!declared) throw new Error(`The schema has no field ${field}`);
  const inner = unwrap(declared as z.ZodType);
  const rules: Rule[] = [];
  // antd shows its own message only when the rule has no `message` key at all.
  const message = (text: string | undefined) => (text === undefined ? {} : { message: text });
  const optional = declared.safeParse(undefined).success;
  if (inner instanceof z.ZodString) {
    const { minLength, maxLength } = inner;
    if (!optional && !declared.safeParse('').success) {
      rules.push({
        required: true,
        ...(trims(inner) ? { whitespace: true } : {}),
        ...message(messages.required),
      });
    }
    if (maxLength !== null) {
      rules.push({ max: maxLength, ...message(messages.maxLength?.(maxLength)) });
    }
    if (minLength !== null && minLength > 1) {
      rules.push({ min: minLength, ...message(messages.minLength?.(minLength)) });
    }
    for (const pattern of patternsOf(inner)) rules.push({ pattern, ...message(messages.pattern) });
  } else {
    if (!optional) rules.push({ required: true, ...message(messages.required) });
    if (inner instanceof z.ZodNumber) {
      const { minValue, maxValue } = inner;
      const range = {
        ...(Number.isFinite(minValue) ? { min: minValue ?? undefined } : {}),
        ...(Number.isFinite(maxValue) ? { max: maxValue ?? undefined } : {}),
      };
      if ('min' in range || 'max' in range) {
        rules.push({ type: 'number', ...range, ...message(messages.range) });
      }
    }
  }
  return rules;
}
