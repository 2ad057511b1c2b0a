// lib/core/shared.ts: one computation for many readers, each result at most its key's age limit old.
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetShared, shared } from "../lib/core/shared";

afterEach(() => {
  vi.useRealTimers();
  forgetShared("t|");
});

describe("shared", () => {
  it("readers within the age limit share one computation; after it, the next reader computes again", async () => {
    vi.useFakeTimers();
    let n = 0;
    const compute = async () => ++n;
    const [a, b] = await Promise.all([shared("t|a", 1000, compute), shared("t|a", 1000, compute)]);
    expect([a, b, n]).toEqual([1, 1, 1]);
    vi.advanceTimersByTime(999);
    expect(await shared("t|a", 1000, compute)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await shared("t|a", 1000, compute)).toBe(2);
  });

  it("an age limit chosen by the value: a settled value is kept longer than a live one", async () => {
    vi.useFakeTimers();
    let status = "running";
    let n = 0;
    const compute = async () => ({ status, n: ++n });
    const age = (v: { status: string }) => (v.status === "completed" ? 10_000 : 2_000);
    expect((await shared("t|run", age, compute)).n).toBe(1);
    vi.advanceTimersByTime(2_000);
    status = "completed";
    expect((await shared("t|run", age, compute)).n).toBe(2);
    vi.advanceTimersByTime(9_999);
    expect((await shared("t|run", age, compute)).n).toBe(2);
    // A change that forgets the key is seen by the next reader at once.
    status = "running";
    forgetShared("t|run");
    expect(await shared("t|run", age, compute)).toEqual({ status: "running", n: 3 });
  });

  it("joins a computation still in flight whatever its age, and keeps no failure", async () => {
    vi.useFakeTimers();
    let release!: (v: number) => void;
    let n = 0;
    const slow = () => (n++, new Promise<number>((r) => (release = r)));
    const first = shared("t|slow", () => 1_000, slow);
    vi.advanceTimersByTime(5_000);
    const second = shared("t|slow", () => 1_000, slow);
    release(7);
    expect([await first, await second, n]).toEqual([7, 7, 1]);
    await expect(shared("t|bad", 1000, () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await shared("t|bad", 1000, async () => 1)).toBe(1);
  });
});
