import type { OperationResult } from '@/lib/api/operation';
import type { SpilledDocument } from '@/lib/documents/spilled-document';

type File = NonNullable<OperationResult['file']>;

// Inline so a browser opens a PDF in its viewer; the name cut to characters no browser needs quoted or encoded.
export function contentDisposition(file: Pick<File, 'fileName' | 'disposition'>): string {
  return `${file.disposition ?? 'inline'}; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

// Response takes only ArrayBuffer-backed bytes; copied only when they are not.
export function fileBytes(bytes: Exclude<File['bytes'], ReadableStream | SpilledDocument>): Uint8Array<ArrayBuffer> {
  if (typeof bytes === 'string') return new TextEncoder().encode(bytes);
  return bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);
}
