// Proof-of-delivery images as a delivered scan sends them (docs/decisions/proof-of-delivery.md): base64 in JSON,
// PNG or JPEG by their bytes (never by a declared type), at most MAX_IMAGE_BYTES decoded. A PNG must be a chain of
// chunks ending at IEND and a JPEG must end at its EOI marker, with nothing after either: a polyglot (a PNG or JPEG
// with a ZIP, HTML or script appended) is refused, and what is kept is served only as the type its bytes prove.

export const MAX_IMAGE_BYTES = 512 * 1024;
/** The base64 text of MAX_IMAGE_BYTES, padded: longer text is refused before it is decoded. */
export const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

export type ImageType = 'image/png' | 'image/jpeg';

export interface CheckedImage {
  bytes: Uint8Array;
  type: ImageType;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image, or why it is refused (a message for the field's detail). */
export function checkImage(value: unknown): CheckedImage | string {
  if (typeof value !== 'string') return 'must be a base64 string of a PNG or JPEG image';
  if (value.length > MAX_IMAGE_BASE64) return `must be at most ${MAX_IMAGE_BYTES / 1024} KB (${MAX_IMAGE_BYTES} bytes) decoded`;
  if (value.length === 0 || !BASE64.test(value))
    return 'must be standard base64 (A-Z, a-z, 0-9, +, /, padded with =), no spaces or data: prefix';
  const bytes = new Uint8Array(Buffer.from(value, 'base64'));
  if (bytes.length > MAX_IMAGE_BYTES) return `must be at most ${MAX_IMAGE_BYTES / 1024} KB (${MAX_IMAGE_BYTES} bytes) decoded`;
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return pngProblem(bytes) ?? { bytes, type: 'image/png' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegProblem(bytes) ?? { bytes, type: 'image/jpeg' };
  return 'must be a PNG or JPEG image (its first bytes are neither)';
}

/** Walks the chunks: each length within the file, IHDR first, IEND last and nothing after it. */
function pngProblem(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let first = true;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) return 'is not a well-formed PNG (a chunk type is not four letters)';
    if (first && type !== 'IHDR') return 'is not a well-formed PNG (IHDR is not its first chunk)';
    first = false;
    const end = at + 12 + length;
    if (length > bytes.length || end > bytes.length) return 'is not a well-formed PNG (a chunk runs past its end)';
    if (type === 'IEND') return end === bytes.length ? undefined : 'has bytes after its PNG end (IEND): not a plain image';
    at = end;
  }
  return 'is not a well-formed PNG (no IEND chunk)';
}

/** A JPEG begins SOI (FFD8FF…) and ends EOI (FFD9): bytes after it would be a second file riding along. */
function jpegProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length < 4 || bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9)
    return 'has bytes after its JPEG end (or none): not a plain image';
  return undefined;
}
