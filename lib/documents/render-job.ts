import { manifestDeclarations, type DocumentCustomsDeclaration } from './customs-declaration';
import { materializeManifest, manifestLabels, type ManifestSource } from './manifest-source';
import { oneRecordExport, type OneRecordOptions } from './one-record';
import type { PackagesQuery } from './package-bytes';
import { CHUNK_PAGES } from './pdf';
import { renderCustomsDeclaration, renderCustomsDeclarations } from './render-customs-declaration';
import { renderHandoverManifest } from './render-handover-manifest';
import { renderInvoicePdf, type DocumentInvoice } from './render-invoice';
import { renderProofOfDeliveryPdf, type DocumentProof } from './render-proof-of-delivery';
import { renderContainerTagPdf, renderPackageLabelPdf, renderPackageLabelsPdf } from './render-label-pdf';
import { renderPackageLabelPng } from './render-label-png';
import { renderContainerTagZpl, renderPackageLabelsZpl, renderPackageLabelZpl } from './render-zpl';
import type { DocumentLabel, PaperSize } from './types';

// One document to render, as structured-clonable data, and its renderer: on the render thread, or inline where none.

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

const utf8 = new TextEncoder();

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

/** The document's bytes (ZPL as UTF-8, as it is sent), in an ArrayBuffer of their own (transferable). */
export async function runRenderJob(job: RenderJob): Promise<Uint8Array> {
  return own(await render(job));
}

async function render(job: RenderJob): Promise<Uint8Array | string> {
  switch (job.document) {
    case 'handover':
      return renderHandoverManifest(materializeManifest(job.source), { paper: job.paper });
    case 'tag': {
      const manifest = materializeManifest(job.source);
      return job.format === 'zpl' ? renderContainerTagZpl(manifest) : renderContainerTagPdf(manifest);
    }
    case 'labels': {
      const manifest = materializeManifest(job.source);
      const labels = manifestLabels(manifest);
      return job.format === 'zpl' ? labelsZpl(labels) : renderPackageLabelsPdf(labels, `Labels ${manifest.manifestId}`);
    }
    case 'package-labels':
      return job.format === 'zpl' ? labelsZpl(job.labels) : renderPackageLabelsPdf(job.labels, job.title);
    case 'label':
      return job.format === 'zpl'
        ? renderPackageLabelZpl(job.label)
        : job.format === 'png'
          ? renderPackageLabelPng(job.label)
          : renderPackageLabelPdf(job.label);
    case 'customs':
      return renderCustomsDeclarations(manifestDeclarations(job.source), {
        paper: job.paper,
        title: `Customs declarations ${job.source.manifestId}`,
        generatedAt: job.source.generatedAt,
      });
    case 'customs-declaration':
      return renderCustomsDeclaration(job.declaration, { paper: job.paper });
    case 'one-record':
      return oneRecordExport(job.source, job.options);
    case 'invoice':
      return renderInvoicePdf(job.invoice);
    case 'proof-of-delivery':
      return renderProofOfDeliveryPdf(job.proof);
  }
}

/** The first render's setup (fonts, subset, code), done while the serving thread reads the data. */
export async function warmUp(): Promise<void> {
  await renderPackageLabelsPdf([], 'warm-up');
}

/** Every label as ZPL, encoded CHUNK_PAGES labels at a time: the whole document is never one string (5 MB for 5,000 labels) as well as its bytes. */
function labelsZpl(labels: DocumentLabel[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < labels.length; i += CHUNK_PAGES)
    chunks.push(utf8.encode(renderPackageLabelsZpl(labels.slice(i, i + CHUNK_PAGES))));
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** Bytes that are a view of part of a larger buffer (a Buffer from Node's pool) are copied: transferring would take the rest. */
function own(bytes: Uint8Array | string): Uint8Array {
  if (typeof bytes === 'string') return utf8.encode(bytes);
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes;
  return new Uint8Array(bytes);
}
