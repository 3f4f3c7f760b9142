import { env, processSettings } from '@/lib/env';

export function outboxEnabled(): boolean {
  const { MAIL_OUTBOX, NODE_ENV } = env();
  return MAIL_OUTBOX ? MAIL_OUTBOX === 'on' : NODE_ENV !== 'production';
}

// Never built from the request's Host or X-Forwarded-Host, which whoever asks for a reset chooses ("reset poisoning").
export function appLink(path: string, query: Record<string, string> = {}): string {
  const base = env().APP_URL ?? `http://localhost:${processSettings().PORT}`;
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  // APP_URL may carry a path (https://example.com/carrier/): keep it.
  url.pathname = new URL(base).pathname.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}
