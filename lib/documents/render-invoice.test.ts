import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf, type DocumentInvoice } from './render-invoice';

// The invoice PDF read back as a machine reads it (pdftotext): its totals, its adjustments' reasons, "page n of N" and,
// for a test invoice, TEST on every page.

const dir = mkdtempSync(path.join(tmpdir(), 'invoice-pdf-'));

function pages(bytes: Uint8Array, keep = ''): string[] {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  // INVOICE_PDF_KEEP=<dir>: the test invoice's PDF is kept there, to look at.
  if (keep && process.env.INVOICE_PDF_KEEP) writeFileSync(path.join(process.env.INVOICE_PDF_KEEP, `invoice-${keep}.pdf`), bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'])
    .toString()
    .split('\f')
    .filter((p) => p.trim() !== '');
}

const invoice = (over: Partial<DocumentInvoice> = {}): DocumentInvoice => ({
  number: 12,
  id: 'inv_0123456789abcdef01234567',
  test: false,
  accountName: 'Acme Parcels',
  periodKind: 'month',
  periodStart: new Date('2026-11-01T04:00:00Z'),
  periodEnd: new Date('2026-12-01T05:00:00Z'),
  timeZone: 'America/New_York',
  currency: 'USD',
  total: '1234.56',
  lineCount: 250,
  charges: '1240.00',
  adjustments: '4.56',
  voids: '10.00',
  issuedAt: new Date('2026-12-01T05:05:00Z'),
  byService: [
    { service: 'express', lines: 100, amount: '700.00' },
    { service: 'ground', lines: 150, amount: '534.56' },
  ],
  byManifest: Array.from({ length: 120 }, (_, i) => ({
    manifest_id: `MAN-${String(i).padStart(16, '0')}`,
    lines: 2,
    amount: '10.29',
  })),
  adjustmentLines: [
    {
      occurredAt: new Date('2026-11-20T15:00:00Z'),
      reference: '1Z999AA10123456784',
      service: 'ground',
      amount: '4.56',
      reason: 'measured 12 lb, declared 8 lb',
    },
  ],
  adjustmentCount: 1,
  ...over,
});

describe('the invoice PDF', () => {
  it('shows the period in its zone, the totals, by service, by manifest and the adjustments with their reasons', async () => {
    const text = pages(await renderInvoicePdf(invoice())).join('\n');
    expect(text).toContain('INV-000012');
    expect(text).toContain('2026-11-01 to 2026-11-30');
    expect(text).toMatch(/Total\s+1234\.56 USD/);
    expect(text).toMatch(/Voids \(credits\)\s+−10\.00 USD/);
    expect(text).toMatch(/express\s+100\s+700\.00/);
    expect(text).toMatch(/MAN-0000000000000119\s+2\s+10\.29/);
    expect(text).toContain('measured 12 lb, declared 8 lb');
    expect(text).not.toContain('TEST');
  });

  it('says TEST on every page of a test invoice, with page n of N', async () => {
    const all = pages(await renderInvoicePdf(invoice({ test: true })), 'test');
    expect(all.length).toBeGreaterThan(1);
    all.forEach((page, i) => {
      expect(page).toContain('TEST');
      expect(page).toContain(`Page ${i + 1} of ${all.length}`);
      expect(page).toContain('INV-000012');
    });
  });

  it('an invoice with no adjustments says so', async () => {
    const text = pages(await renderInvoicePdf(invoice({ adjustmentLines: [], adjustmentCount: 0, byManifest: [] }))).join('\n');
    expect(text).toContain('No adjustments on this invoice.');
  });
});
