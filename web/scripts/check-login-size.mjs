// Sums the gzip size of the JavaScript a browser loads for /user/login (the entry, the login
// page chunk and their static imports) from the Vite manifest, and fails above the budget.
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

const kb =
  [...files].reduce((sum, f) => sum + gzipSync(readFileSync(new URL(f, dist))).length, 0) / 1024;
console.log(
  `login route initial JS: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB), ${files.size} files`,
);
if (kb > BUDGET_KB) process.exit(1);
