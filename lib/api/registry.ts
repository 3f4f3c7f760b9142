import 'server-only';
import type { OperationDefinition } from './operation';
import { quoteRatesOperation } from './operations/quote-rates';
import { validateAddressOperation } from './operations/validate-address';
import { createContainerManifestOperation } from './operations/create-container-manifest';
import { createPackageManifestOperation } from './operations/create-package-manifest';
import { listManifestsOperation } from './operations/list-manifests';
import { getManifestOperation } from './operations/get-manifest';
import { listManifestPackagesOperation } from './operations/list-manifest-packages';
import { cancelManifestOperation } from './operations/cancel-manifest';
import { closeManifestOperation } from './operations/close-manifest';
import { simulateManifestOperation } from './operations/simulate-manifest';
import { listPackagesOperation } from './operations/list-packages';
import { getPackageOperation } from './operations/get-package';
import { listPackageEventsOperation } from './operations/list-package-events';
import { cancelPackageOperation } from './operations/cancel-package';
import { simulatePackageOperation } from './operations/simulate-package';
import { createReturnOperation } from './operations/create-return';
import { getProofOfDeliveryOperation } from './operations/get-proof-of-delivery';
import {
  getProofOfDeliveryPhotoOperation,
  getProofOfDeliverySignatureOperation,
} from './operations/get-proof-of-delivery-images';
import { getProofOfDeliveryDocumentOperation } from './operations/get-proof-of-delivery-document';
import { getManifestDocumentOperation } from './operations/get-manifest-document';
import { getManifestTagsOperation } from './operations/get-manifest-tags';
import { getManifestLabelsOperation } from './operations/get-manifest-labels';
import { getPackageLabelOperation } from './operations/get-package-label';
import { getPackageCustomsDeclarationOperation } from './operations/get-package-customs-declaration';
import { getManifestCustomsDeclarationsOperation } from './operations/get-manifest-customs-declarations';
import { getManifestOneRecordOperation } from './operations/get-manifest-one-record';
import { getManifestCustomsOperation } from './operations/get-manifest-customs';
import { amendPackageOperation } from './operations/amend-package';
import { amendContainerOperation } from './operations/amend-container';
import { offloadPackageOperation } from './operations/offload-package';
import { listWebhooksOperation } from './operations/list-webhooks';
import { createWebhookOperation } from './operations/create-webhook';
import { getWebhookOperation } from './operations/get-webhook';
import { updateWebhookOperation } from './operations/update-webhook';
import { deleteWebhookOperation } from './operations/delete-webhook';
import { rotateWebhookSecretOperation } from './operations/rotate-webhook-secret';
import { testWebhookOperation } from './operations/test-webhook';
import { listWebhookDeliveriesOperation } from './operations/list-webhook-deliveries';
import { redeliverWebhookOperation } from './operations/redeliver-webhook';
import { listEventsOperation } from './operations/list-events';
import { getEventOperation } from './operations/get-event';
import { listRequestsOperation } from './operations/list-requests';
import { getRequestOperation } from './operations/get-request';
import { ingestScansOperation } from './operations/ingest-scans';
import { schedulePickupOperation } from './operations/schedule-pickup';
import { listPickupsOperation } from './operations/list-pickups';
import { getPickupOperation } from './operations/get-pickup';
import { cancelPickupOperation } from './operations/cancel-pickup';
import { simulatePickupOperation } from './operations/simulate-pickup';
import { completePickupOperation } from './operations/complete-pickup';
import { listInvoicesOperation } from './operations/list-invoices';
import { getInvoiceOperation } from './operations/get-invoice';
import { getInvoiceLinesOperation } from './operations/get-invoice-lines';
import { getInvoiceDocumentOperation } from './operations/get-invoice-document';
import { closeInvoicePeriodOperation } from './operations/close-invoice-period';

// Every API operation, in the order the reference lists them. The server's routes, the scopes, the OpenAPI
// document, the metrics' route labels and the portal's mounts are all read from this list.
export const OPERATIONS: readonly OperationDefinition[] = [
  quoteRatesOperation,
  validateAddressOperation,
  createContainerManifestOperation,
  createPackageManifestOperation,
  listWebhooksOperation,
  createWebhookOperation,
  getWebhookOperation,
  updateWebhookOperation,
  deleteWebhookOperation,
  rotateWebhookSecretOperation,
  getManifestDocumentOperation,
  getManifestTagsOperation,
  getManifestLabelsOperation,
  getPackageLabelOperation,
  getPackageCustomsDeclarationOperation,
  getManifestCustomsDeclarationsOperation,
  getManifestOneRecordOperation,
  getManifestCustomsOperation,
  amendPackageOperation,
  amendContainerOperation,
  offloadPackageOperation,
  testWebhookOperation,
  listWebhookDeliveriesOperation,
  redeliverWebhookOperation,
  listManifestsOperation,
  getManifestOperation,
  listManifestPackagesOperation,
  cancelManifestOperation,
  closeManifestOperation,
  simulateManifestOperation,
  listPackagesOperation,
  getPackageOperation,
  listPackageEventsOperation,
  cancelPackageOperation,
  simulatePackageOperation,
  createReturnOperation,
  getProofOfDeliveryOperation,
  getProofOfDeliverySignatureOperation,
  getProofOfDeliveryPhotoOperation,
  getProofOfDeliveryDocumentOperation,
  ingestScansOperation,
  listEventsOperation,
  getEventOperation,
  listRequestsOperation,
  getRequestOperation,
  schedulePickupOperation,
  listPickupsOperation,
  getPickupOperation,
  cancelPickupOperation,
  simulatePickupOperation,
  completePickupOperation,
  listInvoicesOperation,
  getInvoiceOperation,
  getInvoiceLinesOperation,
  getInvoiceDocumentOperation,
  closeInvoicePeriodOperation,
];
