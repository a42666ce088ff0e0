// `npm start` and `npm test` build what changed: the server and contracts through TypeScript's incremental build
// (about a second when nothing changed), the console only when one of its inputs is newer than
// the last console build, because a Vite build takes most of a minute.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
// Kept outside web/dist, which the server serves.
const stamp = join(root, 'node_modules/.cache/blrms/console-built');
const consoleInputs = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/tsconfig.json',
  'web/package.json',
  'packages/contracts/src',
  'package-lock.json',
];

/** The newest modification time under a path; a directory's own time counts (a deleted file). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const npm = (...args) => execFileSync('npm', args, { cwd: root, stdio: 'inherit' });

npm('run', 'build', '-w', 'packages/contracts');
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...consoleInputs.map((input) => newest(join(root, input))));
if (changedAt > builtAt || !existsSync(join(root, 'web/dist/index.html'))) {
  npm('run', 'build', '-w', 'web');
  mkdirSync(join(stamp, '..'), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else {
  process.stdout.write('console unchanged since its last build: not rebuilt\n');
}
npm('run', 'build', '-w', 'server');
