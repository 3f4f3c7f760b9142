import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkTypes } from '@/scripts/generate-sdk';

// The SDK's types are generated from the OpenAPI document and checked in (sdk/generated/schema.ts): a change to a schema that
// was not followed by `npm run sdk:generate` fails here, so the SDK cannot drift from the API.
describe('sdk/generated/schema.ts', () => {
  it('is what npm run sdk:generate writes from the document now', async () => {
    expect(
      readFileSync(new URL('../../../sdk/generated/schema.ts', import.meta.url), 'utf8') === (await sdkTypes()),
      'sdk/generated/schema.ts is stale: run npm run sdk:generate',
    ).toBe(true);
  }, 60_000);
});
