/**
 * Memory of the largest allowed device imports, against the built server run under a 512 MB heap
 * (`npm run bench:import` builds first):
 *
 * 1. Builds the import files: 50,000 rows (the row limit) of realistic devices as XLSX and CSV,
 *    the same row count with long random cells so that each file is just under the 20 MB upload
 *    limit, and a zip bomb (a few hundred KB that would inflate to 1 GB of sheet XML).
 * 2. Starts `server/dist/main.js` with `NODE_OPTIONS=--max-old-space-size=512` (SQLite), signs
 *    in, and uploads each file to `/device/device/importExcel` (dryRun=false unless BENCH_DRY_RUN, a token of its own
 *    per file so that every row is a new device), one at a time.
 * 3. Samples the server's resident memory (VmRSS in /proc/<pid>/status) every 100 ms: idle
 *    before the upload, the peak while it runs, and 3 s after the answer; and checks at the end
 *    that the process is still alive and healthy.
 *
 *   npm run bench:import
 *   BENCH_ROWS=10000 npm run bench:import     # fewer rows
 *   BENCH_DRY_RUN=true npm run bench:import   # previews only: reading and checking, no writes
 *
 * Target: the largest allowed import stays within tens of MB above idle, and the server survives.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { IMPORT_FILE_MAX_BYTES, IMPORT_ROWS_MAX } from '@blrms/contracts';
import ExcelJS from 'exceljs';
import { zipBomb } from '../server/src/test/zip-bomb.js';
import { startServer, type RunningServer } from '../web/e2e/support/server.js';

const ROWS = Number(process.env.BENCH_ROWS ?? IMPORT_ROWS_MAX);
/** `true`: previews only, to tell the cost of reading and checking from that of writing. */
const DRY_RUN = process.env.BENCH_DRY_RUN === 'true';
const MB = 1024 * 1024;
const SAMPLE_MS = 100;
const SETTLE_MS = 3000;

interface ImportFile {
  label: string;
  name: string;
  content: Buffer;
}

type Row = [string, string, string, string, string, string, string, string];
const HEADER: Row = ['sn', 'name', 'series', 'model', 'version', 'group', 'remark', 'location'];
const SERIES = ['R40', 'BL10X', 'S27X'];

/** A device row as people fill the template in: short names, a few models and versions. */
function realisticRow(prefix: string, i: number): Row {
  const series = SERIES[i % SERIES.length] ?? 'R40';
  return [
    `${prefix}-${String(i).padStart(6, '0')}`,
    `Router ${i} Building ${i % 40}`,
    series,
    `${series}-4G`,
    `1.${i % 8}.0`,
    '',
    i % 5 === 0 ? `Installed by team ${i % 17}` : '',
    `Shenzhen, Nanshan District ${i % 300}`,
  ];
}

/** Random text of the given length (incompressible, so that the file is large). */
const noise = (length: number) => randomBytes(length).toString('base64').slice(0, length);

/** Every column at its longest allowed length, random: the most a row can weigh. */
function longRow(prefix: string, i: number, remark: number): Row {
  return [
    `${prefix}-${String(i).padStart(6, '0')}`,
    noise(64),
    SERIES[i % SERIES.length] ?? 'R40',
    noise(64),
    noise(64),
    '',
    noise(remark),
    noise(128),
  ];
}

async function xlsxOf(rows: Row[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.addRow(HEADER);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvOf = (rows: Row[]) =>
  Buffer.from([HEADER, ...rows].map((r) => r.map((c) => `"${c}"`).join(',')).join('\r\n'));

/**
 * The largest file of long rows under the upload limit: the remark length is worked out from two
 * small samples (bytes per row with no remark and with the longest), then the file is built once.
 */
async function atUploadLimit(
  build: (rows: Row[]) => Buffer | Promise<Buffer>,
  prefix: string,
): Promise<Buffer> {
  const SAMPLE = 2000;
  const sample = async (remark: number) =>
    (await build(Array.from({ length: SAMPLE }, (_, i) => longRow(prefix, i, remark)))).length /
    SAMPLE;
  const [bare, full] = [await sample(0), await sample(255)];
  const budget = (IMPORT_FILE_MAX_BYTES * 0.97) / ROWS;
  let remark = Math.max(0, Math.min(255, Math.floor(((budget - bare) / (full - bare)) * 255)));
  for (;;) {
    const rows = Array.from({ length: ROWS }, (_, i) => longRow(prefix, i, remark));
    const content = await build(rows);
    if (content.length <= IMPORT_FILE_MAX_BYTES || remark === 0) return content;
    remark = Math.floor(remark * 0.9);
  }
}

/** Resident memory of the process in MB, or null once it has exited. */
function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

async function call<T>(server: RunningServer, token: string, url: string, body: object) {
  const res = await fetch(`${server.url}/api${url}`, {
    method: 'POST',
    headers: { 'x-access-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; result: T; message: string };
  if (!json.success) throw new Error(`${url}: ${res.status} ${json.message}`);
  return json.result;
}

interface Measure {
  label: string;
  size: number;
  status: number;
  answer: string;
  seconds: number;
  before: number;
  peak: number;
  after: number | null;
}

async function measure(
  server: RunningServer,
  token: string,
  file: ImportFile,
  tokenId: string,
): Promise<Measure> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const before = rssMb(server.pid) ?? 0;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid) ?? 0);
  }, SAMPLE_MS);
  const form = new FormData();
  form.append('tokenId', tokenId);
  form.append('dryRun', String(DRY_RUN));
  form.append('file', new Blob([new Uint8Array(file.content)]), file.name);
  const started = performance.now();
  let status = 0;
  let answer: string;
  try {
    const res = await fetch(`${server.url}/api/device/device/importExcel`, {
      method: 'POST',
      headers: { 'x-access-token': token },
      body: form,
    });
    status = res.status;
    const json = (await res.json()) as {
      message: string;
      result?: { imported: number; valid: number };
    };
    answer = json.result
      ? `${DRY_RUN ? 'checked' : 'imported'} ${DRY_RUN ? json.result.valid : json.result.imported}`
      : json.message;
  } catch (error) {
    answer = `no answer: ${String(error)}`;
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  clearInterval(sampler);
  return {
    label: file.label,
    size: file.content.length,
    status,
    answer,
    seconds,
    before,
    peak,
    after: rssMb(server.pid),
  };
}

async function main() {
  console.log(`building the files (${ROWS} rows)…`);
  const realistic = (prefix: string) =>
    Array.from({ length: ROWS }, (_, i) => realisticRow(prefix, i));
  const files: ImportFile[] = [
    { label: 'XLSX, row limit', name: 'devices.xlsx', content: await xlsxOf(realistic('XA')) },
    { label: 'CSV, row limit', name: 'devices.csv', content: csvOf(realistic('CA')) },
    {
      label: 'XLSX, row limit, at the upload limit',
      name: 'devices.xlsx',
      content: await atUploadLimit(xlsxOf, 'XB'),
    },
    {
      label: 'CSV, row limit, at the upload limit',
      name: 'devices.csv',
      content: await atUploadLimit(csvOf, 'CB'),
    },
    { label: 'XLSX zip bomb (1 GB of XML)', name: 'bomb.xlsx', content: await zipBomb(1024 * MB) },
  ];

  const server = await startServer({ NODE_OPTIONS: '--max-old-space-size=512' });
  try {
    const login = await fetch(`${server.url}/api/sys/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    const { token } = ((await login.json()) as { result: { token: string } }).result;
    const results: Measure[] = [];
    for (const [index, file] of files.entries()) {
      const { id } = await call<{ id: string }>(server, token, '/device/token/add', {
        name: `bench ${index}`,
      });
      const result = await measure(server, token, file, id);
      results.push(result);
      console.log(
        `${result.label}: ${result.status} ${result.answer} in ${result.seconds.toFixed(1)} s`,
      );
    }
    const alive = rssMb(server.pid) !== null;
    const healthy =
      alive &&
      (await fetch(`${server.url}/api/health`).then(
        (r) => r.ok,
        () => false,
      ));

    console.log('\n| file | size | answer | time | RSS before | peak | peak − before | after |');
    console.log('|---|---:|---|---:|---:|---:|---:|---:|');
    for (const r of results) {
      const mb = (n: number) => `${n.toFixed(0)} MB`;
      console.log(
        `| ${r.label} | ${(r.size / MB).toFixed(1)} MB | ${r.status} ${r.answer} | ` +
          `${r.seconds.toFixed(1)} s | ${mb(r.before)} | ${mb(r.peak)} | ` +
          `+${mb(r.peak - r.before)} | ${r.after === null ? 'exited' : mb(r.after)} |`,
      );
    }
    console.log(`\nserver alive and healthy afterwards: ${healthy ? 'yes' : 'NO'}`);
    if (!healthy) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
