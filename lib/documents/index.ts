// lib/documents: handover manifests, container tags and package labels as bytes. Pure: plain input
// objects in (types.ts), PDF/ZPL/PNG out; no database, no HTTP.
export { renderHandoverManifest } from './render-handover-manifest';
export { renderContainerTagPdf, renderPackageLabelPdf, renderPackageLabelsPdf } from './render-label-pdf';
export { renderContainerTagZpl, renderPackageLabelZpl, renderPackageLabelsZpl, zplField } from './render-zpl';
export { renderPackageLabelPng } from './render-label-png';
export type * from './types';
