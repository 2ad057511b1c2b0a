// Another process holding SQLite's write lock must not stall this one: reads go on (WAL), a write waits
// asynchronously (the event loop keeps serving), and a request whose write outlasts the patience answers 503 with
// Retry-After instead of a 500. PostgreSQL has no single write lock: SQLite only.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-busy-");
process.env.FOF_DB_BUSY_TIMEOUT_MS = "1500";
process.env.PORT = "3556";
const sqlite = !process.env.DATABASE_URL;

const { db, migrateAndSeed } = await import("../lib/db");
const Database = (await import("better-sqlite3")).default;
const { sessionCookie } = await import("./helpers/session");
const { publicUrl } = await import("../lib/core/public-url");

type Holder = InstanceType<typeof Database>;
let holder: Holder;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  // Images to lease (a lease is a write).
  const { importImages, upsertModel } = await import("./helpers/services");
  const { PNG } = await import("pngjs");
  const png = (v: number) => {
    const img = new PNG({ width: 32, height: 32 });
    img.data.fill(v);
    return PNG.sync.write(img);
  };
  await upsertModel(db(), { slug: "busy-import", label: "Busy", modality: "t2i", provider: "import" });
  await importImages(db(), process.env.FOF_DATA_DIR!, {
    modelSlug: "busy-import",
    files: [0, 1, 2].map((i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: png(40 + i * 30) })),
  });
  if (sqlite) holder = new Database(path.join(process.env.FOF_DATA_DIR!, "fof.db"));
});
afterAll(async () => {
  if (holder?.inTransaction) holder.exec("ROLLBACK");
  holder?.close();
  await db().$disconnect();
});

/** Counts 10 ms timer ticks while `fn` runs: a blocked event loop misses them. */
async function ticksDuring<T>(fn: () => Promise<T>): Promise<{ value: T | Error; ticks: number; ms: number }> {
  let ticks = 0;
  const t = setInterval(() => ticks++, 10);
  const t0 = Date.now();
  const value = await fn().catch((e: Error) => e);
  clearInterval(t);
  return { value, ticks, ms: Date.now() - t0 };
}

describe.skipIf(!sqlite)("a held SQLite write lock", () => {
  it("lets reads through at once and a write wait without blocking the event loop", async () => {
    holder.exec("BEGIN IMMEDIATE");
    // The read does not wait for the writer (WAL): it answers while the lock is still held, with no error.
    const read = await ticksDuring(() => db().run.count());
    expect(read.value).not.toBeInstanceOf(Error);
    expect(holder.inTransaction).toBe(true);
    setTimeout(() => holder.exec("COMMIT"), 600);
    const write = await ticksDuring(() => db().auditLog.create({ data: { action: "test.busy" } }));
    expect(write.value).not.toBeInstanceOf(Error);
    expect(write.ms).toBeGreaterThanOrEqual(550);
    // The loop kept turning through the 600 ms wait (a synchronous wait allows no tick at all; a busy machine fewer
    // than the 60 a quiet one gets, so the bar is "some", not "most").
    expect(write.ticks).toBeGreaterThanOrEqual(3);
  });

  it("lets a transaction that reads, then writes, wait for another process's lock instead of failing at once", async () => {
    // The shape of a label save, a lease, a claim. A deferred transaction reads first and meets the lock only at its
    // first write, where waiting cannot help it (its snapshot may be stale): it failed within ~25 ms, and a label
    // saved in the browser while the worker process wrote answered 503 and was rolled back.
    holder.exec("BEGIN IMMEDIATE");
    setTimeout(() => holder.exec("COMMIT"), 400);
    const tx = await ticksDuring(() =>
      db().$transaction(async (t) => {
        await t.run.count();
        await t.auditLog.create({ data: { action: "test.busy.transaction" } });
      }),
    );
    expect(tx.value).not.toBeInstanceOf(Error);
    expect(tx.ms).toBeGreaterThanOrEqual(350);
    expect(tx.ticks).toBeGreaterThanOrEqual(3);
  });

  it("answers a request whose transaction meets a lock held briefly, instead of 503", async () => {
    const cookie = await sessionCookie("annotator");
    const route = await import("../app/api/label/lease/route");
    holder.exec("BEGIN IMMEDIATE");
    setTimeout(() => holder.exec("COMMIT"), 400);
    const res = await route.POST(
      new Request(`${publicUrl()}/api/label/lease`, {
        method: "POST",
        headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", cookie },
        body: JSON.stringify({ max: 1 }),
      }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).images).toHaveLength(1);
  });

  it("answers 503 with Retry-After, not 500, when a request's write outlasts the patience", async () => {
    const cookie = await sessionCookie("annotator");
    const route = await import("../app/api/label/lease/route");
    holder.exec("BEGIN IMMEDIATE");
    try {
      const res = await route.POST(
        new Request(`${publicUrl()}/api/label/lease`, {
          method: "POST",
          headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", cookie },
          body: JSON.stringify({ max: 4 }),
        }),
      );
      expect({ status: res.status, body: res.status === 503 ? null : await res.clone().text() }).toEqual({ status: 503, body: null });
      expect(res.headers.get("retry-after")).toBe("1");
      expect((await res.json()).error).toMatch(/busy/);
    } finally {
      holder.exec("ROLLBACK");
    }
  });
});
