import { describe, expect, it } from 'vitest';
import { checkImage, MAX_IMAGE_BYTES } from './images';
import { SAMPLE_PHOTO_JPEG, SAMPLE_SIGNATURE_PNG } from './samples';

const png = Buffer.from(SAMPLE_SIGNATURE_PNG, 'base64');
const jpeg = Buffer.from(SAMPLE_PHOTO_JPEG, 'base64');
const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('checkImage', () => {
  it('takes a PNG and a JPEG by their bytes', () => {
    expect(checkImage(SAMPLE_SIGNATURE_PNG)).toMatchObject({ type: 'image/png' });
    expect(checkImage(SAMPLE_PHOTO_JPEG)).toMatchObject({ type: 'image/jpeg' });
  });

  it('refuses bytes after the end (polyglots), truncation, other types and bad base64', () => {
    expect(checkImage(b64(Buffer.concat([png, Buffer.from('PK\x03\x04')])))).toMatch(/after its PNG end/);
    expect(checkImage(b64(Buffer.concat([jpeg, Buffer.from('<html>')])))).toMatch(/JPEG end/);
    expect(checkImage(b64(png.subarray(0, png.length - 4)))).toMatch(/well-formed PNG/);
    expect(checkImage(b64(Buffer.from('GIF89a;')))).toMatch(/PNG or JPEG/);
    expect(checkImage(b64(Buffer.from('%PDF-1.4')))).toMatch(/PNG or JPEG/);
    for (const bad of ['', 'abc', 'ab$=', ` ${SAMPLE_SIGNATURE_PNG}`, `data:image/png;base64,${SAMPLE_SIGNATURE_PNG}`])
      expect(typeof checkImage(bad)).toBe('string');
    expect(checkImage(42)).toMatch(/base64 string/);
  });

  it('refuses past the size limit before decoding', () => {
    expect(checkImage('A'.repeat(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4))).toMatch(/at most 512 KB/);
  });
});
