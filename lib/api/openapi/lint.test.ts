import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { LINT_CONFIG, redoclyLint } from '@/scripts/lint-openapi';
import { openApiDocument } from './document';

// The OpenAPI document linted with Redocly's strictest built-in rules (recommended-strict) and operation-tag-defined:
// no error and no warning. The CLI (`redocly lint`, also `npm run openapi:lint`) and its engine
// (@redocly/openapi-core, in process) both run: the engine names a problem's place without a child process.

const describeProblem = (p: { severity: string; ruleId: string; message: string; location?: { pointer?: string }[] }) =>
  `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`;

async function engineLint(document: unknown) {
  const config = await createConfig({ extends: [...LINT_CONFIG.extends], rules: { ...LINT_CONFIG.rules } });
  return lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
}

describe('the OpenAPI document', () => {
  it('passes `redocly lint` with recommended-strict and operation-tag-defined without a warning', async () => {
    const report = await redoclyLint();
    expect(report.problems.map(describeProblem)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('passes the same rules in the engine too', async () => {
    const problems = await engineLint(openApiDocument());
    expect(problems.map(describeProblem)).toEqual([]);
  }, 60_000);

  it('fails the lint when an operation uses a tag the document does not declare', async () => {
    const document = structuredClone(openApiDocument()) as { tags: { name: string }[] };
    document.tags = document.tags.filter((tag) => tag.name !== 'Documents');
    const paths = openApiDocument().paths as Record<string, Record<string, { tags?: string[] }>>;
    const documents = Object.values(paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.tags?.includes('Documents')).length;
    expect(documents).toBeGreaterThan(0);
    const report = await redoclyLint(document);
    expect(report.totals.errors).toBe(documents);
    expect(new Set(report.problems.map((p) => `${p.severity} ${p.ruleId}`))).toEqual(new Set(['error operation-tag-defined']));
    expect((await engineLint(document)).map((p) => p.ruleId)).toEqual(Array(documents).fill('operation-tag-defined'));
  }, 120_000);
});
