import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';

// The OpenAPI document linted with Redocly's recommended rules (issue 16), the engine `redocly lint` runs: no
// error and no warning. The first run found 17 warnings: 13 webhooks without an operationId, two lists without a
// 4XX response, no licence, and an unused component.
describe('the OpenAPI document', () => {
  it("passes Redocly's recommended rules without a warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
  }, 60_000);
});
