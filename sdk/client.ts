import createClient, { type Client } from 'openapi-fetch';
import { CarrierApiError, CarrierConnectionError, errorFromResponse } from './errors.js';
import type { paths } from './generated/schema.js';
import { retryingFetch } from './transport.js';
import type { Body, Data, Method, Path, PathParams, Query, Schemas } from './types.js';

const VERSION = '0.2.0';

export interface CarrierClientOptions {
  /** An API token: ck_test_… or ck_live_… (or a carrier operations token, ck_ops_…, with `environment`). */
  token: string;
  /** The service's address (default https://api.carrier.example). */
  baseUrl?: string;
  /** Which base path to call; by default the token's own (a test token works only on the test path). */
  environment?: 'test' | 'live';
  /** Retries after the first attempt on 429, 503, a busy Idempotency-Key and network errors (default 3). */
  maxRetries?: number;
  /** The longest wait between attempts, in ms, whatever Retry-After says (default 30,000). */
  maxDelayMs?: number;
  /** How long to wait for an answer to start, per attempt, in ms (default 60,000); a timeout is retried. */
  timeoutMs?: number;
  /** A fetch to send with (default the global one): a proxy agent, a test double. */
  fetch?: typeof fetch;
}

/** Per call: an Idempotency-Key of your own for a POST (else one is made), an AbortSignal, extra headers. */
export interface RequestOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/**
 * One page of a list, and every item of every page after it: `await` it for the page, or `for await` over it for
 * the items, fetching the next page (the same query, `cursor` = `next_cursor`) when one runs out.
 */
export type PagePromise<Page extends { data: unknown[] }> = Promise<Page> & AsyncIterable<Page['data'][number]>;

/** A document (PDF, ZPL II or PNG) as it arrives. Read it once: as a stream, as bytes or as text. */
export interface CarrierDocument {
  /** application/pdf, application/zpl or image/png. */
  readonly contentType: string;
  /** The file name the service suggests (Content-Disposition), if any. */
  readonly filename: string | null;
  readonly requestId: string | null;
  /** The body as a stream, to pipe to a file or a printer without holding it (`Readable.fromWeb` in Node). */
  stream(): ReadableStream<Uint8Array>;
  bytes(): Promise<Uint8Array>;
  /** The body as text: for ZPL II. */
  text(): Promise<string>;
}

/** A ONE Record export: a JSON-LD document with `@context` and `@graph`. */
export type JsonLdDocument = { '@context': unknown; '@graph': Record<string, unknown>[] } & Record<string, unknown>;

type DocumentQuery<P extends Path> = Query<P> | undefined;

/**
 * The typed client: one method per operation of the API (named by its operationId in the OpenAPI document), each
 * answering the operation's success body or throwing a CarrierApiError.
 */
export interface CarrierClient {
  /** The typed openapi-fetch client, for calls the helpers do not shape (same token, base path, retries). */
  raw: Client<paths>;

  /** POST /wf/rate: one quote per rate card that can price the package. */
  quoteRates(body: Body<'/wf/rate', 'post'>, options?: RequestOptions): Promise<Schemas['RateResponse']>;
  /** POST /wf/manifest: a container and its packages. */
  createContainerManifest(
    body: Body<'/wf/manifest', 'post'>,
    options?: RequestOptions,
  ): Promise<Schemas['ContainerManifestResponse']>;
  /** POST /wf/package: one package, joining the day's manifest. */
  createPackageManifest(body: Body<'/wf/package', 'post'>, options?: RequestOptions): Promise<Schemas['PackageManifestResponse']>;

  /** GET /manifests */
  listManifests(query?: Query<'/manifests'>, options?: RequestOptions): PagePromise<Schemas['ManifestList']>;
  /** GET /manifests/{id}: counts by status and total weight. */
  getManifest(id: string, options?: RequestOptions): Promise<Schemas['Manifest']>;
  /** PATCH /manifests/{id}: a container's air cargo header (AWB, ULD, seal, flight, airports, security), until it departs. */
  amendContainer(id: string, body: Body<'/manifests/{id}', 'patch'>, options?: RequestOptions): Promise<Schemas['Manifest']>;
  /** GET /manifests/{id}/packages */
  listManifestPackages(
    id: string,
    query?: Query<'/manifests/{id}/packages'>,
    options?: RequestOptions,
  ): PagePromise<Schemas['PackageList']>;
  /** POST /manifests/{id}/cancel */
  cancelManifest(id: string, options?: RequestOptions): Promise<Schemas['Manifest']>;
  /** POST /manifests/{id}/close: a daily manifest takes no more packages. */
  closeManifest(id: string, options?: RequestOptions): Promise<Schemas['Manifest']>;
  /** POST /manifests/{id}/simulate (test path only): plays every step to the status, each a webhook. */
  simulateManifest(
    id: string,
    body: Body<'/manifests/{id}/simulate', 'post'>,
    options?: RequestOptions,
  ): Promise<Schemas['Manifest']>;

  /** GET /packages */
  listPackages(query?: Query<'/packages'>, options?: RequestOptions): PagePromise<Schemas['PackageList']>;
  /** GET /packages/{TrackingNumber}: by tracking number or carrier barcode. */
  getPackage(trackingNumber: string, options?: RequestOptions): Promise<Schemas['PackageRead']>;
  /** PATCH /packages/{TrackingNumber} */
  amendPackage(
    trackingNumber: string,
    body: Body<'/packages/{TrackingNumber}', 'patch'>,
    options?: RequestOptions,
  ): Promise<Schemas['PackageRead']>;
  /** GET /packages/{TrackingNumber}/events: the package's timeline. */
  listPackageEvents(trackingNumber: string, options?: RequestOptions): Promise<Schemas['EventList']>;
  /** POST /packages/{TrackingNumber}/cancel */
  cancelPackage(trackingNumber: string, options?: RequestOptions): Promise<Schemas['PackageRead']>;
  /** POST /packages/{TrackingNumber}/offload: a house held by customs taken out of its container before departure. */
  offloadPackage(trackingNumber: string, options?: RequestOptions): Promise<Schemas['PackageRead']>;
  /** POST /packages/{TrackingNumber}/simulate (test path only) */
  simulatePackage(
    trackingNumber: string,
    body: Body<'/packages/{TrackingNumber}/simulate', 'post'>,
    options?: RequestOptions,
  ): Promise<Schemas['PackageRead']>;
  /** POST /packages/{TrackingNumber}/return: a return package for one out for delivery or delivered (the same one again on a retry). */
  createReturn(trackingNumber: string, options?: RequestOptions): Promise<Schemas['PackageRead']>;
  /** GET /packages/{TrackingNumber}/proof-of-delivery: who took it, when and where, the images by path. */
  getProofOfDelivery(
    trackingNumber: string,
    options?: RequestOptions,
  ): Promise<Data<'/packages/{TrackingNumber}/proof-of-delivery', 'get'>>;
  /** GET /packages/{TrackingNumber}/proof-of-delivery/signature (PNG or JPEG). */
  getProofOfDeliverySignature(trackingNumber: string, options?: RequestOptions): Promise<CarrierDocument>;
  /** GET /packages/{TrackingNumber}/proof-of-delivery/photo (PNG or JPEG). */
  getProofOfDeliveryPhoto(trackingNumber: string, options?: RequestOptions): Promise<CarrierDocument>;
  /** GET /packages/{TrackingNumber}/proof-of-delivery/document: the certificate (PDF). */
  getProofOfDeliveryDocument(trackingNumber: string, options?: RequestOptions): Promise<CarrierDocument>;
  /** POST /ops/scans: carrier scans (an operations token). */
  ingestScans(body: Body<'/ops/scans', 'post'>, options?: RequestOptions): Promise<Schemas['ScanBatchResult']>;

  /** GET /manifests/{id}/document: the handover manifest (PDF). */
  getManifestDocument(
    id: string,
    query?: DocumentQuery<'/manifests/{id}/document'>,
    options?: RequestOptions,
  ): Promise<CarrierDocument>;
  /** GET /manifests/{id}/tags: the container tag (PDF or ZPL II). */
  getManifestTags(id: string, query?: DocumentQuery<'/manifests/{id}/tags'>, options?: RequestOptions): Promise<CarrierDocument>;
  /** GET /manifests/{id}/labels: every package label of the manifest (PDF or ZPL II). */
  getManifestLabels(
    id: string,
    query?: DocumentQuery<'/manifests/{id}/labels'>,
    options?: RequestOptions,
  ): Promise<CarrierDocument>;
  /** GET /packages/{TrackingNumber}/label (PDF, ZPL II or PNG). */
  getPackageLabel(
    trackingNumber: string,
    query?: DocumentQuery<'/packages/{TrackingNumber}/label'>,
    options?: RequestOptions,
  ): Promise<CarrierDocument>;
  /** GET /packages/{TrackingNumber}/customs-declaration: the CN 23 / commercial invoice (PDF). */
  getPackageCustomsDeclaration(
    trackingNumber: string,
    query?: DocumentQuery<'/packages/{TrackingNumber}/customs-declaration'>,
    options?: RequestOptions,
  ): Promise<CarrierDocument>;
  /** GET /manifests/{id}/customs-declarations: every handed-over house of a manifest (PDF). */
  getManifestCustomsDeclarations(
    id: string,
    query?: DocumentQuery<'/manifests/{id}/customs-declarations'>,
    options?: RequestOptions,
  ): Promise<CarrierDocument>;
  /** GET /manifests/{id}/one-record: a container as IATA ONE Record JSON-LD. */
  getManifestOneRecord(id: string, options?: RequestOptions): Promise<JsonLdDocument>;
  /** GET /manifests/{id}/customs: customs readiness of a manifest's packages. */
  getManifestCustomsReadiness(id: string, options?: RequestOptions): Promise<Schemas['CustomsReadiness']>;

  /** GET /webhooks */
  listWebhooks(options?: RequestOptions): Promise<Schemas['WebhookEndpointList']>;
  /** POST /webhooks: the answer shows the signing secret this once. */
  createWebhook(body: Body<'/webhooks', 'post'>, options?: RequestOptions): Promise<Schemas['WebhookEndpointWithSecret']>;
  /** GET /webhooks/{id} */
  getWebhook(id: string, options?: RequestOptions): Promise<Schemas['WebhookEndpoint']>;
  /** PATCH /webhooks/{id}: url, events, description, enabled. */
  updateWebhook(id: string, body: Body<'/webhooks/{id}', 'patch'>, options?: RequestOptions): Promise<Schemas['WebhookEndpoint']>;
  /** DELETE /webhooks/{id} */
  deleteWebhook(id: string, options?: RequestOptions): Promise<void>;
  /** POST /webhooks/{id}/rotate-secret: the old secret keeps signing beside the new one for the grace period. */
  rotateWebhookSecret(
    id: string,
    body?: Body<'/webhooks/{id}/rotate-secret', 'post'>,
    options?: RequestOptions,
  ): Promise<Schemas['RotatedWebhookEndpoint']>;
  /** POST /webhooks/{id}/test: a sample event. */
  testWebhook(id: string, options?: RequestOptions): Promise<Schemas['WebhookTest']>;
  /** GET /webhooks/{id}/deliveries: the attempt log, newest first. */
  listWebhookDeliveries(
    id: string,
    query?: Query<'/webhooks/{id}/deliveries'>,
    options?: RequestOptions,
  ): PagePromise<Schemas['WebhookDeliveryList']>;
  /** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: an attempt (att_…) or message (msg_…) again. */
  redeliverWebhook(id: string, deliveryId: string, options?: RequestOptions): Promise<Schemas['WebhookRedelivery']>;

  /** GET /events: the account's webhook events, newest first. */
  listEvents(query?: Query<'/events'>, options?: RequestOptions): PagePromise<Schemas['WebhookEventList']>;
  /** GET /events/{id} */
  getEvent(id: string, options?: RequestOptions): Promise<Schemas['WebhookEvent']>;

  /** GET /requests: the request log. */
  listRequests(query?: Query<'/requests'>, options?: RequestOptions): PagePromise<Schemas['RequestLogList']>;
  /** GET /requests/{id}: one request, by id or by its x-request-id. */
  getRequest(id: string, options?: RequestOptions): Promise<Schemas['RequestLogEntry']>;

  /** GET /invoices: newest first, every page when iterated (billing:read). */
  listInvoices(query?: Query<'/invoices'>, options?: RequestOptions): PagePromise<Data<'/invoices', 'get'>>;
  /** GET /invoices/{id}: totals by kind and by service. */
  getInvoice(id: string, options?: RequestOptions): Promise<Data<'/invoices/{id}', 'get'>>;
  /** GET /invoices/{id}/lines: every line as CSV, streamed. */
  getInvoiceLines(id: string, options?: RequestOptions): Promise<CarrierDocument>;
  /** GET /invoices/{id}/document: the invoice as PDF. */
  getInvoiceDocument(id: string, options?: RequestOptions): Promise<CarrierDocument>;
  /** POST /invoices/close: test path only, issues an invoice for everything not invoiced yet. */
  closeInvoicePeriod(options?: RequestOptions): Promise<Data<'/invoices/close', 'post'>>;

  /** POST /addresses/validate: an address's city, state or province and country against its postal code. */
  validateAddress(
    body: Body<'/addresses/validate', 'post'>,
    options?: RequestOptions,
  ): Promise<Data<'/addresses/validate', 'post'>>;

  /** POST /pickups: the carrier collects a manifest, or named packages, within a window. */
  schedulePickup(body: Body<'/pickups', 'post'>, options?: RequestOptions): Promise<Data<'/pickups', 'post'>>;
  /** GET /pickups: newest first, every page when iterated. */
  listPickups(query?: Query<'/pickups'>, options?: RequestOptions): PagePromise<Data<'/pickups', 'get'>>;
  /** GET /pickups/{id}. */
  getPickup(id: string, options?: RequestOptions): Promise<Data<'/pickups/{id}', 'get'>>;
  /** POST /pickups/{id}/cancel: before the window opens. */
  cancelPickup(id: string, options?: RequestOptions): Promise<Data<'/pickups/{id}/cancel', 'post'>>;
  /** POST /pickups/{id}/simulate: test path only, completes it. */
  simulatePickup(id: string, options?: RequestOptions): Promise<Data<'/pickups/{id}/simulate', 'post'>>;
  /** POST /ops/pickups/{id}/complete: the driver collected it (an operations token). */
  completePickup(id: string, options?: RequestOptions): Promise<Data<'/ops/pickups/{id}/complete', 'post'>>;
}

/** An answer that came back 2xx, carrying its operation in its type so that `json` can type the body. */
interface Answer<P extends Path, M extends Method> {
  response: Response;
  readonly operation?: [P, M];
}

type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ error?: unknown; response: Response }>;

function requestIdOf(response: Response) {
  return response.headers.get('x-request-id');
}

async function json<P extends Path, M extends Method>(answer: Promise<Answer<P, M>>): Promise<Data<P, M>> {
  const { response } = await answer;
  const text = await response.text();
  if (text === '') return undefined as Data<P, M>;
  try {
    return JSON.parse(text) as Data<P, M>;
  } catch (cause) {
    throw new CarrierApiError(
      response.status,
      { code: 'unexpected_response', message: `HTTP ${response.status} with a body that is not JSON` },
      { requestId: requestIdOf(response), body: text, cause },
    );
  }
}

async function document(answer: Promise<Answer<Path, Method>>): Promise<CarrierDocument> {
  const { response } = await answer;
  const disposition = response.headers.get('content-disposition') ?? '';
  return {
    contentType: (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0].trim(),
    filename: /filename="([^"]*)"/i.exec(disposition)?.[1] ?? /filename=([^;\s]+)/i.exec(disposition)?.[1] ?? null,
    requestId: requestIdOf(response),
    stream: () => response.body ?? new Response(new Uint8Array()).body!,
    bytes: async () => new Uint8Array(await response.arrayBuffer()),
    text: () => response.text(),
  };
}

function paginate<Page extends { data: unknown[]; has_more: boolean; next_cursor: string | null }>(
  page: (cursor: string | undefined) => Promise<Page>,
): PagePromise<Page> {
  const first = page(undefined);
  async function* items() {
    for (let current = await first; ; current = await page(current.next_cursor)) {
      yield* current.data as Page['data'][number][];
      if (!current.has_more || current.next_cursor === null) return;
    }
  }
  return Object.assign(first, { [Symbol.asyncIterator]: items });
}

export function createCarrierClient(options: CarrierClientOptions): CarrierClient {
  if (options.token.startsWith('ck_ops_') && options.environment === undefined)
    throw new TypeError('a carrier operations token (ck_ops_…) works on both paths: say which with `environment`');
  const environment = options.environment ?? (options.token.startsWith('ck_live_') ? 'live' : 'test');
  const origin = (options.baseUrl ?? 'https://api.carrier.example').replace(/\/+$/, '');
  const raw = createClient<paths>({
    baseUrl: `${origin}${environment === 'test' ? '/version-test/api/1.1' : '/api/1.1'}`,
    headers: { authorization: `Token ${options.token}`, 'user-agent': `carrier-sdk-node/${VERSION}` },
    fetch: retryingFetch({
      maxRetries: options.maxRetries ?? 3,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: options.fetch ?? globalThis.fetch,
    }),
  });
  const request = raw.request.bind(raw) as unknown as LooseRequest;

  /** Sends one operation; a 2xx is the Answer, anything else a CarrierApiError (a CarrierConnectionError for no answer). */
  async function send<P extends Path, M extends Method>(
    method: M,
    path: P,
    parts: { path?: PathParams<P, M>; query?: Query<P, M>; body?: Body<P, M> },
    call: RequestOptions = {},
  ): Promise<Answer<P, M>> {
    let result: Awaited<ReturnType<LooseRequest>>;
    try {
      result = await request(method, path, {
        params: { path: parts.path, query: parts.query },
        body: parts.body,
        // Unread on success, so that a document streams and a JSON body that is not JSON is still our error.
        parseAs: 'stream',
        headers: call.idempotencyKey ? { ...call.headers, 'idempotency-key': call.idempotencyKey } : call.headers,
        signal: call.signal,
      });
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw new CarrierConnectionError(error);
    }
    if (!result.response.ok) throw errorFromResponse(result.response, result.error);
    return { response: result.response };
  }

  type Listed = { data: unknown[]; has_more: boolean; next_cursor: string | null };
  const list = <P extends Path>(path: P, pathParams: PathParams<P, 'get'>, query: Query<P> | undefined, call?: RequestOptions) =>
    paginate(
      (cursor) =>
        json(
          send('get', path, { path: pathParams, query: (cursor ? { ...query, cursor } : query) as Query<P> }, call),
        ) as Promise<Data<P, 'get'> & Listed>,
    );

  return {
    raw,
    quoteRates: (body, call) => json(send('post', '/wf/rate', { body }, call)),
    createContainerManifest: (body, call) => json(send('post', '/wf/manifest', { body }, call)),
    createPackageManifest: (body, call) => json(send('post', '/wf/package', { body }, call)),

    listManifests: (query, call) => list('/manifests', undefined, query, call),
    getManifest: (id, call) => json(send('get', '/manifests/{id}', { path: { id } }, call)),
    amendContainer: (id, body, call) => json(send('patch', '/manifests/{id}', { path: { id }, body }, call)),
    listManifestPackages: (id, query, call) => list('/manifests/{id}/packages', { id }, query, call),
    cancelManifest: (id, call) => json(send('post', '/manifests/{id}/cancel', { path: { id } }, call)),
    closeManifest: (id, call) => json(send('post', '/manifests/{id}/close', { path: { id } }, call)),
    simulateManifest: (id, body, call) => json(send('post', '/manifests/{id}/simulate', { path: { id }, body }, call)),

    listPackages: (query, call) => list('/packages', undefined, query, call),
    getPackage: (TrackingNumber, call) => json(send('get', '/packages/{TrackingNumber}', { path: { TrackingNumber } }, call)),
    amendPackage: (TrackingNumber, body, call) =>
      json(send('patch', '/packages/{TrackingNumber}', { path: { TrackingNumber }, body }, call)),
    listPackageEvents: (TrackingNumber, call) =>
      json(send('get', '/packages/{TrackingNumber}/events', { path: { TrackingNumber } }, call)),
    cancelPackage: (TrackingNumber, call) =>
      json(send('post', '/packages/{TrackingNumber}/cancel', { path: { TrackingNumber } }, call)),
    offloadPackage: (TrackingNumber, call) =>
      json(send('post', '/packages/{TrackingNumber}/offload', { path: { TrackingNumber } }, call)),
    simulatePackage: (TrackingNumber, body, call) =>
      json(send('post', '/packages/{TrackingNumber}/simulate', { path: { TrackingNumber }, body }, call)),
    createReturn: (TrackingNumber, call) =>
      json(send('post', '/packages/{TrackingNumber}/return', { path: { TrackingNumber } }, call)),
    getProofOfDelivery: (TrackingNumber, call) =>
      json(send('get', '/packages/{TrackingNumber}/proof-of-delivery', { path: { TrackingNumber } }, call)),
    getProofOfDeliverySignature: (TrackingNumber, call) =>
      document(send('get', '/packages/{TrackingNumber}/proof-of-delivery/signature', { path: { TrackingNumber } }, call)),
    getProofOfDeliveryPhoto: (TrackingNumber, call) =>
      document(send('get', '/packages/{TrackingNumber}/proof-of-delivery/photo', { path: { TrackingNumber } }, call)),
    getProofOfDeliveryDocument: (TrackingNumber, call) =>
      document(send('get', '/packages/{TrackingNumber}/proof-of-delivery/document', { path: { TrackingNumber } }, call)),
    ingestScans: (body, call) => json(send('post', '/ops/scans', { body }, call)),

    getManifestDocument: (id, query, call) => document(send('get', '/manifests/{id}/document', { path: { id }, query }, call)),
    getManifestTags: (id, query, call) => document(send('get', '/manifests/{id}/tags', { path: { id }, query }, call)),
    getManifestLabels: (id, query, call) => document(send('get', '/manifests/{id}/labels', { path: { id }, query }, call)),
    getPackageLabel: (TrackingNumber, query, call) =>
      document(send('get', '/packages/{TrackingNumber}/label', { path: { TrackingNumber }, query }, call)),
    getPackageCustomsDeclaration: (TrackingNumber, query, call) =>
      document(send('get', '/packages/{TrackingNumber}/customs-declaration', { path: { TrackingNumber }, query }, call)),
    getManifestCustomsDeclarations: (id, query, call) =>
      document(send('get', '/manifests/{id}/customs-declarations', { path: { id }, query }, call)),
    getManifestOneRecord: async (id, call) => {
      const answer = send('get', '/manifests/{id}/one-record', { path: { id } }, call);
      return (await json(answer)) as unknown as JsonLdDocument;
    },
    getManifestCustomsReadiness: (id, call) => json(send('get', '/manifests/{id}/customs', { path: { id } }, call)),

    listWebhooks: (call) => json(send('get', '/webhooks', {}, call)),
    createWebhook: (body, call) => json(send('post', '/webhooks', { body }, call)),
    getWebhook: (id, call) => json(send('get', '/webhooks/{id}', { path: { id } }, call)),
    updateWebhook: (id, body, call) => json(send('patch', '/webhooks/{id}', { path: { id }, body }, call)),
    deleteWebhook: async (id, call) => {
      await send('delete', '/webhooks/{id}', { path: { id } }, call);
    },
    rotateWebhookSecret: (id, body, call) => json(send('post', '/webhooks/{id}/rotate-secret', { path: { id }, body }, call)),
    testWebhook: (id, call) => json(send('post', '/webhooks/{id}/test', { path: { id } }, call)),
    listWebhookDeliveries: (id, query, call) => list('/webhooks/{id}/deliveries', { id }, query, call),
    redeliverWebhook: (id, deliveryId, call) =>
      json(send('post', '/webhooks/{id}/deliveries/{deliveryId}/redeliver', { path: { id, deliveryId } }, call)),

    listEvents: (query, call) => list('/events', undefined, query, call),
    getEvent: (id, call) => json(send('get', '/events/{id}', { path: { id } }, call)),
    listRequests: (query, call) => list('/requests', undefined, query, call),
    getRequest: (id, call) => json(send('get', '/requests/{id}', { path: { id } }, call)),

    listInvoices: (query, call) => list('/invoices', undefined, query, call),
    getInvoice: (id, call) => json(send('get', '/invoices/{id}', { path: { id } }, call)),
    getInvoiceLines: (id, call) => document(send('get', '/invoices/{id}/lines', { path: { id } }, call)),
    getInvoiceDocument: (id, call) => document(send('get', '/invoices/{id}/document', { path: { id } }, call)),
    closeInvoicePeriod: (call) => json(send('post', '/invoices/close', {}, call)),

    validateAddress: (body, call) => json(send('post', '/addresses/validate', { body }, call)),

    schedulePickup: (body, call) => json(send('post', '/pickups', { body }, call)),
    listPickups: (query, call) => list('/pickups', undefined, query, call),
    getPickup: (id, call) => json(send('get', '/pickups/{id}', { path: { id } }, call)),
    cancelPickup: (id, call) => json(send('post', '/pickups/{id}/cancel', { path: { id } }, call)),
    simulatePickup: (id, call) => json(send('post', '/pickups/{id}/simulate', { path: { id } }, call)),
    completePickup: (id, call) => json(send('post', '/ops/pickups/{id}/complete', { path: { id } }, call)),
  };
}
