import { z } from 'zod';
import { ZId, ZPageQuery, ZTimeZone, ZTimestamp, pageOf } from './common.js';
import { ZDictCode } from './dict.js';
import { OSS_FILE_MAX_BYTES } from './oss-files.js';

/* Online forms (在线表单, `/online/form/*` and `/online/data/{code}/*`) ---------------------------
 * An administrator defines a form (fields, their types and rules); publishing it adds a list page
 * to the menu. Definitions are data only: they never carry SQL or scripts, and records are stored
 * in fixed tables and checked against the definition with `recordSchema` (here, so the console
 * checks with the same rules as the server).
 */

/** Forms one company may define. */
export const ONLINE_FORMS_MAX = 200;
/** Fields of one form. */
export const ONLINE_FORM_FIELDS_MAX = 50;
/** The longest text value (text and long text fields). */
export const ONLINE_FORM_TEXT_MAX = 2000;
/** A record's values as JSON, in bytes (UTF-8). */
export const ONLINE_FORM_RECORD_MAX_BYTES = 64 * 1024;
/** Rows of a record page. */
export const ONLINE_FORM_PAGE_SIZE_MAX = 100;
/** Import: the file's size and its data rows. */
export const ONLINE_FORM_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const ONLINE_FORM_IMPORT_ROWS_MAX = 10_000;
/** Longest pattern of a text field (RE2 syntax, checked by the server). */
export const ONLINE_FORM_PATTERN_MAX = 200;
/** Decimal places a number field may keep. */
export const ONLINE_FORM_PRECISION_MAX = 6;
/** Record ids of one batch delete. */
export const ONLINE_FORM_BATCH_MAX = 100;

export const ONLINE_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'date',
  'datetime',
  'switch',
  'select',
  'device',
  'location',
  'file',
] as const;
export type TOnlineFieldType = (typeof ONLINE_FIELD_TYPES)[number];

/** Types whose values may be declared unique in the form. */
export const ONLINE_UNIQUE_TYPES: readonly TOnlineFieldType[] = [
  'text',
  'number',
  'date',
  'datetime',
  'select',
  'device',
  'location',
];
/** Types the record list can be sorted by. */
export const ONLINE_SORTABLE_TYPES: readonly TOnlineFieldType[] = [
  'text',
  'number',
  'date',
  'datetime',
  'switch',
  'select',
];
/** Types the record list can be searched by (every type but file). */
export const ONLINE_SEARCHABLE_TYPES: readonly TOnlineFieldType[] = ONLINE_FIELD_TYPES.filter(
  (t) => t !== 'file',
);

export const ZOnlineFormCode = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{1,31}$/,
    'must be 2-32 lowercase letters, digits or _, starting with a letter',
  );
export const ZOnlineFieldKey = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,31}$/,
    'must be 1-32 lowercase letters, digits or _, starting with a letter',
  );

/** Printable text without line breaks or control characters; blanks are trimmed. */
const ZLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/** A calendar day, `YYYY-MM-DD`. */
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
function isDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
export const ZOnlineDate = z.string().refine(isDate, 'must be a date such as 2026-01-31');
/** An instant with its offset (`2026-01-31T08:00:00.000Z`); the server stores it in UTC. */
export const ZOnlineDateTime = z.iso.datetime({ offset: true });

const fieldBase = {
  key: ZOnlineFieldKey,
  label: ZLine(64).min(1),
  labelEn: ZLine(64).nullish(),
  required: z.boolean().default(false),
  unique: z.boolean().default(false).describe('No two records of the form may hold the same value'),
  searchable: z.boolean().default(false).describe('The record list can be searched by it'),
  listed: z.boolean().default(true).describe('Shown as a column of the record list'),
  sortable: z.boolean().default(false).describe('The record list can be sorted by it'),
};

const ZLength = z.number().int().min(0).max(ONLINE_FORM_TEXT_MAX);

export const ZOnlineTextField = z
  .object({
    ...fieldBase,
    type: z.literal('text'),
    minLength: ZLength.nullish(),
    maxLength: ZLength.min(1).nullish().describe(`Default and ceiling ${ONLINE_FORM_TEXT_MAX}`),
    pattern: z
      .string()
      .max(ONLINE_FORM_PATTERN_MAX)
      .nullish()
      .describe('RE2 regular expression the whole value must match; the server compiles it'),
    patternHint: ZLine(100).nullish().describe('Shown when the pattern does not match'),
    defaultValue: z.string().max(ONLINE_FORM_TEXT_MAX).nullish(),
  })
  .strict();

export const ZOnlineTextareaField = z
  .object({
    ...fieldBase,
    type: z.literal('textarea'),
    minLength: ZLength.nullish(),
    maxLength: ZLength.min(1).nullish(),
    defaultValue: z.string().max(ONLINE_FORM_TEXT_MAX).nullish(),
  })
  .strict();

export const ZOnlineNumberField = z
  .object({
    ...fieldBase,
    type: z.literal('number'),
    min: z.number().finite().nullish(),
    max: z.number().finite().nullish(),
    precision: z
      .number()
      .int()
      .min(0)
      .max(ONLINE_FORM_PRECISION_MAX)
      .default(0)
      .describe('Decimal places allowed (0: whole numbers)'),
    defaultValue: z.number().finite().nullish(),
  })
  .strict();

export const ZOnlineDateField = z
  .object({ ...fieldBase, type: z.literal('date'), defaultValue: ZOnlineDate.nullish() })
  .strict();

export const ZOnlineDateTimeField = z
  .object({ ...fieldBase, type: z.literal('datetime'), defaultValue: ZOnlineDateTime.nullish() })
  .strict();

export const ZOnlineSwitchField = z
  .object({ ...fieldBase, type: z.literal('switch'), defaultValue: z.boolean().nullish() })
  .strict();

export const ZOnlineSelectField = z
  .object({
    ...fieldBase,
    type: z.literal('select'),
    dictCode: ZDictCode.describe('Dictionary whose enabled items are the options'),
    defaultValue: z.string().max(100).nullish(),
  })
  .strict();

export const ZOnlineDeviceField = z
  .object({ ...fieldBase, type: z.literal('device') })
  .strict()
  .describe('A device of the company (its id); the list shows its SN and name');

export const ZOnlineLocationField = z
  .object({ ...fieldBase, type: z.literal('location') })
  .strict()
  .describe('A location of the company (base data; its id); the list shows its name');

export const ZOnlineFileExtension = z
  .string()
  .regex(/^\.[a-z0-9]{1,10}$/, 'must be an extension such as .pdf');

export const ZOnlineFileField = z
  .object({
    ...fieldBase,
    type: z.literal('file'),
    accept: z
      .array(ZOnlineFileExtension)
      .max(20)
      .nullish()
      .describe('Extensions the file name may end with; empty or absent: any'),
    maxSize: z.number().int().min(1).max(OSS_FILE_MAX_BYTES).nullish().describe('Bytes'),
  })
  .strict()
  .describe('A file of the file library (its id)');

export const ZOnlineField = z.discriminatedUnion('type', [
  ZOnlineTextField,
  ZOnlineTextareaField,
  ZOnlineNumberField,
  ZOnlineDateField,
  ZOnlineDateTimeField,
  ZOnlineSwitchField,
  ZOnlineSelectField,
  ZOnlineDeviceField,
  ZOnlineLocationField,
  ZOnlineFileField,
]);
/** A field as stored and returned (defaults applied). */
export type TOnlineField = z.infer<typeof ZOnlineField>;
/** A field as a client may send it (defaults optional). */
export type TOnlineFieldInput = z.input<typeof ZOnlineField>;

/** What a record value may be: text, number, switch state, or nothing. */
export const ZOnlineValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type TOnlineValue = z.infer<typeof ZOnlineValue>;
export const ZOnlineRecordData = z.record(z.string(), ZOnlineValue);
export type TOnlineRecordData = z.infer<typeof ZOnlineRecordData>;

/**
 * How the field's values are matched against a pattern. The contracts depend on zod only, so the
 * caller supplies the RE2 matcher (the server uses RE2JS); without one the pattern is not checked.
 */
export type TPatternMatcher = (pattern: string, value: string) => boolean;

/** Options of `recordSchema`. */
export type TRecordSchemaOptions = { matchPattern?: TPatternMatcher };

function decimals(value: number): number {
  if (Number.isInteger(value)) return 0;
  const text = String(value);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) return Number(exp[1]) + (text.split('e')[0]!.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

/** The schema of one field's value when present (empty values are handled by `recordSchema`). */
export function fieldValueSchema(field: TOnlineField, options: TRecordSchemaOptions = {}) {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      let schema = z
        .string()
        .min(Math.max(1, field.minLength ?? 1))
        .max(Math.min(field.maxLength ?? ONLINE_FORM_TEXT_MAX, ONLINE_FORM_TEXT_MAX));
      if (field.type === 'text') {
        // eslint-disable-next-line no-control-regex
        schema = schema.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');
        const { pattern } = field;
        const match = options.matchPattern;
        if (pattern && match) {
          return schema.refine((v) => match(pattern, v), {
            message: 'does not match the required format',
            params: { rule: 'pattern', hint: field.patternHint ?? null },
          });
        }
      }
      return schema;
    }
    case 'number': {
      let schema = z.number().finite();
      if (field.min != null) schema = schema.min(field.min);
      if (field.max != null) schema = schema.max(field.max);
      const places = field.precision;
      return schema.refine((v) => decimals(v) <= places, {
        message: 'has too many decimal places',
        params: { rule: 'precision', precision: places },
      });
    }
    case 'date':
      return ZOnlineDate;
    case 'datetime':
      return ZOnlineDateTime;
    case 'switch':
      return z.boolean();
    case 'select':
      return z.string().min(1).max(100);
    case 'device':
    case 'location':
    case 'file':
      return ZId;
  }
}

/** Empty for a form: absent, null or a text of blanks. */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

/**
 * The zod schema of a record's values under a definition: one optional (or required) entry per
 * field, no other keys. Texts are trimmed and empty values become null. Checks that need the
 * database (select items, device/location/file ids, unique values) are the server's.
 */
export function recordSchema(fields: readonly TOnlineField[], options: TRecordSchemaOptions = {}) {
  const shape: Record<string, z.ZodType<TOnlineValue>> = {};
  for (const field of fields) {
    const value = fieldValueSchema(field, options) as z.ZodType<TOnlineValue>;
    const normalised = z.preprocess(
      (v) =>
        isEmptyValue(v) ? null : typeof v === 'string' && field.type !== 'textarea' ? v.trim() : v,
      field.required ? value.nullable().refine((v) => v !== null, 'is required') : value.nullable(),
    );
    shape[field.key] = (
      field.required ? normalised : normalised.optional()
    ) as z.ZodType<TOnlineValue>;
  }
  return z.object(shape).strict();
}

/* Definitions -------------------------------------------------------------------------------- */

export const ONLINE_FORM_STATUSES = ['draft', 'published'] as const;
export type TOnlineFormStatus = (typeof ONLINE_FORM_STATUSES)[number];

function checkFields(fields: readonly TOnlineField[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    const at = (name: string) => ['fields', i, name];
    if (seen.has(field.key)) {
      ctx.addIssue({ code: 'custom', path: at('key'), message: 'must be unique in the form' });
    }
    seen.add(field.key);
    if (field.unique && !ONLINE_UNIQUE_TYPES.includes(field.type)) {
      ctx.addIssue({ code: 'custom', path: at('unique'), message: 'not available for this type' });
    }
    if (field.sortable && !ONLINE_SORTABLE_TYPES.includes(field.type)) {
      ctx.addIssue({
        code: 'custom',
        path: at('sortable'),
        message: 'not available for this type',
      });
    }
    if (field.searchable && !ONLINE_SEARCHABLE_TYPES.includes(field.type)) {
      ctx.addIssue({
        code: 'custom',
        path: at('searchable'),
        message: 'not available for this type',
      });
    }
    if (
      field.type === 'number' &&
      field.min != null &&
      field.max != null &&
      field.max < field.min
    ) {
      ctx.addIssue({
        code: 'custom',
        path: at('max'),
        message: 'must not be less than the minimum',
      });
    }
    if (
      (field.type === 'text' || field.type === 'textarea') &&
      field.minLength != null &&
      field.maxLength != null &&
      field.maxLength < field.minLength
    ) {
      ctx.addIssue({
        code: 'custom',
        path: at('maxLength'),
        message: 'must not be less than the minimum',
      });
    }
    if ('defaultValue' in field && !isEmptyValue(field.defaultValue)) {
      // The pattern is left to the server, which compiles it.
      if (!fieldValueSchema(field).safeParse(field.defaultValue).success) {
        ctx.addIssue({
          code: 'custom',
          path: at('defaultValue'),
          message: 'does not satisfy the field’s rules',
        });
      }
    }
  });
}

export const ZOnlineFormInput = z
  .object({
    code: ZOnlineFormCode.describe(
      'Part of the page URL and the permission codes (online:{code}:list)',
    ),
    name: ZLine(64).min(1),
    nameEn: ZLine(64).nullish(),
    description: ZLine(255).nullish(),
    fields: z.array(ZOnlineField).min(1).max(ONLINE_FORM_FIELDS_MAX),
  })
  .strict()
  .superRefine((form, ctx) => checkFields(form.fields, ctx));
export type TOnlineFormInput = z.input<typeof ZOnlineFormInput>;

export const ZOnlineFormEdit = z
  .object({
    id: ZId,
    code: ZOnlineFormCode.describe('Cannot change once the form was published'),
    name: ZLine(64).min(1),
    nameEn: ZLine(64).nullish(),
    description: ZLine(255).nullish(),
    fields: z.array(ZOnlineField).min(1).max(ONLINE_FORM_FIELDS_MAX),
  })
  .strict()
  .superRefine((form, ctx) => checkFields(form.fields, ctx));
export type TOnlineFormEdit = z.input<typeof ZOnlineFormEdit>;

export const ZOnlineForm = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
  description: z.string().nullable(),
  fields: z.array(ZOnlineField),
  status: z.enum(ONLINE_FORM_STATUSES),
  version: z.number().int().describe('Raised by every change of the definition'),
  records: z.number().int().describe('Records of the form'),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
  publishTime: ZTimestamp.nullable(),
});
export type TOnlineForm = z.infer<typeof ZOnlineForm>;

export const ONLINE_FORM_SORT_COLUMNS = ['createTime', 'code', 'name'] as const;
export const ZOnlineFormListQuery = ZPageQuery.extend({
  name: z.string().max(64).optional().describe('Part of the name (either language) or code'),
  status: z.enum(ONLINE_FORM_STATUSES).optional(),
  column: z.enum(ONLINE_FORM_SORT_COLUMNS).default('createTime'),
}).strict();
export type TOnlineFormListQuery = z.infer<typeof ZOnlineFormListQuery>;
export const ZOnlineFormPage = pageOf(ZOnlineForm);

export const ZOnlineFormIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
export const ZOnlineFormIdBody = z.object({ id: ZId }).strict();

/**
 * What a published form's page needs: its definition and what the caller may do there
 * (from the form's permission codes).
 */
export const ZOnlineFormMeta = ZOnlineForm.pick({
  id: true,
  code: true,
  name: true,
  nameEn: true,
  description: true,
  fields: true,
  version: true,
}).extend({
  access: z.object({
    add: z.boolean(),
    edit: z.boolean(),
    delete: z.boolean(),
    export: z.boolean(),
  }),
});
export type TOnlineFormMeta = z.infer<typeof ZOnlineFormMeta>;

/** The permission codes of a published form, e.g. `online:visit:list`. */
export const ONLINE_FORM_ACTIONS = ['list', 'add', 'edit', 'delete', 'export'] as const;
export type TOnlineFormAction = (typeof ONLINE_FORM_ACTIONS)[number];
export const onlineFormPermission = (code: string, action: TOnlineFormAction) =>
  `online:${code}:${action}`;
/** The console route of a published form's records. */
export const onlineFormPageUrl = (code: string) => `/online/data/${code}`;

/* Records ------------------------------------------------------------------------------------ */

export const ZOnlineRecordAdd = z
  .object({
    data: ZOnlineRecordData.describe('Values by field key; checked against the definition'),
  })
  .strict();
export type TOnlineRecordAdd = z.infer<typeof ZOnlineRecordAdd>;
export const ZOnlineRecordEdit = z.object({ id: ZId, data: ZOnlineRecordData }).strict();
export type TOnlineRecordEdit = z.infer<typeof ZOnlineRecordEdit>;

export const ZOnlineRecord = z.object({
  id: ZId,
  data: ZOnlineRecordData.describe(
    'Values of the fields as defined now; removed fields are left out',
  ),
  display: z
    .record(z.string(), z.string())
    .describe(
      'Text to show for select (item text), device (SN / name), location (name), file (file name) ' +
        'and stale values',
    ),
  stale: z
    .array(z.string())
    .describe(
      'Keys whose stored value no longer fits the field’s type (shown as text; fix on edit)',
    ),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
  updateBy: z.string().nullable(),
  updateTime: ZTimestamp.nullable(),
});
export type TOnlineRecord = z.infer<typeof ZOnlineRecord>;

/**
 * Search of the record list, by field key: a text (text and long text: the start of the value, as
 * written, case included, among its first 200 characters; select, device, location: the exact value), a switch state, or a range `{ from, to }` (number: numbers;
 * date: YYYY-MM-DD; date-time: ISO 8601), either end optional and inclusive.
 */
export const ZOnlineSearchValue = z.union([
  z.string().min(1).max(100),
  z.boolean(),
  z
    .object({
      from: z.union([z.number(), z.string().max(40)]).nullish(),
      to: z.union([z.number(), z.string().max(40)]).nullish(),
    })
    .strict(),
]);
export type TOnlineSearchValue = z.infer<typeof ZOnlineSearchValue>;
export const ZOnlineSearch = z.record(ZOnlineFieldKey, ZOnlineSearchValue);
export type TOnlineSearch = z.infer<typeof ZOnlineSearch>;

export const ONLINE_RECORD_FIXED_SORTS = ['createTime', 'updateTime'] as const;
export const ZOnlineRecordListQuery = ZPageQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(ONLINE_FORM_PAGE_SIZE_MAX).default(10),
  column: z
    .string()
    .max(32)
    .default('createTime')
    .describe('createTime, updateTime or the key of a sortable field'),
  search: z
    .string()
    .max(4000)
    .optional()
    .describe('JSON object of searchable field key → search value (see ZOnlineSearch)'),
}).strict();
export type TOnlineRecordListQuery = z.infer<typeof ZOnlineRecordListQuery>;
export const ZOnlineRecordPage = pageOf(ZOnlineRecord);
export type TOnlineRecordPage = z.infer<typeof ZOnlineRecordPage>;

export const ZOnlineRecordExportQuery = z
  .object({
    column: z.string().max(32).default('createTime'),
    order: z.enum(['asc', 'desc']).default('desc'),
    search: z.string().max(4000).optional(),
    format: z.enum(['xlsx', 'csv']).default('xlsx'),
    tz: ZTimeZone.optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TOnlineRecordExportQuery = z.infer<typeof ZOnlineRecordExportQuery>;

export const ZOnlineRecordIds = z
  .object({ ids: z.array(ZId).min(1).max(ONLINE_FORM_BATCH_MAX) })
  .strict();

/** Multipart fields besides the file (part `file`, .xlsx or .csv; header = the fields' labels). */
export const ZOnlineRecordImportQuery = z
  .object({
    dryRun: z.enum(['true', 'false']).default('true').describe('true: validate only (preview)'),
  })
  .strict();

export const ZOnlineImportRowError = z.object({
  row: z.number().int().describe('Row number in the sheet, header is row 1'),
  field: z.string().describe('Field key, or "row"'),
  column: z.string().describe('The column’s header as in the file'),
  message: z.string(),
});
export type TOnlineImportRowError = z.infer<typeof ZOnlineImportRowError>;

/** Good rows are imported, bad rows are reported; a preview (`dryRun`) writes nothing. */
export const ZOnlineRecordImportResult = z.object({
  dryRun: z.boolean(),
  total: z.number().int().describe('Data rows in the file'),
  valid: z.number().int(),
  invalid: z.number().int(),
  imported: z.number().int().describe('Rows written (0 in a preview)'),
  preview: z
    .array(z.object({ row: z.number().int(), data: ZOnlineRecordData }))
    .describe('First 100 good rows'),
  errors: z.array(ZOnlineImportRowError).describe('At most 1000, in row order'),
});
export type TOnlineRecordImportResult = z.infer<typeof ZOnlineRecordImportResult>;

/* History ------------------------------------------------------------------------------------ */

export const ONLINE_HISTORY_ACTIONS = ['add', 'edit', 'delete', 'import'] as const;
export const ZOnlineHistoryChange = z.object({
  key: z.string(),
  label: z
    .string()
    .describe('The field’s label in the request language (the key if removed since)'),
  from: ZOnlineValue,
  to: ZOnlineValue,
});
export const ZOnlineHistoryEntry = z.object({
  id: ZId,
  recordId: ZId,
  action: z.enum(ONLINE_HISTORY_ACTIONS),
  changes: z.array(ZOnlineHistoryChange),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
});
export type TOnlineHistoryEntry = z.infer<typeof ZOnlineHistoryEntry>;
export const ZOnlineHistoryQuery = ZPageQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(ONLINE_FORM_PAGE_SIZE_MAX).default(10),
  recordId: ZId.optional().describe('One record’s history; absent: the form’s'),
}).strict();
export type TOnlineHistoryQuery = z.infer<typeof ZOnlineHistoryQuery>;
export const ZOnlineHistoryPage = pageOf(ZOnlineHistoryEntry);
