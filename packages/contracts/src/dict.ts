import { z } from 'zod';

export const ZDictCode = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a dictionary code (letters, digits, _)');

export const ZDictItem = z.object({
  value: z.string(),
  text: z.string().describe('Label in the request language'),
  label: z.string().describe('Same as text'),
  color: z.string().nullable(),
});
export type TDictItem = z.infer<typeof ZDictItem>;
