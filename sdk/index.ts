// The TypeScript SDK: openapi-fetch over the types generated from the OpenAPI document (sdk/generated/schema.ts,
// `npm run sdk:generate`), with what every integration otherwise writes by hand: the token and the environment's
// base path, retries with backoff on 429, 503 and network errors honouring Retry-After, the error envelope as a
// typed error, and webhook verification with the public `standardwebhooks` package.
//
//   const carrier = createCarrierClient({ token: process.env.CARRIER_API_TOKEN!, baseUrl: 'http://localhost:3000' });
//   const { rates } = await carrier.quoteRates({ weight: '2.5', weight_unit: 'lb', length: 10, width: 8, height: 4 });
import createClient, { type Client } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { components, paths } from './generated/schema';

export type { components, paths } from './generated/schema';
export type Schemas = components['schemas'];
type Envelope = Schemas['Error']['error'];

/** A refused request: the error envelope's code, message and details, with the HTTP status and the request id. */
export class CarrierApiError extends Error {
  readonly status: number;
  readonly code: Envelope['code'] | 'network_error';
  readonly details: NonNullable<Envelope['details']>;
  readonly requestId: string | null;
  /** On 403 `insufficient_scope`: the scope the operation needs and the token lacks. */
  readonly requiredScope: NonNullable<Envelope['required_scope']> | null;

  constructor(status: number, envelope: Partial<Envelope>, requestId: string | null) {
    super(envelope.message ?? `HTTP ${status}`);
    this.name = 'CarrierApiError';
    this.status = status;
    this.code = envelope.code ?? 'internal_error';
    this.details = envelope.details ?? [];
    this.requestId = requestId;
    this.requiredScope = envelope.required_scope ?? null;
  }
}

export interface CarrierClientOptions {
  /** An API token: ck_test_… or ck_live_…. */
  token: string;
  /** The service's address (default https://api.carrier.example). */
  baseUrl?: string;
  /** Which base path to call; by default the token's own (test tokens work only on the test path). */
  environment?: 'test' | 'live';
  /** Retries after the first attempt on 429, 503 and network errors (default 3). */
  maxRetries?: number;
  /** The longest wait between attempts, in ms, whatever Retry-After says (default 30,000). */
  maxDelayMs?: number;
  fetch?: typeof fetch;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fetch that tries again on 429/503 and network errors: Retry-After when given, else 0.5 s, 1 s, 2 s… with jitter. */
function retryingFetch(
  options: Required<Pick<CarrierClientOptions, 'maxRetries' | 'maxDelayMs'>> & { fetch: typeof fetch },
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    // Every POST gets an Idempotency-Key (unless the caller set one), the same on each attempt: a retry after a network
    // error cannot make a second webhook endpoint, whatever the first attempt did.
    if (request.method === 'POST' && !request.headers.has('idempotency-key'))
      request.headers.set('idempotency-key', crypto.randomUUID());
    for (let attempt = 0; ; attempt += 1) {
      const backoff = Math.min(options.maxDelayMs, 500 * 2 ** attempt * (0.8 + Math.random() * 0.4));
      let response: Response;
      try {
        response = await options.fetch(request.clone());
      } catch (error) {
        if (attempt >= options.maxRetries || request.signal.aborted) throw error;
        await sleep(backoff);
        continue;
      }
      if ((response.status !== 429 && response.status !== 503) || attempt >= options.maxRetries) return response;
      const retryAfter = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await sleep(Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(options.maxDelayMs, retryAfter * 1_000) : backoff);
    }
  };
}

/** The data of a 2xx, or a CarrierApiError for anything else (a network failure after the retries included). */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw new CarrierApiError(
      0,
      { code: 'network_error' as Envelope['code'], message: `the request could not be sent: ${(error as Error).message}` },
      null,
    );
  }
  const { data, error, response } = result;
  const requestId = response.headers.get('x-request-id');
  if (response.ok) return data as T;
  const envelope = (error as { error?: Partial<Envelope> } | undefined)?.error ?? { message: `HTTP ${response.status}` };
  throw new CarrierApiError(response.status, envelope, requestId);
}

type Body<P extends keyof paths, M extends 'post' | 'patch'> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<P extends keyof paths> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? Q : never;

export interface CarrierClient {
  /** The typed openapi-fetch client for every operation of the document. */
  raw: Client<paths>;
  quoteRates(body: Body<'/wf/rate', 'post'>): Promise<Schemas['RateResponse']>;
  createContainerManifest(body: Body<'/wf/manifest', 'post'>): Promise<Schemas['ContainerManifestResponse']>;
  createPackageManifest(body: Body<'/wf/package', 'post'>): Promise<Schemas['PackageManifestResponse']>;
  getPackage(trackingNumber: string): Promise<Schemas['PackageRead']>;
  getManifest(manifestId: string): Promise<Schemas['Manifest']>;
  listEvents(query?: Query<'/events'>): Promise<Schemas['WebhookEventList']>;
  getEvent(id: string): Promise<Schemas['WebhookEvent']>;
}

export function createCarrierClient(options: CarrierClientOptions): CarrierClient {
  const environment = options.environment ?? (options.token.startsWith('ck_live_') ? 'live' : 'test');
  const origin = (options.baseUrl ?? 'https://api.carrier.example').replace(/\/+$/, '');
  const raw = createClient<paths>({
    baseUrl: `${origin}${environment === 'test' ? '/version-test/api/1.1' : '/api/1.1'}`,
    headers: { authorization: `Token ${options.token}` },
    fetch: retryingFetch({
      maxRetries: options.maxRetries ?? 3,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch,
    }),
  });
  return {
    raw,
    quoteRates: (body) => unwrap(raw.POST('/wf/rate', { body })),
    createContainerManifest: (body) => unwrap(raw.POST('/wf/manifest', { body })),
    createPackageManifest: (body) => unwrap(raw.POST('/wf/package', { body })),
    getPackage: (trackingNumber) =>
      unwrap(raw.GET('/packages/{TrackingNumber}', { params: { path: { TrackingNumber: trackingNumber } } })),
    getManifest: (manifestId) => unwrap(raw.GET('/manifests/{id}', { params: { path: { id: manifestId } } })),
    listEvents: (query) => unwrap(raw.GET('/events', { params: { query } })),
    getEvent: (id) => unwrap(raw.GET('/events/{id}', { params: { path: { id } } })),
  };
}

/**
 * Verifies a webhook delivery (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) with the
 * endpoint's whsec_… secret and returns its parsed body; throws when the signature or timestamp does not hold.
 * Pass the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  body: string,
  headers: Record<string, string | string[] | undefined> | Headers,
): T {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (flat[name] = value));
  else
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return new Webhook(secret).verify(body, flat) as T;
}
