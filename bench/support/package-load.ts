// The webhook benchmark's load: PACKAGES package manifests sent through the API by autocannon at
// RATE a second, each with a new tracking number, in a process of its own (so that sending does not
// share an event loop with the receiver that timestamps deliveries). Prints one JSON line: when
// each package was accepted (its 200 arrived), on the wall clock the receiver also uses.
//   LOAD_URL LOAD_PATH LOAD_TOKEN LOAD_PACKAGES LOAD_RATE LOAD_CONNECTIONS LOAD_PREFIX
import autocannon from 'autocannon';
import { PACKAGE_TEMPLATE } from './fixtures';

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const packages = Number(need('LOAD_PACKAGES'));
const prefix = need('LOAD_PREFIX');
/** Milliseconds since the epoch, to the microsecond: comparable across processes on one machine. */
const now = () => performance.timeOrigin + performance.now();

let next = 0;
const accepted: [trackingNumber: string, at: number][] = [];
const refused: { status: number; body: string }[] = [];
const started = now();
const result = await autocannon({
  url: need('LOAD_URL'),
  connections: Number(need('LOAD_CONNECTIONS')),
  amount: packages,
  overallRate: Number(need('LOAD_RATE')),
  timeout: 30,
  requests: [
    {
      method: 'POST',
      path: need('LOAD_PATH'),
      headers: { authorization: `Token ${need('LOAD_TOKEN')}`, 'content-type': 'application/json' },
      setupRequest: (request, context) => {
        const trackingNumber = `${prefix}${String(next++).padStart(6, '0')}`;
        context.trackingNumber = trackingNumber;
        return { ...request, body: PACKAGE_TEMPLATE.replace('__TN__', trackingNumber) };
      },
      onResponse: (status, body, context) => {
        if (status === 200) accepted.push([context.trackingNumber as string, now()]);
        else if (refused.length < 20) refused.push({ status, body: body.slice(0, 300) });
      },
    },
  ],
});
console.log(
  JSON.stringify({
    accepted,
    refused: result.non2xx,
    refusedSamples: refused,
    errors: result.errors + result.timeouts,
    startedAt: started,
  }),
);
