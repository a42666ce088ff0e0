import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FEATURE_CATALOGS } from './feature-catalogs';
import zhCN from './zh-CN';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHELL = 'shell';

function keysOf(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

/** The source files that read texts: everything but the catalogs themselves. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return path.endsWith('/app/i18n') || entry.name === 'messages' ? [] : sourceFiles(path);
    }
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The keys a file names: whole (`'device.sn'`), or a table or a family (`device.state.${s}`). */
function keysNamed(text: string, keys: string[]): string[] {
  const whole = new Set([...text.matchAll(/(['"`])([A-Za-z][\w.-]*)\1/g)].map(([, , s = '']) => s));
  const prefixes = [
    ...[...whole].filter((s) => s.includes('.')).map((s) => `${s}.`),
    ...[...text.matchAll(/`([A-Za-z][\w-]*\.[\w.-]*)\$\{/g)].map(([, head = '']) => head),
  ];
  return keys.filter((k) => whole.has(k) || prefixes.some((p) => k.startsWith(p)));
}

describe('where each text lives', () => {
  it('keeps every key a file reads in the shell catalog or in its own feature catalog', async () => {
    const catalogOf = new Map(keysOf(zhCN).map((key) => [key, SHELL]));
    for (const [feature, load] of Object.entries(FEATURE_CATALOGS)) {
      for (const key of keysOf((await load['zh-CN']()).default)) catalogOf.set(key, feature);
    }
    const keys = [...catalogOf.keys()];
    const misplaced = sourceFiles(SRC).flatMap((file) => {
      const path = relative(SRC, file);
      const owner = /^features\/([^/]+)\//.exec(path)?.[1] ?? SHELL;
      return keysNamed(readFileSync(file, 'utf8'), keys)
        .filter((key) => catalogOf.get(key) !== SHELL && catalogOf.get(key) !== owner)
        .map((key) => `${path} reads ${key} from ${catalogOf.get(key)}`);
    });
    expect(misplaced).toEqual([]);
  });
});
