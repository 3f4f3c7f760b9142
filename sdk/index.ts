// The TypeScript SDK (@carrier/sdk; sdk/README.md): a helper per operation over the types generated from the OpenAPI
// document (sdk/generated/schema.ts, `npm run sdk:generate`), with what every integration otherwise writes by hand:
// the token and the environment's base path, an Idempotency-Key on every POST, retries with backoff on 429 and 503
// honouring Retry-After, the error envelope as a typed error, pages as async iterables, documents as bytes or streams,
// and webhook verification.
//
//   const carrier = createCarrierClient({ token: process.env.CARRIER_API_TOKEN!, baseUrl: 'http://localhost:3000' });
//   const { rates } = await carrier.quoteRates({ weight: '2.5', weight_unit: 'lb', length: 10, width: 8, height: 4 });
export {
  createCarrierClient,
  type CarrierClient,
  type CarrierClientOptions,
  type CarrierDocument,
  type JsonLdDocument,
  type PagePromise,
  type RequestOptions,
} from './client.js';
export { CarrierApiError, CarrierConnectionError, type CarrierErrorCode } from './errors.js';
export type { components, paths, webhooks } from './generated/schema.js';
export type { Body, Data, Query, Schemas } from './types.js';
export {
  verifyWebhook,
  verifyWebhookEvent,
  WebhookVerificationError,
  type VerifiedWebhook,
  type WebhookEventType,
  type WebhookPayload,
} from './webhooks.js';
