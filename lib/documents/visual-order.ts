import bidiFactory from 'bidi-js';

// One line of stored (logical-order) text as drawn left to right: none of our PDF writer, the ZPL printer or resvg
// lays out right-to-left text. Arabic is shaped in logical order, then the line is reordered by UAX #9 (bidi-js)
// and formatting characters removed. Whole clusters move, so marks stay with their base and surrogate pairs stay whole.

const bidi = bidiFactory();

/** A right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko, … and their presentation forms) or a bidi control. */
const NEEDS_LAYOUT =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud802\ud803\ud83a\ud83b][\udc00-\udfff]/;

/** Removed from what is drawn (X9, and the joiners once shaping has used them). */
const FORMATTING = /[\u061c\u200c-\u200f\u202a-\u202e\u2066-\u2069]/g;

// --- Arabic shaping ----------------------------------------------------------------------------------

/**
 * Base letter → [isolated, final, initial, medial] presentation form, 0 where Unicode has none (from the
 * compatibility decompositions of U+FB50–FDFF and U+FE70–FEFF, Unicode 14).
 */
const FORMS_TABLE: [number, number, number, number, number][] = [
  [0x0621, 0xfe80, 0, 0, 0],
  [0x0622, 0xfe81, 0xfe82, 0, 0],
  [0x0623, 0xfe83, 0xfe84, 0, 0],
  [0x0624, 0xfe85, 0xfe86, 0, 0],
  [0x0625, 0xfe87, 0xfe88, 0, 0],
  [0x0626, 0xfe89, 0xfe8a, 0xfe8b, 0xfe8c],
  [0x0627, 0xfe8d, 0xfe8e, 0, 0],
  [0x0628, 0xfe8f, 0xfe90, 0xfe91, 0xfe92],
  [0x0629, 0xfe93, 0xfe94, 0, 0],
  [0x062a, 0xfe95, 0xfe96, 0xfe97, 0xfe98],
  [0x062b, 0xfe99, 0xfe9a, 0xfe9b, 0xfe9c],
  [0x062c, 0xfe9d, 0xfe9e, 0xfe9f, 0xfea0],
  [0x062d, 0xfea1, 0xfea2, 0xfea3, 0xfea4],
  [0x062e, 0xfea5, 0xfea6, 0xfea7, 0xfea8],
  [0x062f, 0xfea9, 0xfeaa, 0, 0],
  [0x0630, 0xfeab, 0xfeac, 0, 0],
  [0x0631, 0xfead, 0xfeae, 0, 0],
  [0x0632, 0xfeaf, 0xfeb0, 0, 0],
  [0x0633, 0xfeb1, 0xfeb2, 0xfeb3, 0xfeb4],
  [0x0634, 0xfeb5, 0xfeb6, 0xfeb7, 0xfeb8],
  [0x0635, 0xfeb9, 0xfeba, 0xfebb, 0xfebc],
  [0x0636, 0xfebd, 0xfebe, 0xfebf, 0xfec0],
  [0x0637, 0xfec1, 0xfec2, 0xfec3, 0xfec4],
  [0x0638, 0xfec5, 0xfec6, 0xfec7, 0xfec8],
  [0x0639, 0xfec9, 0xfeca, 0xfecb, 0xfecc],
  [0x063a, 0xfecd, 0xfece, 0xfecf, 0xfed0],
  [0x0641, 0xfed1, 0xfed2, 0xfed3, 0xfed4],
  [0x0642, 0xfed5, 0xfed6, 0xfed7, 0xfed8],
  [0x0643, 0xfed9, 0xfeda, 0xfedb, 0xfedc],
  [0x0644, 0xfedd, 0xfede, 0xfedf, 0xfee0],
  [0x0645, 0xfee1, 0xfee2, 0xfee3, 0xfee4],
  [0x0646, 0xfee5, 0xfee6, 0xfee7, 0xfee8],
  [0x0647, 0xfee9, 0xfeea, 0xfeeb, 0xfeec],
  [0x0648, 0xfeed, 0xfeee, 0, 0],
  [0x0649, 0xfeef, 0xfef0, 0xfbe8, 0xfbe9],
  [0x064a, 0xfef1, 0xfef2, 0xfef3, 0xfef4],
  [0x0671, 0xfb50, 0xfb51, 0, 0],
  [0x0677, 0xfbdd, 0, 0, 0],
  [0x0679, 0xfb66, 0xfb67, 0xfb68, 0xfb69],
  [0x067a, 0xfb5e, 0xfb5f, 0xfb60, 0xfb61],
  [0x067b, 0xfb52, 0xfb53, 0xfb54, 0xfb55],
  [0x067e, 0xfb56, 0xfb57, 0xfb58, 0xfb59],
  [0x067f, 0xfb62, 0xfb63, 0xfb64, 0xfb65],
  [0x0680, 0xfb5a, 0xfb5b, 0xfb5c, 0xfb5d],
  [0x0683, 0xfb76, 0xfb77, 0xfb78, 0xfb79],
  [0x0684, 0xfb72, 0xfb73, 0xfb74, 0xfb75],
  [0x0686, 0xfb7a, 0xfb7b, 0xfb7c, 0xfb7d],
  [0x0687, 0xfb7e, 0xfb7f, 0xfb80, 0xfb81],
  [0x0688, 0xfb88, 0xfb89, 0, 0],
  [0x068c, 0xfb84, 0xfb85, 0, 0],
  [0x068d, 0xfb82, 0xfb83, 0, 0],
  [0x068e, 0xfb86, 0xfb87, 0, 0],
  [0x0691, 0xfb8c, 0xfb8d, 0, 0],
  [0x0698, 0xfb8a, 0xfb8b, 0, 0],
  [0x06a4, 0xfb6a, 0xfb6b, 0xfb6c, 0xfb6d],
  [0x06a6, 0xfb6e, 0xfb6f, 0xfb70, 0xfb71],
  [0x06a9, 0xfb8e, 0xfb8f, 0xfb90, 0xfb91],
  [0x06ad, 0xfbd3, 0xfbd4, 0xfbd5, 0xfbd6],
  [0x06af, 0xfb92, 0xfb93, 0xfb94, 0xfb95],
  [0x06b1, 0xfb9a, 0xfb9b, 0xfb9c, 0xfb9d],
  [0x06b3, 0xfb96, 0xfb97, 0xfb98, 0xfb99],
  [0x06ba, 0xfb9e, 0xfb9f, 0, 0],
  [0x06bb, 0xfba0, 0xfba1, 0xfba2, 0xfba3],
  [0x06be, 0xfbaa, 0xfbab, 0xfbac, 0xfbad],
  [0x06c0, 0xfba4, 0xfba5, 0, 0],
  [0x06c1, 0xfba6, 0xfba7, 0xfba8, 0xfba9],
  [0x06c5, 0xfbe0, 0xfbe1, 0, 0],
  [0x06c6, 0xfbd9, 0xfbda, 0, 0],
  [0x06c7, 0xfbd7, 0xfbd8, 0, 0],
  [0x06c8, 0xfbdb, 0xfbdc, 0, 0],
  [0x06c9, 0xfbe2, 0xfbe3, 0, 0],
  [0x06cb, 0xfbde, 0xfbdf, 0, 0],
  [0x06cc, 0xfbfc, 0xfbfd, 0xfbfe, 0xfbff],
  [0x06d0, 0xfbe4, 0xfbe5, 0xfbe6, 0xfbe7],
  [0x06d2, 0xfbae, 0xfbaf, 0, 0],
  [0x06d3, 0xfbb0, 0xfbb1, 0, 0],
];
const FORMS = new Map(FORMS_TABLE.map(([base, ...forms]) => [base, forms]));
const ISOLATED = 0;
const FINAL = 1;
const INITIAL = 2;
const MEDIAL = 3;

/** Alef (with madda, hamza above, hamza below, plain) → lam-alef ligature [isolated, final]. */
const LAM_ALEF = new Map([
  [0x0622, [0xfef5, 0xfef6]],
  [0x0623, [0xfef7, 0xfef8]],
  [0x0625, [0xfef9, 0xfefa]],
  [0x0627, [0xfefb, 0xfefc]],
]);
const LAM = 0x0644;

/** The inverse of FORMS_TABLE and LAM_ALEF, for tests and glyph checks. */
export const PRESENTATION_FORMS: ReadonlyMap<number, number[]> = new Map([
  ...FORMS_TABLE.flatMap(([base, ...forms]) => forms.filter(Boolean).map((form) => [form, [base]] as [number, number[]])),
  ...[...LAM_ALEF].flatMap(([alef, forms]) => forms.map((form) => [form, [LAM, alef]] as [number, number[]])),
]);

type Joining = 'D' | 'R' | 'L' | 'C' | 'T' | 'U';

/** Joining_Type of U+0600–08FF from ArabicShaping.txt (Unicode 14); every other code point of that block is U. */
const JOINING_RANGES: [Joining, string][] = [
  [
    'D',
    '0620 0626 0628 062A-062E 0633-063F 0641-0647 0649-064A 066E-066F 0678-0687 069A-06BF 06C1-06C2 06CC 06CE 06D0-06D1 06FA-06FC 06FF 0712-0714 071A-071D 071F-0727 0729 072B 072D-072E 074E-0758 075C-076A 076D-0770 0772 0775-0777 077A-077F 07CA-07EA 0841-0845 0848 084A-0853 0855 0860 0862-0865 0868 0886 0889-088D 08A0-08A9 08AF-08B0 08B3-08B8 08BA-08C8',
  ],
  [
    'R',
    '0622-0625 0627 0629 062F-0632 0648 0671-0673 0675-0677 0688-0699 06C0 06C3-06CB 06CD 06CF 06D2-06D3 06D5 06EE-06EF 0710 0715-0719 071E 0728 072A 072C 072F 074D 0759-075B 076B-076C 0771 0773-0774 0778-0779 0840 0846-0847 0849 0854 0856-0858 0867 0869-086A 0870-0882 088E 08AA-08AC 08AE 08B1-08B2 08B9',
  ],
  ['C', '0640 07FA 0883-0885'],
  [
    'T',
    '0610-061A 061C 064B-065F 0670 06D6-06DC 06DF-06E4 06E7-06E8 06EA-06ED 070F 0711 0730-074A 07A6-07B0 07EB-07F3 07FD 0816-0819 081B-0823 0825-0827 0829-082D 0859-085B 0898-089F 08CA-08E1 08E3-08FF',
  ],
];
const ARABIC_BLOCKS = new Map<number, Joining>();
for (const [type, ranges] of JOINING_RANGES) {
  for (const range of ranges.split(' ')) {
    const [from = '', to = from] = range.split('-');
    for (let cp = parseInt(from, 16); cp <= parseInt(to, 16); cp += 1) ARABIC_BLOCKS.set(cp, type);
  }
}
/** Outside the table, ArabicShaping.txt's rule: general category Mn, Me or Cf is transparent. */
const TRANSPARENT = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

function joiningType(cp: number): Joining {
  if (cp >= 0x0600 && cp <= 0x08ff) return ARABIC_BLOCKS.get(cp) ?? 'U';
  if (cp === 0x200d) return 'C'; // ZERO WIDTH JOINER
  if (cp === 0x200c) return 'U'; // ZERO WIDTH NON-JOINER
  return TRANSPARENT.test(String.fromCodePoint(cp)) ? 'T' : 'U';
}

const joinsBefore = (type: Joining | undefined) => type === 'D' || type === 'R' || type === 'C'; // may join the letter before it
const joinsAfter = (type: Joining | undefined) => type === 'D' || type === 'L' || type === 'C'; // may join the letter after it

export function shapeArabic(text: string): string {
  if (!/[\u0621-\u06d3]/.test(text)) return text;
  const cps = Array.from(text, (c) => c.codePointAt(0) ?? 0);
  const types = cps.map(joiningType);
  const neighbour = (i: number, step: -1 | 1): number => {
    let j = i + step;
    while (j >= 0 && j < cps.length && types[j] === 'T') j += step;
    return j;
  };
  let out = '';
  for (let i = 0; i < cps.length; i += 1) {
    const cp = cps[i] ?? 0;
    const forms = FORMS.get(cp);
    if (!forms) {
      out += String.fromCodePoint(cp);
      continue;
    }
    const before = neighbour(i, -1);
    const after = neighbour(i, 1);
    const joinedBefore = joinsBefore(types[i]) && joinsAfter(types[before]);
    const ligature = cp === LAM ? LAM_ALEF.get(cps[after] ?? 0) : undefined;
    if (ligature) {
      // Lam-alef joins only the letter before it; marks between the two follow the ligature.
      out += String.fromCodePoint(ligature[joinedBefore ? 1 : 0] ?? cp, ...cps.slice(i + 1, after));
      i = after;
      continue;
    }
    const joinedAfter = joinsAfter(types[i]) && joinsBefore(types[after]);
    const form = joinedBefore ? (joinedAfter ? MEDIAL : FINAL) : joinedAfter ? INITIAL : ISOLATED;
    out += String.fromCodePoint(forms[form] || cp); // no presentation form for that position: the letter as it is
  }
  return out;
}

// --- Bidirectional reordering --------------------------------------------------------------------------

/** What moves as one when a run is reversed (Intl.Segmenter cost five times the rest of the work). */
const CLUSTER = /(?:[\u{1f1e6}-\u{1f1ff}]{2}|[^])(?:\u200d\p{Extended_Pictographic}|[\p{M}\u200c\u200d\u{1f3fb}-\u{1f3ff}])*/gsu;

/**
 * bidi-js reads UTF-16 units, so a supplementary character would read as two strong left-to-right letters: it is
 * given a BMP stand-in of the same bidi class.
 */
function bidiInput(text: string): string {
  if (!/[\ud800-\udfff]/.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) {
      out += text[i];
      continue;
    }
    const cp = text.codePointAt(i) ?? code;
    if (cp <= 0xffff) {
      out += '\ufffd'; // a lone surrogate: neutral, like the U+FFFD it is drawn as
      continue;
    }
    const stand =
      (cp >= 0x10800 && cp <= 0x10fff) || (cp >= 0x1e800 && cp <= 0x1efff)
        ? '\u05d0' // right-to-left scripts (R; the Arabic-letter ones are AL, which differs only before digits)
        : (cp >= 0x1f000 && cp <= 0x1fbff) || (cp >= 0x1d300 && cp <= 0x1d35f)
          ? '!' // emoji, symbols, pictographs: ON
          : cp >= 0x1d7ce && cp <= 0x1d7ff
            ? '0' // mathematical digits: EN
            : cp >= 0xe0000 && cp <= 0xe0fff
              ? '\u00ad' // tags and variation selectors: BN
              : 'a'; // the rest (CJK, historic scripts, mathematical letters): L
    out += stand + stand;
    i += 1;
  }
  return out;
}

/** Whether the text holds a right-to-left letter or a bidi control (else visualOrder returns it as it is). */
export function needsVisualLayout(text: string): boolean {
  return NEEDS_LAYOUT.test(text);
}

/**
 * The line as drawn left to right; safe for any string. Shorten before this, in logical order, so an ellipsis lands
 * at the end a reader of that direction reaches last.
 */
export function visualOrder(text: string): string {
  if (!NEEDS_LAYOUT.test(text)) return text;
  const shaped = shapeArabic(text);
  const { levels } = bidi.getEmbeddingLevels(bidiInput(shaped), 'auto');
  const clusters: { text: string; level: number }[] = [];
  for (const { 0: segment, index } of shaped.matchAll(CLUSTER)) {
    const level = levels[index] ?? 0;
    const mirrored = level % 2 === 1 && segment.length === 1 ? bidi.getMirroredCharacter(segment) : null;
    clusters.push({ text: mirrored ?? segment, level });
  }
  // L2: from the highest level down to the lowest odd one, reverse every run at that level or above.
  let highest = 0;
  let lowestOdd = Infinity;
  for (const { level } of clusters) {
    if (level > highest) highest = level;
    if (level % 2 === 1 && level < lowestOdd) lowestOdd = level;
  }
  for (let level = highest; level >= lowestOdd; level -= 1) {
    for (let i = 0; i < clusters.length; i += 1) {
      if ((clusters[i]?.level ?? 0) < level) continue;
      let end = i;
      while (end + 1 < clusters.length && (clusters[end + 1]?.level ?? 0) >= level) end += 1;
      const run = clusters.slice(i, end + 1).reverse();
      clusters.splice(i, run.length, ...run);
      i = end;
    }
  }
  return clusters
    .map((c) => c.text)
    .join('')
    .replace(FORMATTING, '');
}
