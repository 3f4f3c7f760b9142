import { describe, expect, it } from 'vitest';
import { newRequestId, requestIdFrom } from './request-id';

describe('request ids', () => {
  it('are 32 hex digits, and none repeats across the refills of their random buffer', () => {
    const ids = Array.from({ length: 1_000 }, newRequestId);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keep a client's own id when it is plausible and holds no secret", () => {
    expect(requestIdFrom('order-4711-retry-2')).toBe('order-4711-retry-2');
    expect(requestIdFrom('short')).toMatch(/^req_/);
    expect(requestIdFrom(`ck_test_${'a'.repeat(43)}`)).toMatch(/^req_/);
  });
});
