import 'server-only';
import { fileNamePart } from '@/lib/documents';
import { cachedDocument, keepDocument, type DocumentKey } from '@/lib/documents/document-cache';
import { loadDocumentLabel, loadManifestHead, loadPackages, type ManifestHead } from '@/lib/documents/load-documents';
import { CONTENT_TYPES, negotiateFormat, paperSize, type DocumentFormat } from '@/lib/documents/negotiate-format';
import type { ManifestSource } from '@/lib/documents/manifest-source';
import type { RenderJob } from '@/lib/documents/render-job';
import { renderPool } from '@/lib/documents/render-pool';
import { log } from '@/lib/log';
import type { Operation, OperationContext, OperationResult } from '../types';

// Documents as bytes: the format by ?format= or Accept (406 otherwise), scoped by the token's
// account and the path's environment (another's id is a plain 404), named for saving.
// Rendered on a render thread (lib/documents/render-pool.ts): the manifest's row is read first (404 before
// anything else), a closed daily manifest's kept document is served as it is (document-cache.ts), and
// otherwise the account's and the process's render limits admit the render (429 / 503) before its
// packages are read.

function formatOf(context: OperationContext, allowed: readonly DocumentFormat[]): DocumentFormat {
  return negotiateFormat({ format: context.query.get('format'), accept: context.accept ?? null, allowed });
}

function file(bytes: Uint8Array, format: DocumentFormat, name: string): OperationResult {
  return { file: { bytes, contentType: CONTENT_TYPES[format], fileName: `${fileNamePart(name)}.${format}` } };
}

function manifestScope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment, manifestId: context.params.id ?? '' };
}

/** Renders under the account's and the process's limits; `prepare` reads the data once a render thread is free. */
async function rendered(context: OperationContext, prepare: () => Promise<RenderJob>): Promise<Uint8Array> {
  const ticket = renderPool().admit(context.auth.accountId);
  try {
    return await ticket.render(prepare);
  } finally {
    ticket.release();
  }
}

/** A manifest's document: kept (a closed daily manifest's), else rendered, and kept when it may be. */
async function manifestDocument(
  context: OperationContext,
  head: ManifestHead,
  key: Omit<DocumentKey, 'manifestId'>,
  job: (source: ManifestSource) => RenderJob,
): Promise<Uint8Array> {
  // A closed manifest never changes: its documents are kept; an open or cancelled one's never are.
  const keep = head.kind === 'daily' && head.state === 'closed' ? { ...key, manifestId: head.manifestId } : undefined;
  const kept = keep ? await cachedDocument(keep) : undefined;
  if (kept) return kept;
  const bytes = await rendered(context, async () => job({ ...head, packages: await loadPackages(head) }));
  if (keep)
    await keepDocument(keep, bytes).catch((error: unknown) =>
      log.warn({ err: error, manifestId: head.manifestId }, 'document cache: document not kept'),
    );
  return bytes;
}

// GET /manifests/:id/document: the handover manifest (PDF; ?paper=letter|a4).
export const getManifestDocumentOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf']);
  const paper = paperSize(context.query.get('paper'));
  const head = await loadManifestHead(manifestScope(context));
  const bytes = await manifestDocument(context, head, { document: 'handover', format: 'pdf', paper }, (source) => ({
    document: 'handover',
    source,
    paper,
  }));
  return file(bytes, format, `handover-${head.manifestId}`);
};

// GET /manifests/:id/tags: the container tag (PDF or ZPL).
export const getManifestTagsOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf', 'zpl']) as 'pdf' | 'zpl';
  const head = await loadManifestHead(manifestScope(context));
  const bytes = await manifestDocument(context, head, { document: 'tag', format, paper: '' }, (source) => ({
    document: 'tag',
    source,
    format,
  }));
  return file(bytes, format, `tag-${head.containerId ?? head.manifestId}`);
};

// GET /manifests/:id/labels: every package label of the manifest (PDF or ZPL).
export const getManifestLabelsOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf', 'zpl']) as 'pdf' | 'zpl';
  const head = await loadManifestHead(manifestScope(context));
  const bytes = await manifestDocument(context, head, { document: 'labels', format, paper: '' }, (source) => ({
    document: 'labels',
    source,
    format,
  }));
  return file(bytes, format, `labels-${head.manifestId}`);
};

// GET /packages/:trackingNumber/label: one package label (PDF, ZPL or PNG).
export const getPackageLabelOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf', 'zpl', 'png']);
  const label = await loadDocumentLabel({
    accountId: context.auth.accountId,
    environment: context.environment,
    trackingNumber: context.params.trackingNumber ?? '',
  });
  const bytes = await rendered(context, () => Promise.resolve({ document: 'label', label, format }));
  return file(bytes, format, `label-${label.pkg.trackingNumber ?? label.manifestId}`);
};
