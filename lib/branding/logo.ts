// Framework-free. A shipper's logo is shown on the public tracking page, so its bytes are checked, not its name or
// the type the browser claimed: a PNG or a JPEG, whole (every PNG chunk's CRC, a JPEG's segments up to its end),
// nothing after its end (a ZIP or HTML appended makes a polyglot), none of the chunks or segments that hold free
// text (where markup would hide), at most 256 KB and 2,048 pixels a side. SVG is refused: it is a document that
// can run script, not an image.
import { crc32 } from 'node:zlib';
import { LOGO_MAX_BYTES } from '@/lib/schemas/branding';

export const LOGO_MAX_SIDE = 2048;

export type LogoType = 'image/png' | 'image/jpeg';

export type LogoCheck = { ok: true; type: LogoType; width: number; height: number } | { ok: false; message: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The critical chunks and the ancillary ones that carry no free text. */
const PNG_CHUNKS = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'pHYs', 'bKGD']);

const refuse = (message: string): LogoCheck => ({ ok: false, message });

function sizeProblem(width: number, height: number): string | undefined {
  if (width < 1 || height < 1) return 'has no pixels';
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) return `is ${width} × ${height} pixels; at most ${LOGO_MAX_SIDE} a side`;
  return undefined;
}

function checkPng(bytes: Uint8Array): LogoCheck {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let sawData = false;
  for (let index = 0; at < bytes.length; index++) {
    if (at + 12 > bytes.length) return refuse('is not a whole PNG (a chunk is cut short)');
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const end = at + 12 + length;
    if (length > bytes.length || end > bytes.length) return refuse('is not a whole PNG (a chunk is cut short)');
    if (index === 0 && (type !== 'IHDR' || length !== 13)) return refuse('is not a PNG (no IHDR chunk first)');
    if (!PNG_CHUNKS.has(type))
      return refuse(
        `is a PNG with a "${type.replace(/[^\x20-\x7e]/g, '?')}" chunk; only image data is taken (no text or unknown chunks)`,
      );
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length))
      return refuse('is a damaged PNG (a chunk’s checksum does not match)');
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
    }
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') {
      if (end !== bytes.length) return refuse('has bytes after the end of its PNG image (a file hidden behind it)');
      if (!sawData) return refuse('is a PNG without image data');
      const problem = sizeProblem(width, height);
      return problem ? refuse(problem) : { ok: true, type: 'image/png', width, height };
    }
    at = end;
  }
  return refuse('is not a whole PNG (no IEND chunk)');
}

function checkJpeg(bytes: Uint8Array): LogoCheck {
  const n = bytes.length;
  let at = 2;
  let width = 0;
  let height = 0;
  let frame = false;
  let scan = false;
  while (at < n) {
    if (bytes[at] !== 0xff) return refuse('is a damaged JPEG (a segment does not start with a marker)');
    let marker = bytes[at + 1] ?? -1;
    // Fill bytes: any number of 0xFF before a marker.
    while (marker === 0xff && at + 2 < n) marker = bytes[++at + 1] ?? -1;
    if (marker === 0xd9) {
      if (at + 2 !== n) return refuse('has bytes after the end of its JPEG image (a file hidden behind it)');
      if (!frame || !scan) return refuse('is a JPEG without image data');
      const problem = sizeProblem(width, height);
      return problem ? refuse(problem) : { ok: true, type: 'image/jpeg', width, height };
    }
    if (marker === 0xfe) return refuse('is a JPEG with a comment segment; only image data is taken');
    if (marker < 0xc0 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01)
      return refuse('is a damaged JPEG (an unexpected marker)');
    if (at + 4 > n) return refuse('is not a whole JPEG (a segment is cut short)');
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    const end = at + 2 + length;
    if (length < 2 || end > n) return refuse('is not a whole JPEG (a segment is cut short)');
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) {
      if (length < 8) return refuse('is a damaged JPEG (a short frame header)');
      height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      frame = true;
    }
    at = end;
    if (marker === 0xda) {
      if (!frame) return refuse('is a damaged JPEG (image data before its frame header)');
      scan = true;
      // The entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart marker.
      while (at < n) {
        if (bytes[at] === 0xff) {
          const next = bytes[at + 1];
          if (next === undefined) return refuse('is not a whole JPEG (no end of image)');
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
        }
        at++;
      }
    }
  }
  return refuse('is not a whole JPEG (no end of image)');
}

/** What the bytes are, whatever the upload was called or claimed to be. */
export function checkLogo(bytes: Uint8Array): LogoCheck {
  if (bytes.length === 0) return refuse('is empty');
  if (bytes.length > LOGO_MAX_BYTES)
    return refuse(`is ${bytes.length.toLocaleString('en-US')} bytes; at most ${LOGO_MAX_BYTES.toLocaleString('en-US')} (256 KB)`);
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return checkPng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return checkJpeg(bytes);
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<svg') || head.startsWith('<?xml') || head.includes('<svg'))
    return refuse('is an SVG; only PNG and JPEG are taken (an SVG can carry script)');
  return refuse('is neither a PNG nor a JPEG (checked by its bytes, not its name)');
}

/** A logo's file name as shown back in Settings: 1–100 characters, no control characters, no path. */
export function logoNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 100) return 'must be 1 to 100 characters';
  if (!name.isWellFormed()) return 'must be valid Unicode text (no lone surrogates)';
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(name)) return 'must not hold control characters';
  if (/[/\\]/.test(name) || name === '.' || name === '..') return 'must be a file name, not a path';
  return undefined;
}

/** #rrggbb, lower case; undefined when it is not one. */
export function accentColor(value: string): string | undefined {
  return /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : undefined;
}

/** Black or white, whichever reads better on the accent (WCAG relative luminance). */
export function textOn(accent: string): '#000000' | '#ffffff' {
  const channel = (i: number) => {
    const c = parseInt(accent.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}
