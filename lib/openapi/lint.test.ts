import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { redoclyLint } from '@/scripts/lint-openapi';
import { openApiDocument } from './document';

// The OpenAPI document linted with Redocly's recommended rules (issue 16): no error and no warning. The first run
// found 17 warnings: 13 webhooks without an operationId, two lists without a 4XX response, no licence, and an unused
// component. The CLI (`redocly lint`, what the issue asks CI to run, also `npm run openapi:lint`) and its engine
// (@redocly/openapi-core, in process) both run: the engine names a problem's place without a child process.
describe('the OpenAPI document', () => {
  it("passes `redocly lint` with the recommended rules without a warning", async () => {
    const report = await redoclyLint();
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it("passes Redocly's recommended rules in the engine too", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
  }, 60_000);
});
