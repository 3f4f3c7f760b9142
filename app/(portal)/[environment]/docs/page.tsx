import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/ui';
import { openApiDocument } from '@/lib/api/openapi/document';
import { ZOpenApiDocument } from '@/lib/api/openapi/shape';
import { isEnvironment } from '@/lib/portal/paths';
import { OpenApiView } from '@/components/docs/openapi-view';

export const metadata: Metadata = { title: 'API reference' };

// GET /{environment}/docs: the OpenAPI document rendered here, examples pointed at the page's environment.
export default async function DocsPage({ params }: { params: Promise<{ environment: string }> }) {
  const { environment } = await params;
  if (!isEnvironment(environment)) notFound();
  return (
    <>
      <PageHeader
        title="API reference"
        description={`Examples use the ${environment} base path; switch environment in the header.`}
      />
      <OpenApiView doc={ZOpenApiDocument.parse(openApiDocument())} environment={environment} />
    </>
  );
}
