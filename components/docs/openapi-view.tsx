import type { ReactNode } from 'react';
import { Badge, Card } from '@/components/ui';
import { CodeBlock, PageOrigin } from './code-block';
import { ORIGIN_STAND_IN } from './page-origin';
import {
  examplePath,
  METHODS,
  type OpenApiSchema,
  type TOpenApiDocument,
  type TOpenApiMedia,
  type TOpenApiOperation,
  type TOpenApiParameter,
} from '@/lib/api/openapi/shape';

// A small, self-hosted renderer for our OpenAPI 3.1 document: operations, parameters, request and
// response schemas, examples and curl snippets. Nothing is fetched from outside the machine.

type Doc = TOpenApiDocument;
const METHOD_TONE: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-green-100 text-green-900',
  put: 'bg-amber-100 text-amber-900',
  patch: 'bg-amber-100 text-amber-900',
  delete: 'bg-red-100 text-red-900',
};

/** Descriptions use `backticks` for code; nothing else of Markdown is needed. */
function Md({ text }: { text: string | undefined }) {
  const parts = (text ?? '').split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-slate-100 px-1 py-0.5 text-[0.85em] text-slate-900">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

export function operationAnchor(method: string, path: string): string {
  return `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

function refName(schema: OpenApiSchema | undefined): string | undefined {
  return schema?.$ref?.split('/').pop();
}

function resolve(doc: Doc, schema: OpenApiSchema | undefined): OpenApiSchema {
  if (!schema) return {};
  const name = refName(schema);
  return name ? (doc.components.schemas[name] ?? {}) : schema;
}

function typeLabel(doc: Doc, schema: OpenApiSchema): string {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.allOf) return schema.allOf.map((s) => typeLabel(doc, s)).join(' & ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array' && schema.items) return `${typeLabel(doc, schema.items)}[]`;
  return type ?? 'any';
}

function constraints(schema: OpenApiSchema): string[] {
  const out: string[] = [];
  if (schema.enum) out.push(`one of: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.format) out.push(`format: ${schema.format}`);
  // An optional field's format allows blank too (lib/schemas/fields.ts accepted()).
  for (const alternative of schema.anyOf ?? []) if (alternative.format) out.push(`format: ${alternative.format}, or blank`);
  if (schema.pattern) out.push(`pattern: ${schema.pattern}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.examples) out.push(`e.g. ${schema.examples.map((v) => JSON.stringify(v)).join(', ')}`);
  return out;
}

/** A schema's or webhook event's id on the page: its name, with what an id cannot hold as dashes. */
function nameAnchor(kind: 'schema' | 'event', name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

export function schemaAnchor(name: string): string {
  return nameAnchor('schema', name);
}

function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#${schemaAnchor(name)}`} className="text-xs font-medium text-brand-700 underline">
      Fields of {name}
    </a>
  );
}

/** Properties of an object schema (allOf merged), as a nested table. */
function SchemaTable({ doc, schema, depth = 0 }: { doc: Doc; schema: OpenApiSchema | undefined; depth?: number }) {
  const resolved = resolve(doc, schema);
  const parts = resolved.allOf ? resolved.allOf.map((s) => resolve(doc, s)) : [resolved];
  const properties = Object.fromEntries(parts.flatMap((p) => Object.entries(p.properties ?? {})));
  const required = new Set(parts.flatMap((p) => p.required ?? []));
  if (resolved.type === 'array' && resolved.items) {
    const named = refName(resolved.items);
    return named ? (
      <p className="text-sm text-slate-700">
        Array of <SchemaLink name={named} />
      </p>
    ) : (
      <div>
        <p className="text-sm text-slate-700">Array of {typeLabel(doc, resolved.items)}:</p>
        <SchemaTable doc={doc} schema={resolved.items} depth={depth + 1} />
      </div>
    );
  }
  const entries = Object.entries(properties);
  if (entries.length === 0) return <p className="text-sm text-slate-700">{typeLabel(doc, resolved)}</p>;
  return (
    // Focusable so that a keyboard can scroll a wide table on a phone.
    <div className="overflow-x-auto" tabIndex={0}>
      <table className="min-w-full text-left text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map(([name, raw]) => {
            const prop = resolve(doc, raw);
            const itemSchema = prop.type === 'array' && prop.items ? resolve(doc, prop.items) : undefined;
            // A named schema is shown once, under Schemas, and linked from every field that uses it: inlined, the
            // page would repeat the same tables hundreds of times.
            const named = refName(raw) ?? (prop.type === 'array' && prop.items ? refName(prop.items) : undefined);
            const nested = !named && depth < 3 && (prop.properties || itemSchema?.properties) ? (itemSchema ?? prop) : undefined;
            return (
              <tr key={name} className="align-top">
                <td className="whitespace-nowrap py-2 pr-4">
                  <code className="font-semibold text-slate-900">{name}</code>
                  <span className="block text-xs text-slate-600">{typeLabel(doc, raw)}</span>
                  {required.has(name) ? <span className="block text-xs font-medium text-red-800">required</span> : null}
                </td>
                <td className="py-2 text-slate-800">
                  {prop.description ? (
                    <p>
                      <Md text={prop.description} />
                    </p>
                  ) : null}
                  {constraints(prop).length > 0 ? (
                    <p className="text-xs text-slate-600">{constraints(prop).join(' · ')}</p>
                  ) : null}
                  {named && (itemSchema ?? prop).properties ? <SchemaLink name={named} /> : null}
                  {nested ? (
                    <details className="mt-1">
                      <summary className="cursor-pointer text-xs font-medium text-brand-700">Fields of {name}</summary>
                      <div className="mt-1 border-l-2 border-slate-200 pl-3">
                        <SchemaTable doc={doc} schema={nested} depth={depth + 1} />
                      </div>
                    </details>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function exampleOf(doc: Doc, media: TOpenApiMedia | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const schema = resolve(doc, media.schema);
  return schema.example;
}

function curl(method: string, url: string, body: unknown): string {
  const lines = [`curl -X ${method.toUpperCase()} '${url}'`, `  -H "Authorization: Token $CARRIER_TOKEN"`];
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d '${JSON.stringify(body, null, 2).replace(/'/g, "'\\''")}'`);
  }
  return lines.join(' \\\n');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-4">
      <h4 className="mb-2 text-sm font-semibold text-slate-900">{title}</h4>
      {children}
    </div>
  );
}

function Operation({
  doc,
  method,
  path,
  op,
  shared,
  baseUrl,
}: {
  doc: Doc;
  method: string;
  path: string;
  op: TOpenApiOperation;
  shared: TOpenApiParameter[];
  baseUrl: string;
}) {
  const parameters = [...shared, ...op.parameters];
  const requestMedia = op.requestBody?.content['application/json'];
  const example = exampleOf(doc, requestMedia);
  const responses = Object.entries(op.responses);
  // Each path's own example ids (evt_…, req_…, MAN-…), as the document gives them.
  const samplePath = examplePath(path, parameters);
  return (
    <Card className="scroll-mt-24">
      <section
        id={operationAnchor(method, path)}
        aria-labelledby={`${operationAnchor(method, path)}-title`}
        data-testid="operation"
      >
        <div className="flex flex-wrap items-center gap-2">
          <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_TONE[method]}`}>{method}</span>
          <code className="break-all text-sm font-semibold text-slate-900">{path}</code>
        </div>
        <h3 id={`${operationAnchor(method, path)}-title`} className="mt-2 text-lg font-semibold text-slate-900">
          {op.summary ?? ''}
        </h3>
        {op.description ? (
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            <Md text={op.description} />
          </p>
        ) : null}

        {parameters.length > 0 ? (
          <Section title="Parameters">
            <ul className="space-y-1 text-sm">
              {parameters.map((p) => (
                <li key={`${p.in}-${p.name}`}>
                  <code className="font-semibold">{p.name}</code>{' '}
                  <span className="text-slate-600">
                    ({p.in}
                    {p.required ? ', required' : ''})
                  </span>
                  {p.description ? (
                    <>
                      {' — '}
                      <Md text={p.description} />
                    </>
                  ) : null}
                  {p.schema ? <span className="text-xs text-slate-600"> {constraints(p.schema).join(' · ')}</span> : null}
                </li>
              ))}
            </ul>
          </Section>
        ) : null}

        {requestMedia ? (
          <Section title="Request body">
            <SchemaTable doc={doc} schema={requestMedia.schema} />
          </Section>
        ) : null}

        <Section title="Responses">
          <ul className="space-y-2">
            {responses.map(([status, response]) => {
              const media = response.content?.['application/json'];
              const sample = exampleOf(doc, media);
              return (
                <li key={status} className="text-sm">
                  <details>
                    <summary className="cursor-pointer">
                      <Badge tone={status.startsWith('2') ? 'success' : 'danger'}>{status}</Badge>{' '}
                      <span className="text-slate-800">
                        <Md text={response.description} />
                      </span>
                    </summary>
                    <div className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3">
                      {!media ? (
                        <p className="text-slate-600">No body.</p>
                      ) : !status.startsWith('2') && refName(media.schema) ? (
                        <SchemaLink name={refName(media.schema)!} />
                      ) : (
                        <SchemaTable doc={doc} schema={media.schema} />
                      )}
                      {sample !== undefined ? (
                        <CodeBlock
                          code={JSON.stringify(sample, null, 2)}
                          label={`${status} example`}
                          of={`${method.toUpperCase()} ${path}`}
                        />
                      ) : null}
                    </div>
                  </details>
                </li>
              );
            })}
          </ul>
        </Section>

        <Section title="Example request">
          <CodeBlock
            code={curl(method, `${baseUrl}${samplePath}`, example)}
            label="curl example"
            of={`${method.toUpperCase()} ${path}`}
          />
        </Section>
      </section>
    </Card>
  );
}

export function OpenApiView({ doc, environment }: { doc: Doc; environment: 'test' | 'live' }) {
  const servers = doc.servers;
  const server = servers.find((s) => s.description.toLowerCase() === environment) ?? servers[0];
  const baseUrl = `${ORIGIN_STAND_IN}${server?.url ?? ''}`;
  const { info, tags } = doc;
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method, op, shared: item.parameters }] : [];
    }),
  );
  const webhooks = Object.entries(doc.webhooks);
  const schemas = Object.entries(doc.components.schemas).sort(([a], [b]) => a.localeCompare(b));

  const contents = (
    <ul className="space-y-3 text-sm">
      <li>
        <a href="#overview" className="font-medium text-brand-700 underline">
          Overview
        </a>
      </li>
      {tags.map((tag) => (
        <li key={tag.name}>
          <p className="font-semibold text-slate-900">{tag.name}</p>
          <ul className="mt-1 space-y-1">
            {operations
              .filter((o) => o.op.tags.includes(tag.name))
              .map((o) => (
                <li key={`${o.method}${o.path}`}>
                  <a href={`#${operationAnchor(o.method, o.path)}`} className="text-slate-700 underline-offset-2 hover:underline">
                    <span className="mr-1 font-mono text-xs uppercase text-slate-600">{o.method}</span>
                    {o.op.summary}
                  </a>
                </li>
              ))}
          </ul>
        </li>
      ))}
      {webhooks.length > 0 ? (
        <li>
          <a href="#events" className="font-medium text-brand-700 underline">
            Webhook events
          </a>
        </li>
      ) : null}
      <li>
        <a href="#schemas" className="font-medium text-brand-700 underline">
          Schemas
        </a>
      </li>
    </ul>
  );

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[15rem_minmax(0,1fr)]">
      {/* Phones: the contents fold away so the reference starts on the first screen. */}
      <details className="rounded-lg border border-slate-200 bg-white p-4 lg:hidden">
        <summary className="cursor-pointer text-sm font-semibold text-slate-900">On this page</summary>
        <nav aria-label="API reference contents" className="mt-3">
          {contents}
        </nav>
      </details>
      <nav
        aria-label="API reference"
        className="hidden lg:sticky lg:top-4 lg:block lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto"
      >
        {contents}
      </nav>

      <div className="min-w-0 space-y-6">
        <Card>
          <section id="overview" aria-labelledby="overview-title">
            <h2 id="overview-title" className="text-lg font-semibold">
              {info.title}{' '}
              <span className="text-sm font-normal text-slate-600">
                v{info.version} · OpenAPI {doc.openapi}
              </span>
            </h2>
            <p className="mt-2 max-w-3xl text-sm text-slate-700">
              <Md text={info.description} />
            </p>
            <h3 className="mt-4 text-sm font-semibold">Servers</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {servers.map((s) => (
                <li key={s.url}>
                  <code>
                    <PageOrigin />
                    {s.url}
                  </code>{' '}
                  — {s.description}
                  {s === server ? (
                    <Badge tone="info" className="ml-2">
                      selected
                    </Badge>
                  ) : null}
                </li>
              ))}
            </ul>
            <p className="mt-4 text-sm text-slate-700">
              Machine-readable document:{' '}
              <a href="/api/1.1/openapi.json" className="font-medium text-brand-700 underline">
                /api/1.1/openapi.json
              </a>{' '}
              (public, CORS enabled). Errors share one envelope:{' '}
              <code>{'{ "error": { "code", "message", "details": [{ "path", "message" }] } }'}</code>. The examples read your
              token from <code>$CARRIER_TOKEN</code>; create one under API tokens.
            </p>
          </section>
        </Card>

        {tags.map((tag) => (
          <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="space-y-4">
            <div>
              <h2 id={`tag-${tag.name}`} className="text-xl font-semibold text-slate-900">
                {tag.name}
              </h2>
              {tag.description ? <p className="text-sm text-slate-700">{tag.description}</p> : null}
            </div>
            {operations
              .filter((o) => o.op.tags.includes(tag.name))
              .map((o) => (
                <Operation
                  key={`${o.method}${o.path}`}
                  doc={doc}
                  method={o.method}
                  path={o.path}
                  op={o.op}
                  shared={o.shared}
                  baseUrl={baseUrl}
                />
              ))}
          </section>
        ))}

        {webhooks.length > 0 ? (
          <section id="events" aria-labelledby="events-title" className="space-y-4">
            <h2 id="events-title" className="text-xl font-semibold text-slate-900">
              Webhook events
            </h2>
            {webhooks.map(([name, item]) => {
              const op = item.post;
              const media = op.requestBody?.content['application/json'];
              return (
                <Card key={name} id={nameAnchor('event', name)} className="scroll-mt-24">
                  <h3 className="text-lg font-semibold">
                    <code>{name}</code> — {op.summary}
                  </h3>
                  <p className="mt-1 max-w-3xl text-sm text-slate-700">
                    <Md text={op.description} />
                  </p>
                  <Section title="Headers">
                    <ul className="space-y-1 text-sm">
                      {op.parameters.map((p) => (
                        <li key={p.name}>
                          <code className="font-semibold">{p.name}</code> — <Md text={p.description} />
                        </li>
                      ))}
                    </ul>
                  </Section>
                  <Section title="Payload">
                    <SchemaTable doc={doc} schema={media?.schema} />
                    {exampleOf(doc, media) !== undefined ? (
                      <div className="mt-2">
                        <CodeBlock code={JSON.stringify(exampleOf(doc, media), null, 2)} label="payload example" of={name} />
                      </div>
                    ) : null}
                  </Section>
                </Card>
              );
            })}
          </section>
        ) : null}

        <section id="schemas" aria-labelledby="schemas-title" className="space-y-4">
          <h2 id="schemas-title" className="text-xl font-semibold text-slate-900">
            Schemas
          </h2>
          {schemas.map(([name, schema]) => (
            <Card key={name}>
              <section id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-title`} className="scroll-mt-24">
                <h3 id={`${schemaAnchor(name)}-title`} className="text-lg font-semibold">
                  <code>{name}</code>
                </h3>
                {schema.description ? (
                  <p className="mt-1 max-w-3xl text-sm text-slate-700">
                    <Md text={schema.description} />
                  </p>
                ) : null}
                <div className="mt-2">
                  <SchemaTable doc={doc} schema={schema} />
                </div>
              </section>
            </Card>
          ))}
        </section>
      </div>
    </div>
  );
}
