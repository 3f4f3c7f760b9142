import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { containerSample, packageSample, rateSampleAirSkip, rateSampleAll, rateSampleExpress } from '@/e2e/api/support/samples';
import { parseOperation } from '@/lib/schemas/parse';
import { RATE_ALIASES, ZRateRequest } from '@/lib/schemas/rate';
import { openApiDocument } from './document';

// The OpenAPI document describes what the API accepts: request bodies shaped like the published samples
// (`lenght`, "" for no value, numeric text and numbers, the spaced container names) validate against its schemas,
// as do the document's own examples. Before, its rate example broke its own schema in 8 places, and a client
// generated from it would have refused the published samples.

type Json = Record<string, unknown>;
const doc = openApiDocument() as Json & {
  components: { schemas: Record<string, Json> };
  paths: Record<string, Record<string, Json>>;
};

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The document's schemas by their $ref ("#/components/schemas/Name" resolves against this id).
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  return (name: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `doc#/components/schemas/${name}` });
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  };
}
const check = validator();

describe('the OpenAPI document against the published samples', () => {
  it('takes the rate samples: lenght, numeric text, numbers and "" for no value', () => {
    for (const sample of [rateSampleAll(), rateSampleExpress(), rateSampleAirSkip()])
      expect(check('RateRequest', sample)).toEqual([]);
    expect(
      check('RateRequest', {
        weight: '2.5',
        weight_unit: 'lb',
        length: '10',
        width: '8',
        height: '4',
        service: '',
        origin: '',
        destination: '',
      }),
    ).toEqual([]);
  });

  it('takes the container and package samples, with the published spellings of their fields', () => {
    expect(check('ContainerManifestRequest', containerSample('ULD-1', ['1Z1', '1Z2']))).toEqual([]);
    const spaced = { ...containerSample('ULD-2'), FromPostalcode: '07114' } as Json;
    delete spaced.FromPostalCode;
    expect(check('ContainerManifestRequest', spaced)).toEqual([]);
    expect(check('PackageManifestRequest', packageSample('1Z3'))).toEqual([]);
  });

  it('still refuses what the API refuses', () => {
    const rate = rateSampleExpress() as Json;
    expect(check('RateRequest', { ...rate, weight: 'heavy' })).not.toEqual([]);
    expect(check('RateRequest', { ...rate, origin: 'JFKX' })).not.toEqual([]);
    expect(check('RateRequest', { ...rate, service: 'Overnight' })).not.toEqual([]);
    // Neither `length` nor `lenght`: the API refuses it (the Zod schema); the document says so in words only, since
    // a schema that enforced one-of-two made renderers show the request as "any" (document.test.ts).
    const noLength = { ...rate };
    delete noLength.lenght;
    expect(() => parseOperation(ZRateRequest, rate, { aliases: RATE_ALIASES })).not.toThrow();
    expect(() => parseOperation(ZRateRequest, noLength, { aliases: RATE_ALIASES })).toThrow();
    expect(String(doc.components.schemas.RateRequest?.description)).toContain('One of `length` or `lenght` is required.');
    expect(check('RateRequest', { ...rate, weight: -1 })).not.toEqual([]);
    expect(
      check('PackageManifestRequest', { package: { ...packageSample('1Z4').package, ManifestDate: 'tomorrow' } }),
    ).not.toEqual([]);
  });

  it("validates every schema's example and every response example against its schema", () => {
    let checked = 0;
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      if (schema.example === undefined) continue;
      expect(check(name, schema.example), name).toEqual([]);
      checked += 1;
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
          const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
          const ref = (media?.schema as Json | undefined)?.$ref;
          if (media?.example === undefined || typeof ref !== 'string') continue;
          expect(check(ref.split('/').at(-1)!, media.example), `${method} ${path} ${status}`).toEqual([]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
