import { describe, expect, it } from 'vitest';
import { packageLabelSvg, renderPackageLabelPng } from './render-label-png';
import type { DocumentLabel } from './types';

// The PNG label is an SVG rendered by resvg, which refuses a whole document for one character XML has no
// place for. The text rule keeps NUL, controls and lone surrogates out of storage, but not the noncharacters
// U+FFFE and U+FFFF: a package stored with one in its address made GET /packages/{TN}/label?format=png a 500.

const shipper = {
  company: 'Acme \uffff Parcels',
  name: 'Dock \ufffe 4',
  address1: '1 Way',
  city: 'Newark',
  state: 'NJ',
  postalCode: '07114',
  country: 'US',
};

function label(text: string): DocumentLabel {
  return {
    manifestId: 'MAN-01HX7Q2ABC',
    manifestDate: '2026-11-23',
    carrier: 'Carrier',
    shipper,
    pkg: {
      trackingNumber: '1Z00000007',
      toName: text,
      toAddress1: text,
      toCity: text,
      toPostalCode: '90210',
      serviceName: 'AirSkip',
      sortCode: text,
    },
  };
}

describe('PNG label: text XML cannot hold', { timeout: 60_000 }, () => {
  it('renders U+FFFE, U+FFFF, controls and lone surrogates as U+FFFD, never a refused SVG', async () => {
    for (const text of ['a\uffffb', '\ufffe', 'x\u0000y\u0007z', 'p\ud800q', '\udfff', '𝕏 🚚 ok']) {
      const svg = packageLabelSvg(label(text));
      expect(svg).not.toMatch(/[\uFFFE\uFFFF\u0000-\u0008\u000B\u000C\u000E-\u001F]/u);
      const png = await renderPackageLabelPng(label(text));
      expect(Buffer.from(png.subarray(1, 4)).toString(), JSON.stringify(text)).toBe('PNG');
    }
  });
});

describe('PNG label: right-to-left text', { timeout: 60_000 }, () => {
  it('draws the line the PDF draws: in visual order, held left to right so that resvg does not reorder it again', async () => {
    const svg = packageLabelSvg({
      ...label('x'),
      pkg: { ...label('x').pkg, toName: 'דוד כהן', toAddress1: 'רחוב הרצל 12', toCity: 'سلام' },
    });
    expect(svg).toContain('>\u202dןהכ דוד\u202c</text>');
    expect(svg).toContain('>\u202d12 לצרה בוחר\u202c</text>');
    expect(svg).toContain(`>\u202d90210 ${String.fromCodePoint(0xfee1, 0xfefc, 0xfeb3)}\u202c</text>`); // city and postal code on one line
    expect(svg).toContain('>Manifest MAN-01HX7Q2ABC</text>'); // left-to-right text as it was, no override around it
  });
});
