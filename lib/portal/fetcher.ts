import { ACCOUNT_HEADER, ENVIRONMENT_HEADER, type PortalEnvironment } from './paths';

// Client-side fetch for the portal API (no server-only imports). Sends the session's CSRF token and
// the page's environment (`x-carrier-environment`, from the page's URL: components use it through
// usePortalEnvironment(), which binds it) on every request, and throws a PortalError carrying the API's error envelope, so a form can map
// `details[].path` to its fields.

/** On a portal-api answer whose request was written to the account's request log: its error can link there. */
export const REQUEST_LOGGED_HEADER = 'x-request-logged';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class PortalError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly body: unknown;
  /** The answer's x-request-id: the portal links an error to its line on the Logs page, when it has one (`logged`). */
  readonly requestId: string | undefined;
  readonly logged: boolean;

  constructor(status: number, body: unknown, requestId?: string | null, logged = false) {
    const error = (body as { error?: { code?: string; message?: string; details?: ErrorDetail[] } } | null)?.error;
    super(error?.message ?? `Request failed (${status}).`);
    this.name = 'PortalError';
    this.status = status;
    this.code = error?.code ?? 'http_error';
    this.details = error?.details ?? [];
    this.body = body;
    this.requestId = requestId ?? undefined;
    this.logged = logged;
  }
}

/**
 * A refusal a retry would only repeat (4xx). Not a 5xx, nor a request that got no answer (status 0): queries retry
 * those.
 */
export function isClientError(error: unknown): boolean {
  return error instanceof PortalError && error.status >= 400 && error.status < 500;
}

export function csrfToken(): string {
  if (typeof document === 'undefined') return '';
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export interface PortalFetchOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** The page's environment; every portal-api call except sign-in and sign-up needs it (400 without). */
  environment?: PortalEnvironment;
  /** Called with a successful answer's headers (the builder reads Idempotent-Replayed). */
  onHeaders?: (headers: Headers) => void;
  /** The id of the account the page shows (x-carrier-account): refused with 409 once the session acts for another. */
  account?: string;
}

/**
 * What a request that got no answer at all says (the network is down, the server restarting): the browser's own
 * words ("Failed to fetch", "NetworkError when attempting to fetch resource.") tell a person nothing.
 */
export const NO_ANSWER_MESSAGE = 'The server could not be reached. Check your connection, then try again.';

/** fetch JSON from /portal-api/…; `body` is sent as JSON. Redirects to /sign-in when the session ended. */
export async function portalFetch<T>(path: string, options: PortalFetchOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: {
        accept: 'application/json',
        'x-csrf-token': csrfToken(),
        ...(options.environment ? { [ENVIRONMENT_HEADER]: options.environment } : {}),
        ...(options.account ? { [ACCOUNT_HEADER]: options.account } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    // An abort is the caller's (a page left, a newer query replacing this one): passed on as it is.
    if (options.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw error;
    throw new PortalError(0, { error: { code: 'no_answer', message: NO_ANSWER_MESSAGE } });
  }
  // A 204 (DELETE /portal-api/webhooks/{id}, as the API answers it) has no body to read.
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    if (response.status === 401 && typeof window !== 'undefined' && !path.startsWith('/portal-api/auth')) {
      // A full navigation: the session is gone, so nothing cached on this page may stay in memory.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname)}`);
    }
    throw new PortalError(
      response.status,
      body,
      response.headers.get('x-request-id'),
      response.headers.get(REQUEST_LOGGED_HEADER) === '1',
    );
  }
  options.onHeaders?.(response.headers);
  return body as T;
}

/** Maps an error envelope's details onto react-hook-form fields; returns the messages it could not place. */
export function applyFieldErrors(
  error: unknown,
  setError: (name: never, error: { type: string; message: string }) => void,
  fields: readonly string[],
): string[] {
  if (!(error instanceof PortalError)) return [error instanceof Error ? error.message : 'Something went wrong.'];
  const unplaced: string[] = [];
  for (const detail of error.details) {
    const field = detail.path === 'lenght' ? 'length' : detail.path;
    if (fields.includes(field)) setError(field as never, { type: 'server', message: detail.message });
    else unplaced.push(`${detail.path}: ${detail.message}`);
  }
  if (error.details.length === 0) unplaced.push(error.message);
  return unplaced;
}
