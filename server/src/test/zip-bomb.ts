import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * Uploads an attacker would send against the sheet module's zip guard: an XLSX whose sheet
 * inflates to far more than its few hundred KB. Used by the sheet tests and `bench:import`.
 */

/**
 * A zip of the given entries, each deflated (or stored as it is, with `stored`), its uncompressed
 * size as declared (which may lie).
 */
export function zipOf(
  entries: { name: string; data: Buffer; size: number; stored?: boolean }[],
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, size, stored } of entries) {
    const fileName = Buffer.from(name);
    const method = stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** `bytes` of sheet XML (one row repeated), deflated as it is produced: a few hundred KB. */
async function bombSheet(bytes: number): Promise<Buffer> {
  const row = Buffer.from('<row><c t="inlineStr"><is><t>boom</t></is></c></row>'.repeat(20_000));
  const chunks: Buffer[] = [];
  const deflate = createDeflateRaw({ level: 9 });
  const done = pipeline(
    deflate,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    }),
  );
  for (let written = 0; written < bytes; written += row.length) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * An XLSX whose sheet is `bytes` of XML, its size declared as `declared` (honestly by default):
 * the guard must refuse it whether the zip tells the truth or not.
 */
export async function zipBomb(bytes: number, declared = bytes): Promise<Buffer> {
  const types = Buffer.from(
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  );
  return zipOf([
    { name: '[Content_Types].xml', data: deflateRawSync(types), size: types.length },
    { name: 'xl/worksheets/sheet1.xml', data: await bombSheet(bytes), size: declared },
  ]);
}
