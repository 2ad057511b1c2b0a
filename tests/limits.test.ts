// The in-process halves of a model's global limits, and the share rule, with hand-checked cases.
import { describe, expect, it } from "vitest";
import { DynamicLimit, RateGate } from "../lib/features/runs/limits";
import { grantFor } from "../lib/features/runs/model-share";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("DynamicLimit", () => {
  it("runs at most its capacity, starts nothing at 0, and follows a new capacity", async () => {
    const limit = new DynamicLimit(2);
    let running = 0;
    let peak = 0;
    const gates: Array<() => void> = [];
    const job = () =>
      limit.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
      });
    const all = [job(), job(), job(), job()];
    await tick();
    expect(running).toBe(2);
    expect(limit.queued).toBe(2);
    limit.setCapacity(0);
    gates.shift()!();
    gates.shift()!();
    await tick();
    await tick();
    expect(running).toBe(0); // capacity 0: the queued two wait
    limit.setCapacity(3);
    await tick();
    expect(running).toBe(2);
    gates.splice(0).forEach((g) => g());
    await Promise.all(all);
    expect(peak).toBe(2);
  });
});

describe("RateGate", () => {
  it("lets a minute's rate through over a minute, one second's worth at once", () => {
    let now = 0;
    const gate = new RateGate(() => now);
    gate.setRates(120, null); // 2 per second, bucket of 2
    now = 10_000; // bucket full
    expect(gate.tryTake()).toBe(0);
    expect(gate.tryTake()).toBe(0);
    expect(gate.tryTake()).toBe(500); // empty: the next in 0.5 s
    let taken = 2;
    for (let t = 10_000; t <= 70_000; t += 100) {
      now = t;
      while (gate.tryTake() === 0) taken++;
    }
    // one minute at 2/s plus the starting bucket of 2
    expect(taken).toBeGreaterThanOrEqual(121);
    expect(taken).toBeLessThanOrEqual(123);
  });

  it("makes calls wait while the tokens used exceed tokens/min, and unlimited rates never wait", () => {
    let now = 0;
    const gate = new RateGate(() => now);
    gate.setRates(null, 6_000); // 100 tokens a second
    now = 5_000;
    expect(gate.tryTake()).toBe(0);
    gate.charge(400); // bucket 100 → −300
    expect(gate.tryTake()).toBe(3_010); // (300 + 1) / 6000 per minute
    now += 3_010;
    expect(gate.tryTake()).toBe(0);
    const free = new RateGate(() => now);
    for (let i = 0; i < 1000; i++) expect(free.tryTake()).toBe(0);
  });
});

describe("a worker's share of a model's concurrency", () => {
  it("never grants more than the live leases leave free", () => {
    expect(grantFor({ concurrency: 8, want: 8 }, [])).toBe(8);
    expect(grantFor({ concurrency: 8, want: 8 }, [{ granted: 8, wanted: 8 }])).toBe(0);
    expect(grantFor({ concurrency: 8, want: 8 }, [{ granted: 3, wanted: 3 }])).toBe(5);
    expect(grantFor({ concurrency: 8, want: 2 }, [{ granted: 3, wanted: 3 }])).toBe(2);
  });
  it("gives way to the fair part while another worker wants more than it holds", () => {
    // A holds everything; B arrives wanting 8 and gets 0; at A's next renewal A sees B waiting and keeps 4.
    expect(grantFor({ concurrency: 8, want: 8 }, [{ granted: 0, wanted: 8 }])).toBe(4);
    // then B gets the 4 A left
    expect(grantFor({ concurrency: 8, want: 8 }, [{ granted: 4, wanted: 8 }])).toBe(4);
    // three workers on 8 slots: 2 each while all want more
    expect(
      grantFor({ concurrency: 8, want: 8 }, [
        { granted: 2, wanted: 8 },
        { granted: 2, wanted: 8 },
      ]),
    ).toBe(2);
  });
});

describe("a model's rate limits at the boundary", () => {
  it("accepts positive whole numbers or none, and refuses zero, negatives and fractions", async () => {
    const { modelInputSchema } = await import("../lib/features/runs/models");
    const base = { slug: "m", label: "M", provider: "openai", modelId: "gpt-4o" };
    expect(modelInputSchema.parse(base)).toMatchObject({ requestsPerMinute: null, tokensPerMinute: null });
    expect(modelInputSchema.parse({ ...base, requestsPerMinute: 600, tokensPerMinute: 90_000 })).toMatchObject({
      requestsPerMinute: 600,
      tokensPerMinute: 90_000,
    });
    for (const bad of [0, -5, 1.5]) expect(modelInputSchema.safeParse({ ...base, requestsPerMinute: bad }).success).toBe(false);
    expect(modelInputSchema.safeParse({ ...base, tokensPerMinute: 0 }).success).toBe(false);
  });
});
