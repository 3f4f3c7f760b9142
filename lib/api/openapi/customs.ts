import { jsonSchemaOf, ref, type Json } from './parts';
import {
  ZContainerAmendedPayload,
  ZCustomsWebhookPayload,
  ZPackageAmendedPayload,
  ZPackageOffloadedPayload,
} from '@/lib/schemas/customs-api';
import {
  CONTAINER_AMENDED_EVENT,
  CUSTOMS_WEBHOOK_EVENTS,
  PACKAGE_AMENDED_EVENT,
  PACKAGE_OFFLOADED_EVENT,
} from '@/lib/schemas/webhooks';

// The customs webhooks of the OpenAPI document (document.ts spreads them in beside the lifecycle's), generated from
// the payload schemas the deliveries are built from (lib/status/engine.ts webhookPayload).

const operationId = (event: string) =>
  `on${event
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;

export function customsWebhooks(): Json {
  const outcomes = CUSTOMS_WEBHOOK_EVENTS.map((event): [string, Json] => [
    event,
    {
      post: {
        operationId: operationId(event),
        summary: event,
        description:
          `Sent when \`${event.split('.')[1]}\` is recorded on a package or on a container itself (a carrier scan, or the test simulator), signed and retried as every event is, ` +
          "in order with the package's (or the container's manifest's) other events. A package's names it by `tracking_number` (null when it has none), `carrier_barcode` and `house_waybill`; a container's by `container_id`. " +
          (event === 'customs.do_not_load'
            ? 'While a house or its container is on do_not_load, the container cannot depart; only a later `assessment_complete` lifts it.'
            : ''),
        requestBody: { required: true, content: { 'application/json': { schema: ref('CustomsWebhookPayload') } } },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
  ]);
  return {
    ...Object.fromEntries(outcomes),
    [PACKAGE_AMENDED_EVENT]: {
      post: {
        operationId: operationId(PACKAGE_AMENDED_EVENT),
        summary: PACKAGE_AMENDED_EVENT,
        description:
          "Sent when a package's house data is amended (PATCH /packages/{TrackingNumber}): `fields` names what changed, `previous_house_waybill` the house waybill before when it changed. In order with the package's other events.",
        requestBody: { required: true, content: { 'application/json': { schema: ref('PackageAmendedPayload') } } },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
    [PACKAGE_OFFLOADED_EVENT]: {
      post: {
        operationId: operationId(PACKAGE_OFFLOADED_EVENT),
        summary: PACKAGE_OFFLOADED_EVENT,
        description:
          "Sent when a house held by customs is offloaded from its container before departure (POST /packages/{TrackingNumber}/offload): the container departs without it. `customs_status` is the outcome that held it. In order with the package's other events.",
        requestBody: { required: true, content: { 'application/json': { schema: ref('PackageOffloadedPayload') } } },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
    [CONTAINER_AMENDED_EVENT]: {
      post: {
        operationId: operationId(CONTAINER_AMENDED_EVENT),
        summary: CONTAINER_AMENDED_EVENT,
        description:
          "Sent when a container's air cargo header is amended before departure (PATCH /manifests/{id}): `fields` names what changed. In order with the container's other events.",
        requestBody: { required: true, content: { 'application/json': { schema: ref('ContainerAmendedPayload') } } },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
  };
}

export function customsSchemas(): Json {
  return {
    CustomsWebhookPayload: jsonSchemaOf(ZCustomsWebhookPayload, 'output'),
    PackageAmendedPayload: jsonSchemaOf(ZPackageAmendedPayload, 'output'),
    PackageOffloadedPayload: jsonSchemaOf(ZPackageOffloadedPayload, 'output'),
    ContainerAmendedPayload: jsonSchemaOf(ZContainerAmendedPayload, 'output'),
  };
}
