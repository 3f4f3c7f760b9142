import type { DocumentCustomsDeclaration } from './customs-declaration';
import type { ManifestSource } from './manifest-source';
import type { OneRecordOptions } from './one-record';
import type { PackagesQuery } from './package-bytes';
import type { DocumentInvoice } from './render-invoice';
import type { DocumentProof } from './render-proof-of-delivery';
import type { DocumentLabel, PaperSize } from './types';

// One document to render, as structured-clonable data: what the serving thread hands a render thread (render-pool.ts).
// Apart from the renderers (render-job.ts), so that a serving thread never loads them, nor pdf-lib and fontkit with them.

/** Part of every kept document's key: raise it when a renderer's output changes, so kept documents render again. */
export const RENDER_VERSION = 3;

export type RenderJob<Packages = Uint8Array> =
  | { document: 'handover'; source: ManifestSource<Packages>; paper: PaperSize }
  | { document: 'tag'; source: ManifestSource<Packages>; format: 'pdf' | 'zpl' }
  | { document: 'labels'; source: ManifestSource<Packages>; format: 'pdf' | 'zpl' }
  | { document: 'label'; label: DocumentLabel; format: 'pdf' | 'zpl' | 'png' }
  | { document: 'package-labels'; labels: DocumentLabel[]; title: string; format: 'pdf' | 'zpl' }
  | { document: 'customs'; source: ManifestSource<Packages>; paper: PaperSize }
  | { document: 'customs-declaration'; declaration: DocumentCustomsDeclaration; paper: PaperSize }
  | { document: 'one-record'; source: ManifestSource<Packages>; options: OneRecordOptions }
  | { document: 'invoice'; invoice: DocumentInvoice }
  | { document: 'proof-of-delivery'; proof: DocumentProof };

/**
 * A render thread asked to spill writes a document at least this large to a file (spilled-document.ts); a smaller one
 * comes back as bytes (one allocation, no file).
 */
export const SPILL_BYTES = 1024 * 1024;

/**
 * A job as it is handed to be rendered: a manifest's packages either read already, or what to read where the document
 * renders (the render thread, on its own connection: their megabytes then never pass through the serving isolate).
 */
export type RenderRequest = RenderJob<Uint8Array | PackagesQuery>;

/** The job with its packages read by `read` where the request names them instead of carrying them. */
export async function readRequest(
  request: RenderRequest,
  read: (query: PackagesQuery) => Promise<Uint8Array>,
): Promise<RenderJob> {
  if (!('source' in request) || ArrayBuffer.isView(request.source.packages)) return request as RenderJob;
  return { ...request, source: { ...request.source, packages: await read(request.source.packages) } };
}

/** Transferred, not copied: a buffer of its own (package-bytes.ts makes one), never a slice of Node's Buffer pool. */
export function transferables(request: RenderRequest): ArrayBuffer[] {
  if (!('source' in request)) return [];
  const { packages } = request.source;
  return ArrayBuffer.isView(packages) && packages.buffer instanceof ArrayBuffer ? [packages.buffer] : [];
}

/**
 * Whether a large answer means the heap grew (render-pool.ts then ends the thread): PDF and ZPL, not ONE Record, whose
 * answer lives outside the heap and for which a fresh thread each time cost more than the export.
 */
export function leavesHeapGrown(job: RenderRequest): boolean {
  return job.document !== 'one-record';
}
