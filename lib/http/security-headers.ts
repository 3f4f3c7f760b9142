// Bodies may hold secrets (a webhook signing secret is shown once): nothing may cache them, nor sniff another type.
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

export const HSTS = 'max-age=31536000; includeSubDomains';
