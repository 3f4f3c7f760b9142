import { AppError, validationError } from '@/lib/errors/app-error';
import type { PaperSize } from './types';

export type DocumentFormat = 'pdf' | 'zpl' | 'png';

export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  zpl: 'application/zpl; charset=utf-8',
  png: 'image/png',
};

const BY_MEDIA: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/zpl': 'zpl',
  'application/x-zpl': 'zpl',
  'image/png': 'png',
};

/**
 * The format asked for: `?format=` first, else the first Accept media type this document comes in,
 * else PDF. A format it does not come in is a 406 naming those it does.
 */
export function negotiateFormat(options: {
  format: string | null;
  accept: string | null;
  allowed: readonly DocumentFormat[];
}): DocumentFormat {
  const { format, accept, allowed } = options;
  const refuse = (asked: string) =>
    new AppError('not_acceptable', `This document is available as ${allowed.join(', ')}; not as ${asked.slice(0, 60)}.`, {
      details: [{ path: format !== null ? 'format' : 'Accept', message: `must be one of: ${allowed.join(', ')}` }],
    });
  if (format !== null) {
    const wanted = format.toLowerCase();
    if ((allowed as readonly string[]).includes(wanted)) return wanted as DocumentFormat;
    throw refuse(format);
  }
  if (!accept || accept.trim() === '') return allowed[0] ?? 'pdf';
  const ranges = accept
    .split(',')
    .map((part) => {
      const [media = '', ...params] = part.trim().toLowerCase().split(';');
      const q = Number(
        params
          .map((p) => p.trim())
          .find((p) => p.startsWith('q='))
          ?.slice(2) ?? '1',
      );
      return { media: media.trim(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { media } of ranges) {
    if (media === '*/*' || media === 'application/*') return allowed[0] ?? 'pdf';
    const found = BY_MEDIA[media];
    if (found && allowed.includes(found)) return found;
    if (media === 'image/*' && allowed.includes('png')) return 'png';
  }
  throw refuse(accept);
}

export function paperSize(value: string | null): PaperSize {
  if (value === null || value.toLowerCase() === 'letter') return 'letter';
  if (value.toLowerCase() === 'a4') return 'a4';
  throw validationError([{ path: 'paper', message: 'must be letter or a4' }]);
}
