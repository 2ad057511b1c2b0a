// How long a worker waits before trying a failed pass again (lib/features/runs/work-types.ts passRetryMs): moments on
// contention, whatever the streak; the outage's growing backoff otherwise.
import { describe, expect, it } from "vitest";
import { passRetryMs } from "../lib/features/runs/work-types";

const most = () => 0.999999; // the top of the jitter's range
const DEFAULTS = [500, 30_000] as const; // the worker's backoffBaseMs / backoffMaxMs

describe("passRetryMs", () => {
  it("retries contention within 25 ms at first and 250 ms at most, however long the streak", () => {
    expect(passRetryMs(true, 0, ...DEFAULTS, most)).toBe(25);
    expect(passRetryMs(true, 1, ...DEFAULTS, most)).toBe(50);
    for (const streak of [4, 6, 50]) expect(passRetryMs(true, streak, ...DEFAULTS, most)).toBe(250);
    expect(passRetryMs(true, 3, ...DEFAULTS, () => 0)).toBe(0);
  });

  it("waits the outage's backoff for other failures, never less than 50 ms", () => {
    expect(passRetryMs(false, 0, ...DEFAULTS, () => 0)).toBe(50);
    expect(passRetryMs(false, 1, ...DEFAULTS, most)).toBe(1_050);
    expect(passRetryMs(false, 50, ...DEFAULTS, most)).toBe(30_050); // 500 · 2^6 capped at 30 s
  });

  it("keeps a test's shorter settings", () => {
    expect(passRetryMs(true, 6, 20, 200, most)).toBe(200);
    expect(passRetryMs(true, 0, 10, 200, most)).toBe(10);
  });
});
