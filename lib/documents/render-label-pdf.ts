import { barcode, cancelledStamp, line, newCanvas, text, type Canvas } from './pdf';
import { containerTagLayout, LABEL_HEIGHT, LABEL_WIDTH, packageLabelLayout, type Element } from './layout';
import type { DocumentLabel, DocumentManifest } from './types';

function drawElements(canvas: Canvas, elements: Element[]): void {
  const page = canvas.addPage([LABEL_WIDTH, LABEL_HEIGHT]);
  for (const el of elements) {
    if (el.kind === 'text') {
      text(page, el.value, {
        x: el.x,
        y: el.y,
        size: el.size,
        minSize: el.minSize,
        font: el.bold ? canvas.bold : canvas.regular,
        maxWidth: el.maxWidth,
        align: el.align ?? 'left',
      });
    } else if (el.kind === 'barcode') {
      const width = barcode(page, canvas, el.value, {
        x: el.x,
        y: el.y,
        maxWidth: el.maxWidth,
        height: el.height,
        minModule: 0.7,
      });
      if (width === 0)
        text(page, el.value, { x: el.x, y: el.y + el.height / 2, size: 12, font: canvas.bold, maxWidth: el.maxWidth });
    } else if (el.kind === 'rule') {
      line(page, el.x, el.y, el.x + el.width, el.y, el.thickness);
    } else {
      cancelledStamp(page, canvas, { horizontal: true });
    }
  }
}

/** One 4×6 in package label as PDF. */
export async function renderPackageLabelPdf(label: DocumentLabel): Promise<Uint8Array> {
  return renderPackageLabelsPdf([label], `Label ${label.pkg.trackingNumber ?? ''}`);
}

/** Every label of a manifest, one per page (a manifest with no packages gets one page saying so). */
export async function renderPackageLabelsPdf(labels: DocumentLabel[], title: string): Promise<Uint8Array> {
  const canvas = await newCanvas(title);
  for (const label of labels) drawElements(canvas, packageLabelLayout(label));
  if (labels.length === 0) {
    const page = canvas.addPage([LABEL_WIDTH, LABEL_HEIGHT]);
    text(page, 'This manifest has no packages.', {
      x: LABEL_WIDTH / 2,
      y: LABEL_HEIGHT / 2,
      size: 14,
      font: canvas.bold,
      align: 'center',
      maxWidth: LABEL_WIDTH - 24,
    });
    text(page, title, {
      x: LABEL_WIDTH / 2,
      y: LABEL_HEIGHT / 2 + 20,
      size: 10,
      font: canvas.regular,
      align: 'center',
      maxWidth: LABEL_WIDTH - 24,
    });
  }
  return canvas.save();
}

/** The container tag (4×6 in) as PDF; a daily manifest gets the same tag without a container barcode. */
export async function renderContainerTagPdf(manifest: DocumentManifest): Promise<Uint8Array> {
  const canvas = await newCanvas(`Container tag ${manifest.containerId ?? manifest.manifestId}`, manifest.generatedAt);
  drawElements(canvas, containerTagLayout(manifest));
  return canvas.save();
}
