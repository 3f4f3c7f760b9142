import { ACCOUNT_HEADER, ENVIRONMENT_HEADER, type PortalEnvironment } from './paths';

// Client-safe. A PortalError carries the API's error envelope, so a form can map `details[].path` to its fields.

// Set when the request was written to the account's request log: its error can link there.
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

// Queries retry a 5xx or no answer (status 0); retrying a 4xx would only repeat it.
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
  environment?: PortalEnvironment;
  onHeaders?: (headers: Headers) => void;
  /** The account the page shows: a request is refused (409) once the session acts for another. */
  account?: string;
  /** A file to save: answered as { blob, fileName } (its Content-Disposition's name) instead of JSON. */
  file?: boolean;
}

export interface PortalFile {
  blob: Blob;
  fileName: string;
}

// The browser's own words ("Failed to fetch") tell a person nothing.
export const NO_ANSWER_MESSAGE = 'The server could not be reached. Check your connection, then try again.';

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
  if (response.status === 204) return undefined as T;
  if (options.file && response.ok) {
    const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
    return { blob: await response.blob(), fileName } satisfies PortalFile as T;
  }
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
