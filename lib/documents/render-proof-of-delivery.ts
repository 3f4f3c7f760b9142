import { rgb } from 'pdf-lib';
import { barcode, box, GREY, INCH, LIGHT, line, newCanvas, text, type Canvas, type Page } from './pdf';

// The proof-of-delivery certificate (GET /packages/{TrackingNumber}/proof-of-delivery/document): one Letter page with
// the package, when and where it was delivered, who took it, and the signature and photo the scan carried. A test
// package's certificate says TEST, so that no printed copy is taken for a real delivery.

export interface DocumentProofImage {
  bytes: Uint8Array;
  type: 'image/png' | 'image/jpeg';
}

export interface DocumentProof {
  test: boolean;
  shipper: string;
  trackingNumber: string | null;
  carrierBarcode: string;
  service: string | null;
  destination: string;
  deliveredAt: Date;
  location: string | null;
  recipientName: string | null;
  scanId: string;
  issuedAt: Date;
  signature: DocumentProofImage | null;
  photo: DocumentProofImage | null;
}

const [WIDTH, HEIGHT] = [8.5 * INCH, 11 * INCH];
const MARGIN = 48;
const TEST_RED = rgb(0.75, 0.1, 0.1);
const stamp = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export async function renderProofOfDeliveryPdf(proof: DocumentProof): Promise<Uint8Array> {
  const reference = proof.trackingNumber ?? proof.carrierBarcode;
  const canvas = await newCanvas(`Proof of delivery ${reference}${proof.test ? ' (TEST)' : ''}`, proof.issuedAt);
  const page = canvas.addPage([WIDTH, HEIGHT]);
  text(page, 'Proof of delivery', { x: MARGIN, y: MARGIN + 20, size: 22, font: canvas.bold });
  if (proof.test) {
    box(page, WIDTH - MARGIN - 150, MARGIN, 150, 28, { fill: TEST_RED });
    text(page, 'TEST — not a delivery', {
      x: WIDTH - MARGIN - 75,
      y: MARGIN + 19,
      size: 11,
      font: canvas.bold,
      align: 'center',
      color: rgb(1, 1, 1),
    });
  }
  text(page, `Issued ${stamp(proof.issuedAt)} for ${proof.shipper}`, {
    x: MARGIN,
    y: MARGIN + 40,
    size: 9,
    font: canvas.regular,
    color: GREY,
    maxWidth: WIDTH - 2 * MARGIN,
  });
  line(page, MARGIN, MARGIN + 52, WIDTH - MARGIN, MARGIN + 52);
  const rows: [string, string][] = [
    ['Tracking number', proof.trackingNumber ?? '—'],
    ['Carrier barcode', proof.carrierBarcode],
    ['Service', proof.service ?? '—'],
    ['Destination', proof.destination || '—'],
    ['Delivered', stamp(proof.deliveredAt)],
    ['Scanned at', proof.location ?? '—'],
    ['Received by', proof.recipientName ?? 'Not recorded'],
    ['Scan', proof.scanId],
  ];
  let y = MARGIN + 80;
  for (const [label, value] of rows) {
    text(page, label, { x: MARGIN, y, size: 10, font: canvas.regular, color: GREY });
    text(page, value, { x: MARGIN + 130, y, size: 11, font: canvas.bold, maxWidth: WIDTH - 2 * MARGIN - 130 });
    y += 20;
  }
  barcode(page, canvas, proof.carrierBarcode, { x: MARGIN, y: y + 4, maxWidth: 260, height: 44, caption: proof.carrierBarcode });
  y += 90;
  const half = (WIDTH - 2 * MARGIN - 24) / 2;
  await imageFrame(page, canvas, 'Signature', proof.signature, { x: MARGIN, y, width: half, height: 200 });
  await imageFrame(page, canvas, 'Photo at delivery', proof.photo, { x: MARGIN + half + 24, y, width: half, height: 200 });
  line(page, MARGIN, HEIGHT - 60, WIDTH - MARGIN, HEIGHT - 60, 0.5, GREY);
  text(page, 'This certificate reproduces what the delivery scan carried; the images are shown as received.', {
    x: MARGIN,
    y: HEIGHT - 46,
    size: 8,
    font: canvas.regular,
    color: GREY,
    maxWidth: WIDTH - 2 * MARGIN,
  });
  return canvas.save();
}

/** A titled frame with the image fitted inside it, or a note when there is none (or it cannot be decoded). */
async function imageFrame(
  page: Page,
  canvas: Canvas,
  title: string,
  image: DocumentProofImage | null,
  at: { x: number; y: number; width: number; height: number },
): Promise<void> {
  text(page, title, { x: at.x, y: at.y, size: 10, font: canvas.bold });
  const top = at.y + 8;
  box(page, at.x, top, at.width, at.height, { fill: LIGHT });
  const note = (value: string) =>
    text(page, value, {
      x: at.x + at.width / 2,
      y: top + at.height / 2,
      size: 9,
      font: canvas.regular,
      color: GREY,
      align: 'center',
    });
  if (!image) return void note('None recorded');
  let embedded: Awaited<ReturnType<Canvas['embedImage']>>;
  try {
    embedded = await canvas.embedImage(image.bytes, image.type);
  } catch {
    // The bytes passed the upload's checks (type, structure) but not the PDF library's decoder: say so, never fail.
    return void note('Image could not be shown');
  }
  const scale = Math.min((at.width - 8) / embedded.width, (at.height - 8) / embedded.height);
  const w = embedded.width * scale;
  const h = embedded.height * scale;
  const x = at.x + (at.width - w) / 2;
  const yTop = top + (at.height - h) / 2;
  page.drawImage(embedded.ref, x, page.getHeight() - yTop - h, w, h);
}
