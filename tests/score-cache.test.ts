// A cache write never fails a computed answer on contention (lib/db/score-cache.ts): bench:pages once got a 503 for
// Results' intervals when the web server's cache write met the worker process's write lock.
import { describe, expect, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import { keepInCache } from "../lib/db/score-cache";

const locked = () => Object.assign(new Error("SqliteError: database is locked"), { code: "SQLITE_BUSY" });
function fake(upsert: () => Promise<unknown>) {
  const calls = { upsert: 0, deleteMany: 0 };
  const prisma = {
    scoreCache: {
      upsert: () => (calls.upsert++, upsert()),
      deleteMany: () => (calls.deleteMany++, Promise.resolve({ count: 0 })),
    },
  } as unknown as PrismaClient;
  return { prisma, calls };
}
const row = { key: "k", runId: "r", kind: "bootstrap", json: "{}" };

describe("keepInCache", () => {
  it("tries again through a held lock, then keeps the row and clears stale ones", async () => {
    let n = 0;
    const { prisma, calls } = fake(() => (++n < 3 ? Promise.reject(locked()) : Promise.resolve({})));
    await keepInCache(prisma, row, new Date());
    expect(calls).toEqual({ upsert: 3, deleteMany: 1 });
  });

  it("skips the write, without failing, when the database stays busy", async () => {
    const { prisma, calls } = fake(() => Promise.reject(locked()));
    const t = Date.now();
    await expect(keepInCache(prisma, row, new Date())).resolves.toBeUndefined();
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(calls.upsert).toBeGreaterThan(1);
    expect(calls.deleteMany).toBe(0);
  });

  it("throws anything that is not contention", async () => {
    const { prisma } = fake(() => Promise.reject(new Error("no such table: ScoreCache")));
    await expect(keepInCache(prisma, row)).rejects.toThrow(/no such table/);
  });
});
