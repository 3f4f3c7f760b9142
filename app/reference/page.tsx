import type { Metadata } from 'next';
import Link from 'next/link';
import { OpenApiView } from '@/components/docs/openapi-view';
import { openApiDocument } from '@/lib/api/openapi/document';
import { ZOpenApiDocument } from '@/lib/api/openapi/shape';

export const metadata: Metadata = { title: 'API reference', robots: { index: true } };

// Rendered per request, though its content is the build's: the Content-Security-Policy's script nonce is per
// request (proxy.ts), and a page rendered at build time carries none, so none of its scripts would run.
export const dynamic = 'force-dynamic';

// GET /reference: the API reference for anyone, no account (the portal's own page points its examples at an
// environment; this one at the test path, where a new integration starts).
export default function PublicReferencePage() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <header className="mb-6 flex flex-wrap items-baseline justify-between gap-3">
        <div>
          <p className="text-lg font-semibold text-brand-700">Carrier</p>
          <h1 className="text-2xl font-semibold text-gray-900">API reference</h1>
          <p className="mt-1 text-sm text-gray-600">
            Every operation with its request and response schemas and a curl example on the test path. The machine-readable
            document is{' '}
            <a className="text-brand-700 underline" href="/api/1.1/openapi.json">
              /api/1.1/openapi.json
            </a>
            .
          </p>
        </div>
        <nav className="flex gap-4 text-sm">
          <Link className="text-brand-700 underline" href="/sign-up">
            Get a test token
          </Link>
          <Link className="text-brand-700 underline" href="/sign-in">
            Sign in
          </Link>
        </nav>
      </header>
      <OpenApiView doc={ZOpenApiDocument.parse(openApiDocument())} environment="test" />
    </main>
  );
}
