import 'server-only';
import { fileNamePart } from '@/lib/documents/text';
import { cachedDocument, keepDocument, type DocumentKey } from '@/lib/documents/document-cache';
import { packagesQuery, type ManifestHead } from '@/lib/documents/load-documents';
import { CONTENT_TYPES, negotiateFormat, type DocumentFormat } from '@/lib/documents/negotiate-format';
import type { ManifestSource } from '@/lib/documents/manifest-source';
import type { PackagesQuery } from '@/lib/documents/package-bytes';
import type { RenderRequest } from '@/lib/documents/render-request';
import { renderPool } from '@/lib/documents/render-pool';
import type { RenderedDocument } from '@/lib/documents/spilled-document';
import { log } from '@/lib/log';
import type { OperationContext, OperationResult } from './operation';
import { pathParam } from './context';
import { errorAnswer, type Json } from './openapi/parts';

// Documents as bytes, the format by ?format= or Accept (406 otherwise), scoped like every read. The manifest row is
// read first (404), a kept document is served as it is, else the render limits admit the render before any package is read.

export function formatOf(context: OperationContext, allowed: readonly DocumentFormat[]): DocumentFormat {
  return negotiateFormat({ format: context.query.get('format'), accept: context.accept ?? null, allowed });
}

export function file(bytes: RenderedDocument, format: DocumentFormat, name: string): OperationResult<never> {
  return { file: { bytes, contentType: CONTENT_TYPES[format], fileName: `${fileNamePart(name)}.${format}` } };
}

export function manifestScope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment, manifestId: pathParam(context, 'id') };
}

/** Renders under the account's and the process's limits; `prepare` reads the data once a render thread is free. */
export async function rendered(context: OperationContext, prepare: () => Promise<RenderRequest>): Promise<Uint8Array>;
/** …a large document spilled to a file, for a caller that only sends it. */
export async function rendered(
  context: OperationContext,
  prepare: () => Promise<RenderRequest>,
  options: { spill: true },
): Promise<RenderedDocument>;
export async function rendered(
  context: OperationContext,
  prepare: () => Promise<RenderRequest>,
  options?: { spill: true },
): Promise<RenderedDocument> {
  const ticket = renderPool().admit(context.auth.accountId);
  try {
    return options ? await ticket.render(prepare, options) : await ticket.render(prepare);
  } finally {
    ticket.release();
  }
}

/**
 * A manifest's document: kept (a closed daily manifest's), else rendered, and kept when it may be. One not kept may come
 * back spilled to a file (a 5,000-label PDF): it is sent from there, never held whole on the serving thread.
 */
export async function manifestDocument(
  context: OperationContext,
  head: ManifestHead,
  key: Omit<DocumentKey, 'manifestId'>,
  job: (source: ManifestSource<PackagesQuery>) => RenderRequest,
  load: { houseWaybills?: boolean } = {},
): Promise<RenderedDocument> {
  // A closed manifest never changes: its documents are kept; an open or cancelled one's never are.
  const keep = head.kind === 'daily' && head.state === 'closed' ? { ...key, manifestId: head.manifestId } : undefined;
  const kept = keep ? await cachedDocument(keep) : undefined;
  if (kept) return kept;
  // The packages are read where the document renders (package-bytes.ts): their megabytes skip the serving thread.
  const prepare = () => Promise.resolve(job({ ...head, packages: packagesQuery(head, load) }));
  if (!keep) return rendered(context, prepare, { spill: true });
  const bytes = await rendered(context, prepare);
  await keepDocument(keep, bytes).catch((error: unknown) =>
    log.warn({ err: error, manifestId: head.manifestId }, 'document cache: document not kept'),
  );
  return bytes;
}

/** What the reference says of every document operation: the format's parameter and the answers they share. */
export function documentDoc(formats: readonly DocumentFormat[], extra: readonly Json[] = []) {
  return {
    parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [...formats] } }, ...extra],
    success: {
      kind: 'file' as const,
      description: 'The document.',
      // The media type without its parameters, as the reference names it.
      contentTypes: formats.map((format) => CONTENT_TYPES[format].split(';')[0] ?? ''),
      headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'inline; filename="…"' } },
    },
    errors: {
      '404': errorAnswer('No such manifest or package in this account and environment.'),
      '406': errorAnswer('The document does not come in the format asked for (`not_acceptable`).'),
      '503': errorAnswer('`service_unavailable`: every render thread is busy and the queue is full; `Retry-After` says when.'),
    },
  };
}

export const FORMAT_NOTE = 'Format by `?format=` or `Accept`; PDF when neither says. `Content-Disposition` names the file.';
