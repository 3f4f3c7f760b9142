import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgPool, pgTransaction } from '@/lib/db';
import { validationError } from '@/lib/errors/app-error';
import type { TBranding, TBrandingRequest } from '@/lib/schemas/branding';
import { queryRow, sql } from '@/lib/sql';
import { accentColor, checkLogo, logoNameProblem, textOn } from './logo';

// A shipper's branding of its packages' public tracking page: an accent colour and a logo, one row per account in
// account_branding (both environments: the public page shows live packages only).

interface Row {
  accent_color: string | null;
  logo: Buffer | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  logo_name: string | null;
  updated_at: Date;
}

function present(row: Row | undefined): TBranding {
  if (!row) return { accent_color: null, logo: null, updated_at: null };
  return {
    accent_color: row.accent_color,
    logo:
      row.logo && row.logo_type && row.logo_name !== null
        ? {
            name: row.logo_name,
            type: row.logo_type,
            bytes: row.logo.length,
            data_url: `data:${row.logo_type};base64,${row.logo.toString('base64')}`,
          }
        : null,
    updated_at: row.updated_at.toISOString(),
  };
}

export async function getBranding(options: { accountId: string }): Promise<TBranding> {
  const row = await queryRow(
    pgPool(),
    sql<Row>`SELECT accent_color, logo, logo_type, logo_name, updated_at FROM account_branding WHERE account_id = ${options.accountId}::uuid`,
  );
  return present(row);
}

/** What the public page shows: the accent, the colour of text on it, and the logo as a data: URL (CSP allows data:). */
export async function publicBranding(
  accountId: string,
): Promise<{ accent: string | null; onAccent: string; logo: string | null }> {
  const branding = await getBranding({ accountId });
  return {
    accent: branding.accent_color,
    onAccent: branding.accent_color ? textOn(branding.accent_color) : '#ffffff',
    logo: branding.logo?.data_url ?? null,
  };
}

/** Strict base64 (the standard alphabet, padded), decoded; undefined when it is not. */
function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

export async function setBranding(
  options: { accountId: string; origin: AuditOrigin },
  request: TBrandingRequest,
): Promise<TBranding> {
  const problems: { path: string; message: string }[] = [];
  let logo: { bytes: Buffer; type: string; name: string } | null | undefined;
  if (request.logo === null) logo = null;
  else if (request.logo) {
    const nameProblem = logoNameProblem(request.logo.name);
    if (nameProblem) problems.push({ path: 'logo.name', message: nameProblem });
    const bytes = decodeBase64(request.logo.content_base64);
    if (!bytes)
      problems.push({ path: 'logo.content_base64', message: 'must be the file in base64 (A–Z, a–z, 0–9, +, /, = padding)' });
    else {
      const check = checkLogo(bytes);
      if (!check.ok) problems.push({ path: 'logo.content_base64', message: check.message });
      else logo = { bytes, type: check.type, name: request.logo.name };
    }
  }
  const accent =
    request.accent_color === undefined ? undefined : request.accent_color === null ? null : accentColor(request.accent_color);
  if (problems.length > 0) throw validationError(problems);
  return pgTransaction(async (client) => {
    const before = await queryRow(
      client,
      sql<Row>`SELECT accent_color, logo, logo_type, logo_name, updated_at FROM account_branding WHERE account_id = ${options.accountId}::uuid FOR UPDATE`,
    );
    const next = {
      accent: accent === undefined ? (before?.accent_color ?? null) : accent,
      logo: logo === undefined ? (before?.logo ?? null) : (logo?.bytes ?? null),
      type: logo === undefined ? (before?.logo_type ?? null) : (logo?.type ?? null),
      name: logo === undefined ? (before?.logo_name ?? null) : (logo?.name ?? null),
    };
    const row = await queryRow(
      client,
      sql<Row>`INSERT INTO account_branding (account_id, accent_color, logo, logo_type, logo_name, updated_at)
        VALUES (${options.accountId}::uuid, ${next.accent}, ${next.logo}, ${next.type}, ${next.name}, now())
        ON CONFLICT (account_id) DO UPDATE SET accent_color = EXCLUDED.accent_color, logo = EXCLUDED.logo,
          logo_type = EXCLUDED.logo_type, logo_name = EXCLUDED.logo_name, updated_at = now()
        RETURNING accent_color, logo, logo_type, logo_name, updated_at`,
    );
    await recordAudit(
      options.origin,
      {
        accountId: options.accountId,
        action: 'settings.updated',
        target: { type: 'settings', id: 'branding' },
        details: {
          accent_color_before: before?.accent_color ?? null,
          accent_color: next.accent,
          logo_before: before?.logo_name ?? null,
          logo: next.name,
          ...(logo ? { logo_bytes: logo.bytes.length } : {}),
        },
      },
      client,
    );
    return present(row);
  });
}
