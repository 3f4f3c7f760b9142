import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '@/lib/schemas/branding';
import { accentColor, checkLogo, logoNameProblem, textOn } from './logo';
import { SAMPLE_JPEG, SAMPLE_PNG, SAMPLE_PROGRESSIVE_JPEG } from './logo-samples';

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of width × height, grey, with `extra` chunks before its data; `pad` bytes of noise in an IDAT of its own. */
function png(width: number, height: number, extra: Buffer[] = [], pad = 0): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const rows = Buffer.alloc(Math.min(height, 4) * (width + 1));
  const noise = Buffer.from(Array.from({ length: pad }, (_, i) => (i * 7919) % 251));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      ...extra,
      chunk('IDAT', deflateSync(rows)),
      ...(pad > 0 ? [chunk('IDAT', noise)] : []),
      chunk('IEND', new Uint8Array()),
    ]),
  );
}

describe('checkLogo', () => {
  it('takes a PNG, a baseline and a progressive JPEG, by their bytes', () => {
    expect(checkLogo(bytes(SAMPLE_PNG))).toEqual({ ok: true, type: 'image/png', width: 24, height: 12 });
    expect(checkLogo(bytes(SAMPLE_JPEG))).toEqual({ ok: true, type: 'image/jpeg', width: 24, height: 12 });
    expect(checkLogo(bytes(SAMPLE_PROGRESSIVE_JPEG))).toEqual({ ok: true, type: 'image/jpeg', width: 24, height: 12 });
    expect(checkLogo(png(2048, 1))).toMatchObject({ ok: true });
  });

  it('refuses the largest size plus one byte, and takes exactly the largest', () => {
    const at = (total: number) => png(8, 8, [], total - png(8, 8, [], 1).length + 1);
    expect(at(LOGO_MAX_BYTES).length).toBe(LOGO_MAX_BYTES);
    expect(checkLogo(at(LOGO_MAX_BYTES))).toMatchObject({ ok: true });
    expect(checkLogo(at(LOGO_MAX_BYTES + 1))).toEqual({ ok: false, message: 'is 262,145 bytes; at most 262,144 (256 KB)' });
  });

  it('refuses SVG, HTML, empty and other formats, whatever the name says', () => {
    const text = (s: string) => new Uint8Array(Buffer.from(s));
    expect(checkLogo(text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('SVG'),
    });
    expect(checkLogo(text('<?xml version="1.0"?><svg/>'))).toMatchObject({ message: expect.stringContaining('SVG') });
    expect(checkLogo(text('<html><script>alert(1)</script></html>'))).toMatchObject({
      message: expect.stringContaining('neither'),
    });
    expect(checkLogo(text('GIF89a'))).toMatchObject({ ok: false });
    expect(checkLogo(new Uint8Array())).toEqual({ ok: false, message: 'is empty' });
    expect(checkLogo(bytes(SAMPLE_PNG).subarray(0, 8))).toMatchObject({ ok: false });
  });

  it('refuses polyglots: a ZIP or HTML after the image’s end, markup in a text chunk or a comment', () => {
    const after = (image: Uint8Array, tail: string) => new Uint8Array(Buffer.concat([image, Buffer.from(tail)]));
    expect(checkLogo(after(bytes(SAMPLE_PNG), '<html><script>alert(1)</script>'))).toMatchObject({
      message: expect.stringContaining('after the end'),
    });
    expect(checkLogo(after(bytes(SAMPLE_JPEG), 'PK\u0003\u0004zip'))).toMatchObject({
      message: expect.stringContaining('after the end'),
    });
    const withText = png(4, 4, [chunk('tEXt', Buffer.from('Comment\u0000<script>alert(1)</script>'))]);
    expect(checkLogo(withText)).toMatchObject({ message: expect.stringContaining('"tEXt" chunk') });
    const jpeg = Buffer.from(bytes(SAMPLE_JPEG));
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x0b]), Buffer.from('<script>!')]);
    expect(checkLogo(new Uint8Array(Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)])))).toMatchObject({
      message: expect.stringContaining('comment'),
    });
  });

  it('refuses damaged or cut images and ones too large in pixels', () => {
    const damaged = Buffer.from(bytes(SAMPLE_PNG));
    damaged[40] = damaged[40]! ^ 0xff;
    expect(checkLogo(new Uint8Array(damaged))).toMatchObject({ ok: false });
    expect(checkLogo(bytes(SAMPLE_PNG).subarray(0, 60))).toMatchObject({ ok: false });
    expect(checkLogo(bytes(SAMPLE_JPEG).subarray(0, 200))).toMatchObject({ ok: false });
    expect(checkLogo(png(2049, 1))).toEqual({ ok: false, message: 'is 2049 × 1 pixels; at most 2048 a side' });
    expect(checkLogo(png(0, 1))).toMatchObject({ ok: false, message: 'has no pixels' });
    // A chunk length that points far past the end must not read out of bounds.
    const lying = Buffer.from(bytes(SAMPLE_PNG));
    lying.writeUInt32BE(0xfffffff0, 33);
    expect(checkLogo(new Uint8Array(lying))).toMatchObject({ ok: false });
  });
});

describe('names and colours', () => {
  it('a file name is 1–100 characters of text, no control characters, no path', () => {
    expect(logoNameProblem('logo.png')).toBeUndefined();
    expect(logoNameProblem('Ünïcode ロゴ.jpg')).toBeUndefined();
    for (const bad of [
      '',
      'a'.repeat(101),
      'lo\u0000go.png',
      'a\nb.png',
      '../../etc/passwd',
      'a\\b.png',
      '\ud800.png',
      'gpj.\u202Egnp',
    ])
      expect(logoNameProblem(bad), JSON.stringify(bad)).toBeDefined();
  });

  it('an accent colour is #rrggbb, kept in lower case; the text on it is whichever reads', () => {
    expect(accentColor('#1D4ED8')).toBe('#1d4ed8');
    for (const bad of ['1d4ed8', '#1d4ed', '#1d4ed88', 'red', '#GGGGGG', '#1d4ed8\u0000', 'rgb(0,0,0)'])
      expect(accentColor(bad)).toBeUndefined();
    expect(textOn('#000000')).toBe('#ffffff');
    expect(textOn('#ffffff')).toBe('#000000');
    expect(textOn('#1d4ed8')).toBe('#ffffff');
    expect(textOn('#fde047')).toBe('#000000');
  });
});
