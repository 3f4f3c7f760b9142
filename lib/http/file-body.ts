import type { OperationResult } from '@/lib/api/operation';

// A document operation's file (OperationResult.file) as an answer's headers and body, the same from
// the API's adapters and the portal's routes.

type File = NonNullable<OperationResult['file']>;

/**
 * Inline unless the operation says otherwise (a browser opens a PDF in its viewer), the file name cut
 * down to characters that need no quoting or encoding in any browser.
 */
export function contentDisposition(file: Pick<File, 'fileName' | 'disposition'>): string {
  return `${file.disposition ?? 'inline'}; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

/** The bytes, typed as backed by an ArrayBuffer (what Response accepts); text encoded, bytes copied only if they are not. */
export function fileBytes(bytes: File['bytes']): Uint8Array<ArrayBuffer> {
  if (typeof bytes === 'string') return new TextEncoder().encode(bytes);
  return bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);
}
