// The bytes a browser downloads for a cold visit of /user/login, as the server sends them:
// index.html, the entry (React, i18next and the sign-in page: main.tsx renders it without the
// console), its static imports and stylesheets, and the reader's language catalog, each file as
// its brotli copy (`.br`) where the build wrote one, else the file itself (the small ones the build
// leaves alone). Brotli, because that is what the server sends a browser that offers it, and
// Chromium offers it on localhost and over HTTPS (the e2e test web/e2e/asset-transfer.e2e.test.ts
// counts the same visit in Chromium, headers and API answers included). The gzip figure is printed
// for browsers that offer only gzip. The console (antd, the router, every page) is not counted: it
// loads after sign-in, prefetched from the first focus on the form. Fails above the budget.
import { existsSync, readFileSync, statSync } from 'node:fs';

const BUDGET_KB = 200;
const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));

const files = new Set(['index.html']);
const seen = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  files.add(chunk.file);
  (chunk.css ?? []).forEach((css) => files.add(css));
  (chunk.imports ?? []).forEach(visit);
};
visit('index.html');

const sizeOf = (file, encoding) => {
  const compressed = new URL(`${file}.${encoding}`, dist);
  return statSync(existsSync(compressed) ? compressed : new URL(file, dist)).size;
};
const kb = (bytes) => bytes / 1024;
const total = (list, encoding) => list.reduce((sum, file) => sum + sizeOf(file, encoding), 0);

// Each visitor also loads one language catalog before the first render: count the larger one.
const catalogs = ['src/app/i18n/zh-CN.ts', 'src/app/i18n/en-US.ts'].map((key) => {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`no chunk for ${key}: the catalogs are meant to load on their own`);
  return chunk.file;
});
const catalog = catalogs.reduce((a, b) => (sizeOf(a, 'br') >= sizeOf(b, 'br') ? a : b));
files.add(catalog);

const list = [...files];
const brotli = kb(total(list, 'br'));
const gzip = kb(total(list, 'gz'));
const raw = kb(list.reduce((sum, file) => sum + statSync(new URL(file, dist)).size, 0));
for (const file of list) console.log(`  ${file}: ${kb(sizeOf(file, 'br')).toFixed(1)} KB`);
console.log(
  `login route, cold visit: ${brotli.toFixed(1)} KB brotli (budget ${BUDGET_KB} KB), ` +
    `${gzip.toFixed(1)} KB gzip, ${raw.toFixed(1)} KB uncompressed, ${list.length} files`,
);
if (brotli > BUDGET_KB) process.exit(1);
