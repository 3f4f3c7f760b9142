import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { PageHeader } from '@/components/ui';
import { openApiDocument } from '@/lib/openapi/document';
import { getEnvironment } from '@/lib/portal/environment';
import { OpenApiView } from './_components/openapi-view';

export const metadata: Metadata = { title: 'API reference' };

// GET /docs: the OpenAPI document rendered here, examples pointed at the selected environment.
export default async function DocsPage() {
  const h = await headers();
  const host = h.get('x-forwarded-host') ?? h.get('host') ?? 'localhost';
  const proto = h.get('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  const environment = await getEnvironment();
  return (
    <>
      <PageHeader
        title="API reference"
        description={`Examples use the ${environment} base path; switch environment in the header.`}
      />
      <OpenApiView
        doc={openApiDocument() as Parameters<typeof OpenApiView>[0]['doc']}
        origin={`${proto}://${host}`}
        environment={environment}
      />
    </>
  );
}
