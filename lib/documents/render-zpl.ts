import { encodable } from './barcode';
import { containerTagLayout, LABEL_WIDTH, packageLabelLayout, type Element } from './layout';
import { cleanText, shrinkToFit } from './text';
import type { DocumentLabel, DocumentManifest } from './types';
import { visualOrder } from './visual-order';

// ZPL II for 203 dpi 4×6 in thermal labels, every field sent with ^FH\ so that ^ ~ and \ in data cannot end it or
// start a command. Right-to-left text goes in visual order with Arabic shaped (visual-order.ts), as the PDF draws it;
// the printer's own bidi layout (^PA) stays off, since it would reorder the line a second time.

const DPI = 203;
const dots = (points: number) => Math.round((points * DPI) / 72);

/** Field data with ^, ~ and \ as \hh escapes (the ^FH\ indicator). */
export function zplField(value: string): string {
  return value.replace(/[\\^~]/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** Shortened for ^A0 by an average glyph width (0.6 em); the printer's font cannot be measured here. */
function fitByCount(value: string, size: number, maxWidth: number): string {
  const chars = Array.from(value);
  const fit = Math.max(1, Math.floor(maxWidth / (size * 0.6)));
  return chars.length <= fit
    ? value
    : `${chars
        .slice(0, Math.max(0, fit - 3))
        .join('')
        .trimEnd()}...`;
}

/** A Code 128 symbol's width in modules in Subset B alone: start, one symbol a character, check (11 each), stop (13), quiet zones (10 each). */
export function subsetBModules(value: string): number {
  return (value.length + 2) * 11 + 13 + 20;
}

function elementZpl(el: Element): string {
  switch (el.kind) {
    case 'text': {
      const clean = cleanText(el.value);
      const size = shrinkToFit(Array.from(clean).length * el.size * 0.6, el.size, el.maxWidth, el.minSize);
      const value = visualOrder(fitByCount(clean, size, el.maxWidth));
      const h = dots(size);
      const top = dots(el.y - size * 0.8);
      // ^FB centres or right-aligns within a block as wide as the text's box.
      if (el.align === 'center' || el.align === 'right') {
        const width = dots(el.maxWidth);
        const left = el.align === 'center' ? dots(el.x - el.maxWidth / 2) : dots(el.x - el.maxWidth);
        return `^FO${Math.max(0, left)},${Math.max(0, top)}^A0N,${h},${h}^FB${width},1,0,${el.align === 'center' ? 'C' : 'R'},0^FH\\^FD${zplField(value)}^FS`;
      }
      return `^FO${dots(el.x)},${Math.max(0, top)}^A0N,${h},${h}^FH\\^FD${zplField(value)}^FS`;
    }
    case 'barcode': {
      if (!encodable(el.value)) return '';
      // Sized for Subset B throughout, the widest any packing can be, so the symbol and its quiet zones stay on the label.
      const modules = subsetBModules(el.value);
      const moduleWidth = Math.max(1, Math.min(4, Math.floor(dots(el.maxWidth) / modules)));
      const left = dots(el.x) + Math.max(0, Math.floor((dots(el.maxWidth) - modules * moduleWidth) / 2));
      return `^BY${moduleWidth},3,${dots(el.height)}^FO${left},${dots(el.y)}^BCN,${dots(el.height)},N,N,N,A^FH\\^FD${zplField(el.value)}^FS`;
    }
    case 'rule':
      return `^FO${dots(el.x)},${dots(el.y)}^GB${dots(el.width)},${Math.max(1, dots(el.thickness))},${Math.max(1, dots(el.thickness))}^FS`;
    case 'stamp':
      return `^FO${dots(20)},${dots(200)}^A0N,${dots(48)},${dots(48)}^FB${dots(LABEL_WIDTH - 40)},1,0,C,0^FR^FH\\^FD${zplField(el.value)}^FS`;
  }
}

function labelZpl(elements: Element[]): string {
  return [
    '^XA',
    '^CI28',
    `^PW${dots(LABEL_WIDTH)}`,
    `^LL${dots(6 * 72)}`,
    ...elements.map(elementZpl).filter(Boolean),
    '^XZ',
  ].join('\n');
}

export function renderPackageLabelZpl(label: DocumentLabel): string {
  return `${labelZpl(packageLabelLayout(label))}\n`;
}

export function renderPackageLabelsZpl(labels: DocumentLabel[]): string {
  return labels.map((label) => `${labelZpl(packageLabelLayout(label))}\n`).join('');
}

export function renderContainerTagZpl(manifest: DocumentManifest): string {
  return `${labelZpl(containerTagLayout(manifest))}\n`;
}
