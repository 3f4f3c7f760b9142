// An identical retry of POST /wf/manifest or /wf/package is answered as the first request was (design.md:
// idempotency), plus this header, as Stripe answers a replayed idempotent request: the body stays the contract's,
// and a client (the portal's builder among them) can still tell "stored now" from "already stored".
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const REPLAYED: Readonly<Record<string, string>> = Object.freeze({ [REPLAYED_HEADER]: 'true' });

/** The header as the reference documents it on the answers that may be replays. */
export const REPLAYED_HEADERS: Readonly<Record<string, unknown>> = {
  [REPLAYED_HEADER]: {
    schema: { type: 'string', const: 'true' },
    description: "Present on the answer to an identical retry: nothing new was stored, and the body is the first answer's.",
  },
};
