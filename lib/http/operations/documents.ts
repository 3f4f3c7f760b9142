import 'server-only';
import {
  fileNamePart,
  renderContainerTagPdf,
  renderContainerTagZpl,
  renderHandoverManifest,
  renderPackageLabelPdf,
  renderPackageLabelPng,
  renderPackageLabelsPdf,
  renderPackageLabelsZpl,
  renderPackageLabelZpl,
} from '@/lib/documents';
import { loadDocumentLabel, loadDocumentManifest, manifestLabels } from '@/lib/documents/load-documents';
import { CONTENT_TYPES, negotiateFormat, paperSize, type DocumentFormat } from '@/lib/documents/negotiate-format';
import type { Operation, OperationContext, OperationResult } from '../types';

// Documents as bytes: the format by ?format= or Accept (406 otherwise), scoped by the token's
// account and the path's environment (another's id is a plain 404), named for saving.

function formatOf(context: OperationContext, allowed: readonly DocumentFormat[]): DocumentFormat {
  return negotiateFormat({ format: context.query.get('format'), accept: context.accept ?? null, allowed });
}

function file(bytes: Uint8Array | string, format: DocumentFormat, name: string): OperationResult {
  return { file: { bytes, contentType: CONTENT_TYPES[format], fileName: `${fileNamePart(name)}.${format}` } };
}

function manifestScope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment, manifestId: context.params.id ?? '' };
}

// GET /manifests/:id/document: the handover manifest (PDF; ?paper=letter|a4).
export const getManifestDocumentOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf']);
  const paper = paperSize(context.query.get('paper'));
  const manifest = await loadDocumentManifest(manifestScope(context));
  return file(await renderHandoverManifest(manifest, { paper }), format, `handover-${manifest.manifestId}`);
};

// GET /manifests/:id/tags: the container tag (PDF or ZPL).
export const getManifestTagsOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf', 'zpl']);
  const manifest = await loadDocumentManifest(manifestScope(context));
  const name = `tag-${manifest.containerId ?? manifest.manifestId}`;
  return file(format === 'zpl' ? renderContainerTagZpl(manifest) : await renderContainerTagPdf(manifest), format, name);
};

// GET /manifests/:id/labels: every package label of the manifest (PDF or ZPL).
export const getManifestLabelsOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf', 'zpl']);
  const manifest = await loadDocumentManifest(manifestScope(context));
  const labels = manifestLabels(manifest);
  const bytes = format === 'zpl' ? renderPackageLabelsZpl(labels) : await renderPackageLabelsPdf(labels, `Labels ${manifest.manifestId}`);
  return file(bytes, format, `labels-${manifest.manifestId}`);
};

// GET /packages/:trackingNumber/label: one package label (PDF, ZPL or PNG).
export const getPackageLabelOperation: Operation = async (context) => {
  const format = formatOf(context, ['pdf', 'zpl', 'png']);
  const label = await loadDocumentLabel({ accountId: context.auth.accountId, environment: context.environment, trackingNumber: context.params.trackingNumber ?? '' });
  const bytes = format === 'zpl' ? renderPackageLabelZpl(label) : format === 'png' ? await renderPackageLabelPng(label) : await renderPackageLabelPdf(label);
  return file(bytes, format, `label-${label.pkg.trackingNumber ?? label.manifestId}`);
};
