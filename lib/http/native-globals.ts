// Loading Next replaces Date, Math.random and the crypto randoms of the whole process with wrappers that report every
// call to its cacheComponents prerender tracking (next/dist/server/node-environment-extensions). This app leaves
// cacheComponents off (next.config.mjs; native-globals.test.ts holds it there), so there the wrappers only cost: two
// AsyncLocalStorage look-ups per call, which the API's serving thread pays on every request that reads the clock or
// makes an id. Captured before Next loads and put back once it is prepared: the rate benchmark's serving thread then did
// about 13 % less work per quote (docs/decisions/quote-cost.md, "Next in the same process").
// setImmediate and process.nextTick stay Next's: its renderer schedules through them.
import nodeCrypto from 'node:crypto';

type Restore = () => void;

export function captureNativeGlobals(): Restore {
  const date = globalThis.Date;
  const random = Math.random;
  const { randomUUID, randomBytes, randomFillSync, randomInt } = nodeCrypto;
  const web = globalThis.crypto;
  const webOwn = {
    getRandomValues: Object.getOwnPropertyDescriptor(web, 'getRandomValues'),
    randomUUID: Object.getOwnPropertyDescriptor(web, 'randomUUID'),
  };
  return () => {
    globalThis.Date = date;
    // Next also pointed the prototype's constructor at its wrapper.
    Object.defineProperty(date.prototype, 'constructor', { value: date, writable: true, configurable: true });
    Math.random = random;
    Object.assign(nodeCrypto, { randomUUID, randomBytes, randomFillSync, randomInt });
    // Next set these as own properties over the prototype's methods; where there were none, the prototype's show again.
    for (const name of ['getRandomValues', 'randomUUID'] as const) {
      const own = webOwn[name];
      if (own) Object.defineProperty(web, name, own);
      else delete (web as unknown as Record<string, unknown>)[name];
    }
  };
}
