import { jsonSchemaOf, ref, type Json } from './parts';
import { ZInvoiceCreatedPayload } from '@/lib/schemas/invoices';
import { INVOICE_CREATED_EVENT } from '@/lib/schemas/webhooks';

// The billing webhook of the OpenAPI document (document.ts spreads it in beside the others), from the payload schema
// the event is built from (lib/billing/invoices.ts).

export function billingWebhooks(): Json {
  return {
    [INVOICE_CREATED_EVENT]: {
      post: {
        operationId: 'onInvoiceCreated',
        summary: INVOICE_CREATED_EVENT,
        description:
          "Sent when an invoice is issued: a few minutes after its period's end, or at once by a test-path close (POST /invoices/close). " +
          '`type` is `invoice.created` and `invoice` is the invoice as GET /invoices/{id} answers it. Sent once per invoice, signed and retried as every event is.',
        requestBody: { required: true, content: { 'application/json': { schema: ref('InvoiceCreatedPayload') } } },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
  };
}

export function billingSchemas(): Json {
  return { InvoiceCreatedPayload: jsonSchemaOf(ZInvoiceCreatedPayload, 'output') };
}
