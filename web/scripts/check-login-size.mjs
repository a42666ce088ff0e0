// Sums the gzip size of the JavaScript a browser loads for /user/login (the entry, the login
// page chunk and their static imports, and the shell's language catalog: features' catalogs load
// with their pages) from the Vite manifest, and fails above the budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 350;
const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  (chunk.imports ?? []).forEach(visit);
};
visit('index.html');
visit('src/features/auth/LoginPage.tsx');
// Each visitor also loads one language catalog before the first render: count the larger one.
const catalogs = ['src/app/i18n/zh-CN.ts', 'src/app/i18n/en-US.ts'].map((key) => {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`no chunk for ${key}: the catalogs are meant to load on their own`);
  return chunk.file;
});
const gzipKb = (file) => gzipSync(readFileSync(new URL(file, dist))).length / 1024;
const catalog = catalogs.reduce((a, b) => (gzipKb(a) >= gzipKb(b) ? a : b));
files.add(catalog);

const kb = [...files].reduce((sum, f) => sum + gzipKb(f), 0);
console.log(
  `login route initial JS: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB), ${files.size} files`,
);
if (kb > BUDGET_KB) process.exit(1);
