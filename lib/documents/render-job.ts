import { manifestDeclarations } from './customs-declaration';
import { materializeManifest, manifestLabels } from './manifest-source';
import { oneRecordExport } from './one-record';
import { CHUNK_PAGES } from './pdf';
import { renderCustomsDeclaration, renderCustomsDeclarations } from './render-customs-declaration';
import { renderHandoverManifest } from './render-handover-manifest';
import { renderInvoicePdf } from './render-invoice';
import { renderProofOfDeliveryPdf } from './render-proof-of-delivery';
import { renderContainerTagPdf, renderPackageLabelPdf, renderPackageLabelsPdf } from './render-label-pdf';
import { renderPackageLabelPng } from './render-label-png';
import type { RenderJob } from './render-request';
import { renderContainerTagZpl, renderPackageLabelsZpl, renderPackageLabelZpl } from './render-zpl';
import type { DocumentLabel } from './types';

// A document's renderer (its job is render-request.ts): on a render thread, or inline where there is none.

const utf8 = new TextEncoder();

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
