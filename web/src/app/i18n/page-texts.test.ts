import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FEATURE_CATALOGS } from './feature-catalogs';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The files that load pages lazily, each page with the texts of the features it shows. */
const PAGE_LOADERS = ['app/component-registry.ts', 'app/AppRoutes.tsx'];

function sourceFile(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find(
    (file) => /\.tsx?$/.test(file) && existsSync(file),
  );
}

/** The features whose files a page reaches through its imports, static or lazy. */
function featuresReached(page: string): string[] {
  const seen = new Set<string>();
  const pending = [page];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier = ''] of text.matchAll(
      /(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g,
    )) {
      const next = sourceFile(file, specifier);
      if (next) pending.push(next);
    }
  }
  const features = [...seen].map(
    (file) => /^features\/([^/]+)\//.exec(relative(SRC, file))?.[1] ?? '',
  );
  return [...new Set(features)].filter((f) => f in FEATURE_CATALOGS).sort();
}

describe('page texts', () => {
  it('loads every page with the texts of all the features it shows', () => {
    const pages = PAGE_LOADERS.flatMap((loaderFile) => {
      const file = resolve(SRC, loaderFile);
      const text = readFileSync(file, 'utf8');
      const declared = new Map<string, string[]>();
      for (const [, list = '', specifier = ''] of text.matchAll(
        /withTexts\(\s*\[([^\]]*)\],\s*import\('([^']+)'\)/g,
      )) {
        declared.set(specifier, [...list.matchAll(/'([^']+)'/g)].map(([, f = '']) => f).sort());
      }
      return [...text.matchAll(/import\('(\.\.\/features\/[^']+)'\)/g)].map(
        ([, specifier = '']) => ({
          page: specifier,
          declared: declared.get(specifier) ?? [],
          reached: featuresReached(sourceFile(file, specifier) ?? specifier),
        }),
      );
    });
    expect(pages.length).toBeGreaterThan(20);
    for (const { page, declared, reached } of pages) expect(declared, page).toEqual(reached);
  });
});
