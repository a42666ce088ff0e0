import path from 'node:path';
import type { TOssFileContentType, TOssFilePreview } from '@blrms/contracts';

/** Bytes of a file's beginning that decide its type: signatures, and whether it is text. */
export const HEAD_BYTES = 8 * 1024;

/** Types recognised by their first bytes only: a name cannot make a file one of these. */
const SIGNATURES: { type: TOssFileContentType; test: (head: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    test: (h) =>
      h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    type: 'image/jpeg',
    test: (h) => h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  },
  {
    type: 'image/gif',
    test: (h) => ['GIF87a', 'GIF89a'].includes(h.subarray(0, 6).toString('latin1')),
  },
  {
    type: 'image/webp',
    test: (h) =>
      h.subarray(0, 4).toString('latin1') === 'RIFF' &&
      h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { type: 'application/pdf', test: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-' },
];

/** Text types, given by the name and kept only when the bytes are UTF-8 text. */
const TEXT_EXTENSIONS: Record<string, TOssFileContentType> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.conf': 'text/plain',
  '.ini': 'text/plain',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.json': 'application/json',
};

/** Other types by the name's extension: shown in the list, always downloaded, never inline. */
const OTHER_EXTENSIONS: Record<string, TOssFileContentType> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'text/html',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * Whether the first bytes read as UTF-8 text: no NUL and no invalid sequence (a sequence cut at
 * the end of the sample is fine).
 */
function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The stored type of a file from its first bytes and its name; what the client declared is never
 * asked. Images and PDF come from the signature alone, text from a text name plus text bytes,
 * the rest from the name (HTML, SVG, XML stay what they are and are never shown inline).
 */
export function detectContentType(head: Buffer, fileName: string): TOssFileContentType {
  const signed = SIGNATURES.find((s) => s.test(head));
  if (signed) return signed.type;
  const extension = path.extname(fileName).toLowerCase();
  const text = TEXT_EXTENSIONS[extension];
  if (text) return isText(head) ? text : 'application/octet-stream';
  return OTHER_EXTENSIONS[extension] ?? 'application/octet-stream';
}

/** How a file of this stored type may be shown inline; null: only downloaded. */
export function previewOf(contentType: string): TOssFilePreview {
  switch (contentType) {
    case 'image/png':
    case 'image/jpeg':
    case 'image/gif':
    case 'image/webp':
      return 'image';
    case 'application/pdf':
      return 'pdf';
    case 'text/plain':
    case 'text/csv':
    case 'text/markdown':
    case 'application/json':
      return 'text';
    default:
      return null;
  }
}

/**
 * The Content-Type of an inline preview: images and PDF as stored, every text type as plain text
 * (a browser must never interpret it), null when the file is not shown inline.
 */
export function previewContentType(contentType: string): string | null {
  const preview = previewOf(contentType);
  if (preview === null) return null;
  return preview === 'text' ? 'text/plain; charset=utf-8' : contentType;
}

/** A file name to show and to offer on download: the last path segment, printable, bounded. */
export function cleanFileName(name: string | undefined): string {
  const printable = [...path.basename((name ?? '').replaceAll('\\', '/'))]
    .filter((c) => c >= ' ' && c !== '\u007f' && c !== '"')
    .join('');
  const base = printable.trim().slice(0, 255);
  return base === '' || base === '.' || base === '..' ? 'file' : base;
}

/**
 * `attachment` or `inline` with the name twice: an ASCII fallback for old clients and the exact
 * UTF-8 name (RFC 6266 with RFC 5987 encoding), so no name can break out of the header.
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
