import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as contracts from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { CONTRACT_MESSAGES_ZH, validationProblems } from './validation-message.js';

/** What zod keeps of a schema: its definition, with custom messages as `error` functions. */
type Node = { _zod: { def: Record<string, unknown> } };

const isSchema = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** The custom message of a schema or check, if it has one. */
function messageOf(def: Record<string, unknown>): string | null {
  const error = def.error;
  if (typeof error !== 'function') return null;
  try {
    const result: unknown = error({ code: 'custom', input: undefined, path: [] });
    if (typeof result === 'string') return result;
    if (typeof result === 'object' && result !== null && 'message' in result) {
      return String(result.message);
    }
  } catch {
    // An error map that needs a real issue is not a fixed text.
  }
  return null;
}

/** Every custom message reachable from a schema: its own, its checks', its parts'. */
function collect(value: unknown, found: Set<string>, seen: Set<unknown>): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found, seen);
    return;
  }
  if (!isSchema(value)) {
    // Object shapes and the like: their values may be schemas.
    for (const item of Object.values(value)) collect(item, found, seen);
    return;
  }
  const def = value._zod.def;
  const own = messageOf(def);
  if (own) found.add(own);
  for (const [key, part] of Object.entries(def)) {
    if (key === 'getter' && typeof part === 'function') collect(part(), found, seen);
    else if (key === 'checks' && Array.isArray(part)) {
      for (const check of part) {
        if (!isSchema(check)) continue;
        const text = messageOf(check._zod.def);
        if (text) found.add(text);
      }
    } else collect(part, found, seen);
  }
}

/** Messages written inside `superRefine` bodies, which no schema walk can see. */
function addIssueMessages(): string[] {
  const dir = fileURLToPath(new URL('../../../../packages/contracts/src/', import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .flatMap((f) =>
      [
        ...readFileSync(`${dir}${f}`, 'utf8').matchAll(/addIssue\(\{[^}]*?message:\s*'([^']+)'/g),
      ].map((m) => m[1] ?? ''),
    );
}

describe('Chinese text of the contracts’ custom validation messages', () => {
  const found = new Set<string>();
  collect(Object.values(contracts), found, new Set());
  for (const text of addIssueMessages()) found.add(text);

  it('finds the messages of the contracts (the walk itself works)', () => {
    expect(found).toContain('must be a 32-character id');
    expect(found).toContain('must equal password');
    expect(found).toContain('required for an upgrade');
  });

  // A message added to packages/contracts without its Chinese text fails here, not in a 400.
  it('has a Chinese entry for every one of them', () => {
    const missing = [...found].filter((text) => !CONTRACT_MESSAGES_ZH[text]).sort();
    expect(missing).toEqual([]);
  });

  it('answers a Chinese request with the Chinese rule, an English one with the contract’s', () => {
    const issue = {
      keyword: 'custom',
      instancePath: '/perms',
      schemaPath: '',
      params: {},
      message: 'comma-separated codes like device:list',
    };
    expect(validationProblems([issue], 'body', 'zh-CN')).toEqual([
      { field: 'perms', message: '必须是以逗号分隔的编码，如 device:list' },
    ]);
    expect(validationProblems([issue], 'body', 'en-US')).toEqual([
      { field: 'perms', message: 'comma-separated codes like device:list' },
    ]);
  });
});
