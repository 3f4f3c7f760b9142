import { deflateSync } from 'node:zlib';
import fontkit, { type Font as FontkitFont, type Glyph } from '@pdf-lib/fontkit';
import { PDFString, type PDFDocument, type PDFRef } from 'pdf-lib';

// DejaVu embedded as a CIDFontType2 (Identity-H) subset, with the work done once per process instead of once per
// document: a fixed base subset in tiers, glyphs outside it appended per document, and base-set text encoded from
// tables (docs/decisions/document-rendering.md, "Fonts").

/** None of fontkit's optional features: text arrives shaped and in visual order. */
export const PLAIN = { liga: false, clig: false, calt: false, kern: false, rlig: false, dlig: false, hlig: false };

type GlyphRun = ReturnType<FontkitFont['layout']>;
type LayoutWithDirection = (
  text: string,
  features: Record<string, boolean>,
  script: string | undefined,
  language: undefined,
  direction: 'ltr',
) => GlyphRun;

const ARABIC = /[؀-ࣿﭐ-﷿ﹰ-ﻼ]/;

/**
 * fontkit's layout kept left to right: by default it reverses a whole string whose first script is right-to-left,
 * and its Arabic shaper would join presentation forms to the wrong neighbours in visual order.
 */
export function layoutLeftToRight(font: FontkitFont, text: string, features: Record<string, boolean> = PLAIN): GlyphRun {
  return (font.layout as unknown as LayoutWithDirection).call(
    font,
    text,
    features,
    ARABIC.test(text) ? 'latn' : undefined,
    undefined,
    'ltr',
  );
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** The documents' own punctuation (× · — → …) and the usual typographic marks. */
const PUNCTUATION = [
  0xd7, 0xb7, 0xb0, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026, 0x2192, 0x20ac, 0x2212, 0x2116, 0x2122,
];
/** The base set in subset order, in tiers; U+00AD (soft hyphen) is left out: fontkit's layout hides it. */
const TIERS: number[][] = [
  [...range(0x20, 0x7e), ...PUNCTUATION],
  range(0xa0, 0xff).filter((cp) => cp !== 0xad && !PUNCTUATION.includes(cp)),
  range(0x100, 0x17f),
];
const SIMPLE = new Set(TIERS.flat());

/** Code points drawn from tables (documents.test.ts checks they lay out as one glyph each). */
export function isSimpleCodePoint(cp: number): boolean {
  return SIMPLE.has(cp);
}

interface Metrics {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  xHeight: number;
  italicAngle: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
}

interface BaseFont {
  fontFile: Uint8Array;
  toUnicode: Uint8Array;
  widths: number[];
}

export class Face {
  readonly font: FontkitFont;
  readonly scale: number;
  /** Base glyphs in subset order: subset id = index + 1 (0 is .notdef). */
  readonly baseGlyphs: Glyph[] = [];
  /** fontkit glyph id → subset id, for base glyphs. */
  readonly baseIds = new Map<number, number>();
  /** Glyph count at the end of each tier. */
  readonly tierEnds: number[] = [];
  /** code point → [4-digit hex subset id, advance in 1/1000 em, subset id]. */
  private readonly simple = new Map<number, [string, number, number]>();
  private readonly tiers = new Map<number, Promise<BaseFont>>();

  constructor(
    readonly name: string,
    private readonly data: Uint8Array,
  ) {
    this.font = fontkit.create(data);
    this.scale = 1000 / this.metrics.unitsPerEm;
    for (const tier of TIERS) {
      for (const cp of tier) {
        const glyph = this.font.glyphForCodePoint(cp);
        if (glyph.id === 0) continue; // not in the font: fontkit's layout decides
        let id = this.baseIds.get(glyph.id);
        if (id === undefined) {
          this.baseGlyphs.push(glyph);
          id = this.baseGlyphs.length;
          this.baseIds.set(glyph.id, id);
        }
        this.simple.set(cp, [hex4(id), glyph.advanceWidth * this.scale, id]);
      }
      this.tierEnds.push(this.baseGlyphs.length);
    }
  }

  get metrics(): Metrics {
    return this.font;
  }

  private reverseCmap: Map<number, number> | undefined;

  /**
   * fontkit caches one Glyph per id with the code points of its first use, and component glyphs come with none
   * (the ToUnicode map then dropped letters): such a glyph is looked up in the font's cmap.
   */
  codePointsOf(glyph: Glyph): number[] {
    if (glyph.codePoints?.length) return glyph.codePoints;
    if (!this.reverseCmap) {
      this.reverseCmap = new Map();
      for (const cp of this.font.characterSet) {
        const id = this.font.glyphForCodePoint(cp).id;
        if (!this.reverseCmap.has(id)) this.reverseCmap.set(id, cp);
      }
    }
    const cp = this.reverseCmap.get(glyph.id);
    return cp === undefined ? [] : [cp];
  }

  /** The text's subset-id hex string and width in 1/1000 em, when every code point is a simple one. */
  simpleRun(text: string): { hex: string; width: number; maxId: number } | undefined {
    let hex = '';
    let width = 0;
    let maxId = 0;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      const entry = code < 0xd800 || code > 0xdfff ? this.simple.get(code) : undefined;
      if (!entry) return undefined;
      hex += entry[0];
      width += entry[1];
      if (entry[2] > maxId) maxId = entry[2];
    }
    return { hex, width, maxId };
  }

  /** The first `count` base glyphs (a tier end) as a subset, serialised and compressed on first use. */
  baseFont(count: number): Promise<BaseFont> {
    let font = this.tiers.get(count);
    if (!font) {
      const glyphs = this.baseGlyphs.slice(0, count);
      font = (async () => ({
        fontFile: deflateSync(await serializeSubset(this.font, glyphs)),
        toUnicode: deflateSync(toUnicodeCmap(glyphs)),
        widths: glyphs.map((g) => g.advanceWidth * this.scale),
      }))();
      this.tiers.set(count, font);
      font.catch(() => this.tiers.delete(count));
    }
    return font;
  }
}

function hex4(id: number): string {
  return id.toString(16).padStart(4, '0');
}

async function serializeSubset(font: FontkitFont, glyphs: Glyph[]): Promise<Uint8Array> {
  const subset = font.createSubset();
  glyphs.forEach((glyph, i) => {
    const id = subset.includeGlyph(glyph);
    if (id !== i + 1) throw new Error(`font subset: glyph ${glyph.id} got id ${id}, expected ${i + 1}`);
  });
  const parts: Uint8Array[] = [];
  await new Promise<void>((resolve, reject) => {
    const stream = subset.encodeStream() as unknown as { on(event: string, fn: (value: never) => void): typeof stream };
    stream
      .on('data', (bytes: Uint8Array) => parts.push(bytes))
      .on('end', () => resolve())
      .on('error', (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
  });
  return Buffer.concat(parts);
}

function toUnicodeCmap(
  glyphs: Glyph[],
  codePointsOf: (glyph: Glyph) => number[] = (glyph) => glyph.codePoints ?? [],
): Uint8Array {
  const entries: string[] = [];
  glyphs.forEach((glyph, i) => {
    const codePoints = codePointsOf(glyph);
    if (codePoints.length === 0) return;
    const utf16 = codePoints.map((cp) => String.fromCodePoint(cp)).join('');
    let unicode = '';
    for (let j = 0; j < utf16.length; j += 1) unicode += hex4(utf16.charCodeAt(j));
    entries.push(`<${hex4(i + 1)}> <${unicode}>`);
  });
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return Buffer.from(
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo <<\n  /Registry (Adobe)\n  /Ordering (UCS)\n  /Supplement 0\n>> def\n' +
      '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000><ffff>\nendcodespacerange\n' +
      `${blocks.join('\n')}\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`,
    'latin1',
  );
}

/** The PDF font flags pdf-lib derives (symbolic, serif/script from the OS/2 family class). */
function fontFlags(font: FontkitFont): number {
  const familyClass = font['OS/2'] ? font['OS/2'].sFamilyClass : 0;
  let flags = 1 << 2; // symbolic
  if (font.post.isFixedPitch) flags |= 1;
  if (familyClass >= 1 && familyClass <= 7) flags |= 1 << 1;
  if (familyClass === 10) flags |= 1 << 3;
  if (font.head.macStyle.italic) flags |= 1 << 6;
  return flags;
}

/** One face as one document uses it: its text encoded to subset ids, embedded at save. */
export class DocumentFont {
  readonly ref: PDFRef;
  /** Glyphs outside the base subset, in the order met: subset id = base count + index + 1. */
  private readonly extra: Glyph[] = [];
  private readonly extraIds = new Map<number, number>();
  private maxBase = 0;

  constructor(
    private readonly doc: PDFDocument,
    readonly face: Face,
  ) {
    this.ref = doc.context.nextRef();
  }

  hex(text: string): string {
    const run = this.face.simpleRun(text);
    if (run) {
      if (run.maxId > this.maxBase) this.maxBase = run.maxId;
      return run.hex;
    }
    let hex = '';
    for (const glyph of layoutLeftToRight(this.face.font, text).glyphs) hex += hex4(this.idOf(glyph));
    return hex;
  }

  widthOfTextAtSize(text: string, size: number): number {
    const run = this.face.simpleRun(text);
    if (run) return (run.width * size) / 1000;
    let width = 0;
    for (const glyph of layoutLeftToRight(this.face.font, text).glyphs) width += glyph.advanceWidth * this.face.scale;
    return (width * size) / 1000;
  }

  private idOf(glyph: Glyph): number {
    if (glyph.id === 0) return 0;
    const base = this.face.baseIds.get(glyph.id);
    if (base !== undefined) {
      if (base > this.maxBase) this.maxBase = base;
      return base;
    }
    let id = this.extraIds.get(glyph.id);
    if (id === undefined) {
      this.extra.push(glyph);
      id = this.face.baseGlyphs.length + this.extra.length;
      this.extraIds.set(glyph.id, id);
    }
    return id;
  }

  /** Writes the font's objects at `ref`: the shared base subset, or this document's own when it needed more glyphs. */
  async embed(): Promise<void> {
    const { context } = this.doc;
    const { face } = this;
    let fontFile: Uint8Array;
    let toUnicode: Uint8Array;
    let widths: number[];
    let tag: string;
    if (this.extra.length === 0) {
      const tier = Math.max(
        0,
        face.tierEnds.findIndex((end) => end >= this.maxBase),
      );
      ({ fontFile, toUnicode, widths } = await face.baseFont(face.tierEnds[tier] ?? face.baseGlyphs.length));
      tag = `BASEA${'ABC'[tier] ?? 'Z'}`;
    } else {
      const glyphs = [...face.baseGlyphs, ...this.extra];
      fontFile = deflateSync(await serializeSubset(face.font, glyphs));
      toUnicode = deflateSync(toUnicodeCmap(glyphs, (glyph) => face.codePointsOf(glyph)));
      widths = glyphs.map((g) => g.advanceWidth * face.scale);
      tag = Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
    }
    const baseFont = `${tag}+${face.name}`;
    const m = face.metrics;
    const s = face.scale;
    const fontFileRef = context.register(context.stream(fontFile, { Filter: 'FlateDecode' }));
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: baseFont,
        Flags: fontFlags(face.font),
        FontBBox: [m.bbox.minX * s, m.bbox.minY * s, m.bbox.maxX * s, m.bbox.maxY * s],
        ItalicAngle: m.italicAngle,
        Ascent: m.ascent * s,
        Descent: m.descent * s,
        CapHeight: (m.capHeight || m.ascent) * s,
        XHeight: (m.xHeight || 0) * s,
        StemV: 0,
        FontFile2: fontFileRef,
      }),
    );
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        CIDToGIDMap: 'Identity',
        BaseFont: baseFont,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: [1, widths],
      }),
    );
    const toUnicodeRef = context.register(context.stream(toUnicode, { Filter: 'FlateDecode' }));
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: baseFont,
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: toUnicodeRef,
      }),
    );
  }
}
