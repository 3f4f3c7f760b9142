import { appendFileSync, mkdirSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '@/lib/api/openapi/document';

// Every exchange the API suite makes through call() is checked against the OpenAPI document, so that
// the document and the API cannot drift apart unnoticed:
//   - a JSON response of a documented operation matches the schema documented for its status; an error (4xx,
//     5xx) matches the Error envelope; a status the operation does not document is drift too;
//   - a request body the API accepted (2xx) matches the operation's documented request schema.
// A mismatch fails the call (contractViolations() lists them), unless CONTRACT_CHECK=report, which only writes
// them to test-results/contract-drift.jsonl.

type Json = Record<string, unknown>;
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>>; components: Json };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components });

const compiled = new Map<string, ValidateFunction>();
function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    // A $ref points into the document; an inline schema's own $refs do too.
    const rewritten = JSON.parse(key.replaceAll('"#/components/', '"doc#/components/')) as Json;
    validate = ajv.compile(rewritten);
    compiled.set(key, validate);
  }
  return validate;
}

const routes = Object.entries(doc.paths).map(([template, item]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  item,
}));

function operationFor(method: string, path: string): { template: string; operation: Operation } | undefined {
  for (const route of routes) {
    if (!route.pattern.test(path)) continue;
    const operation = route.item[method.toLowerCase()];
    if (operation && typeof operation === 'object') return { template: route.template, operation: operation };
  }
  return undefined;
}

function problems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

const errorEnvelope = validatorFor({ $ref: '#/components/schemas/Error' });

/** What is wrong with one exchange, by the document (empty when it conforms or is not the API's JSON). */
export function checkExchange(exchange: {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  requestBody: unknown;
  responseBody: unknown;
}): string[] {
  const path = exchange.path.split('?')[0] ?? '';
  if (!exchange.contentType?.includes('application/json') || exchange.responseBody === undefined) return [];
  const found = operationFor(exchange.method, path);
  if (exchange.status >= 400) return problems(errorEnvelope, exchange.responseBody).map((p) => `error envelope: ${p}`);
  // Not an operation of the document: the suites also probe paths that do not exist (they answer 404, above).
  if (!found)
    return exchange.status < 300 ? [`${exchange.method} ${path}: a ${exchange.status} from an undocumented operation`] : [];
  const out: string[] = [];
  const response = found.operation.responses?.[String(exchange.status)];
  if (!response) out.push(`${exchange.method} ${found.template}: status ${exchange.status} is not documented`);
  const schema = response?.content?.['application/json']?.schema;
  if (schema)
    out.push(
      ...problems(validatorFor(schema), exchange.responseBody).map(
        (p) => `${exchange.method} ${found.template} ${exchange.status} response: ${p}`,
      ),
    );
  const requestSchema = found.operation.requestBody?.content?.['application/json']?.schema;
  if (requestSchema && exchange.requestBody !== undefined && exchange.status < 300) {
    out.push(
      ...problems(validatorFor(requestSchema), exchange.requestBody).map(
        (p) => `${exchange.method} ${found.template} request: ${p}`,
      ),
    );
  }
  return out;
}

const REPORT = process.env.CONTRACT_CHECK === 'report';

/** Checks one exchange; throws on drift (or, with CONTRACT_CHECK=report, appends it to the report). */
export function enforceContract(exchange: Parameters<typeof checkExchange>[0]): void {
  const found = checkExchange(exchange);
  if (found.length === 0) return;
  if (REPORT) {
    mkdirSync('test-results', { recursive: true });
    appendFileSync(
      'test-results/contract-drift.jsonl',
      `${JSON.stringify({ method: exchange.method, path: exchange.path, status: exchange.status, found })}\n`,
    );
    return;
  }
  throw new Error(`the response departs from the OpenAPI document (lib/api/openapi):\n${found.join('\n')}`);
}
