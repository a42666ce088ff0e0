import unzipper from 'unzipper';
import { AppError } from '../http/app-error.js';

const MB = 1024 * 1024;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65535 bytes. */
const END_RECORD_SEARCH = 22 + 0xffff;

/** Refused XLSX: its entries would inflate beyond the cap (a zip bomb). */
const tooBig = (maxBytes: number) =>
  new AppError('sheetUncompressedTooLarge', 413, { mb: Math.round(maxBytes / MB) });

/**
 * The uncompressed sizes the zip's central directory declares, summed; null when the file has no
 * readable central directory (not a zip, truncated, or ZIP64 which no honest sheet needs).
 */
export function declaredSize(zip: Buffer): number | null {
  const from = Math.max(0, zip.length - END_RECORD_SEARCH);
  let end = -1;
  for (let at = zip.length - 22; at >= from; at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) return null;
    const size = zip.readUInt32LE(at + 24);
    if (size === 0xffffffff) return null;
    total += size;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return total;
}

/**
 * The entries of an XLSX, as its central directory lists them, once it is known that they do not
 * inflate beyond `maxBytes`; refused before any XML is parsed otherwise. The directory's declared
 * sizes are checked first (instant for an honest bomb); since they can lie, the entries are then
 * inflated, counting bytes and discarding them, and the pass stops as soon as the count passes the
 * cap. Memory stays at one inflate window whatever the file claims. The sheet reader opens the
 * entries returned here, so what it reads is what was counted.
 */
export async function openZipWithin(zip: Buffer, maxBytes: number): Promise<unzipper.File[]> {
  const declared = declaredSize(zip);
  if (declared === null) throw new AppError('importFileUnreadable', 400);
  if (declared > maxBytes) throw tooBig(maxBytes);

  let inflated = 0;
  try {
    const { files } = await unzipper.Open.buffer(zip);
    for (const file of files) {
      for await (const chunk of file.stream()) {
        inflated += (chunk as Buffer).length;
        if (inflated > maxBytes) throw tooBig(maxBytes);
      }
    }
    return files;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('importFileUnreadable', 400);
  }
}
