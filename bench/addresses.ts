// npm run bench:addresses: the address check (lib/addresses) per call, in process, beside its baseline from the same
// run: the postal-code lookup alone (what the check cannot do without). The goal: < 1 ms a call.
import { lookupPostalCode as lookup } from '@/lib/places/postal-codes';
import { validateAddress } from '@/lib/addresses/validate-address';
import { addDestinationWarnings } from '@/lib/addresses/destination-warnings';

const CALLS = 200_000;
const INPUTS = [
  { postalCode: '90210', city: 'Beverly Hills', state: 'CA', country: 'US' },
  { postalCode: '90210', city: 'Toronto', state: 'ON' },
  { postalCode: 'M5V 2T6', city: 'Toronto', state: 'Ontario', country: 'Canada' },
  { postalCode: '10001-1234', city: 'New York', state: 'NY' },
];

function time(label: string, run: (i: number) => unknown): number {
  for (let i = 0; i < 10_000; i++) run(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) run(i);
  const us = Number(process.hrtime.bigint() - started) / 1_000 / CALLS;
  console.log(`${label.padEnd(44)} ${us.toFixed(2)} µs a call`);
  return us;
}

const baseline = time('baseline: postal-code lookup alone', (i) => lookup(INPUTS[i % INPUTS.length].postalCode.slice(0, 5)));
const check = time('validateAddress', (i) => validateAddress(INPUTS[i % INPUTS.length]));
// What every accepted package pays: its destination checked for the answer's warnings. Agreeing addresses (the
// common case) take the fast path, which allocates nothing; one that disagrees builds its messages.
const AGREEING = [
  { TrackingNumber: 'T1', ToCity: 'Beverly Hills', ToState: 'CA', ToPostalCode: '90210', ToCountry: 'US' },
  { TrackingNumber: 'T2', ToCity: 'Toronto', ToState: 'ON', ToPostalCode: 'M5V 2T6', ToCountry: 'CA' },
  { TrackingNumber: 'T3', ToCity: 'New York', ToState: 'NY', ToPostalCode: '10001-1234' },
];
const none: { path: string; message: string }[] = [];
time('destination warnings, agreeing addresses', (i) => addDestinationWarnings(none, AGREEING[i % AGREEING.length], 'package'));
time('destination warnings, one that disagrees', () =>
  addDestinationWarnings([], { TrackingNumber: 'T4', ToCity: 'Toronto', ToState: 'ON', ToPostalCode: '90210' }, 'package'),
);
console.log(
  `\nvalidateAddress: ${(check / baseline).toFixed(1)} × the lookup; goal < 1,000 µs a call: ${check < 1_000 ? 'met' : 'missed'}`,
);
