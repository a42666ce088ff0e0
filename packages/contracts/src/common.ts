import { z } from 'zod';

/** Row ids: 32 lowercase hex characters (a UUID without dashes). */
export const ZId = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'must be a 32-character id')
  .describe('Record id (32 hex characters)');
export type TId = z.infer<typeof ZId>;

/** Every JSON response: `code` is 200 on success, else equal to the HTTP status. */
export function envelope<T extends z.ZodType>(result: T) {
  return z.object({
    success: z.boolean(),
    message: z.string(),
    code: z.number().int(),
    result,
    timestamp: z.number().int().describe('Server time, epoch milliseconds'),
  });
}

/** A problem of the request that concerns one field: its path (`target.groupId`) and rule. */
export const ZFieldError = z.object({
  field: z.string().describe('Path of the field in the request, dot-separated'),
  message: z.string().describe('The rule it breaks, in the request language, without the field'),
});
export type TFieldError = z.infer<typeof ZFieldError>;

export const ZErrorEnvelope = envelope(z.null()).extend({
  errors: z
    .array(ZFieldError)
    .optional()
    .describe('Field problems of a 4xx, for a form to show under each field'),
});
export type TErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

/**
 * The envelope of a response whose result is a `T`, with the field problems of a 4xx: the type of
 * `envelope(schema)` for a caller that holds the result's type rather than its schema.
 */
export type TEnvelope<T> = z.infer<ReturnType<typeof envelope<z.ZodType<T>>>> &
  Pick<TErrorEnvelope, 'errors'>;

export const PAGE_SIZE_MAX = 1000;

/** Paging query of every list endpoint. */
export const ZPageQuery = z.object({
  pageNo: z.coerce.number().int().min(1).default(1).describe('Page number, from 1'),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(10).describe('Rows per page'),
  order: z.enum(['asc', 'desc']).default('desc').describe('Sort direction'),
  _t: z.string().optional().describe('Cache buster, ignored'),
});

export function pageOf<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int(),
    size: z.number().int(),
    current: z.number().int(),
    pages: z.number().int(),
  });
}

/** A page of `T`: the type of `pageOf(schema)` for a caller that holds the row's type. */
export type TPage<T> = z.infer<ReturnType<typeof pageOf<z.ZodType<T>>>>;

/** Timestamps cross the API as ISO 8601 strings; the console shows them as YYYY-MM-DD HH:mm:ss. */
export const ZTimestamp = z.string().describe('ISO 8601 time');

/** Whether the runtime knows this IANA zone name (Intl throws a RangeError when it does not). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The requester's IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), so that
 * exported times read as the console shows them.
 */
export const ZTimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai');

export const ZCacheBuster = z.object({ _t: z.string().optional() });
