// The bytes a browser downloads for a cold visit of /user/login: index.html, the entry, the login
// page chunk, their static imports and stylesheets, and the shell's language catalog (features'
// catalogs load with their pages), counted as the server sends them: the build's precompressed
// copies (`.br`, `.gz`) where they exist, the file itself for the small ones it leaves alone.
// Fails above the budget, measured on gzip, which every browser accepts (Chromium offers brotli
// only over HTTPS).
import { existsSync, readFileSync, statSync } from 'node:fs';

const BUDGET_KB = 350;
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
visit('src/features/auth/LoginPage.tsx');

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
const catalog = catalogs.reduce((a, b) => (sizeOf(a, 'gz') >= sizeOf(b, 'gz') ? a : b));
files.add(catalog);

const list = [...files];
const gzip = kb(total(list, 'gz'));
const brotli = kb(total(list, 'br'));
const raw = kb(list.reduce((sum, file) => sum + statSync(new URL(file, dist)).size, 0));
console.log(
  `login route, cold visit: ${gzip.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB), ` +
    `${brotli.toFixed(1)} KB brotli, ${raw.toFixed(1)} KB uncompressed, ${list.length} files`,
);
if (gzip > BUDGET_KB) process.exit(1);
