// Imports stream to disk, are committed once, and leave nothing behind: uploads are capped before and while they
// are written, a second commit is refused, and the sweep removes abandoned uploads and unreferenced store files.
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import { sqliteOnly } from "./helpers/databases";

const dataDir = testDataDir("fof-uploads-");
process.env.FOF_DATA_DIR = dataDir;

const { db, migrateAndSeed } = await import("../lib/db");
const { importImages, upsertModel, sweepStorage } = await import("./helpers/services");
const { createUpload, receiveFile, takeUpload } = await import("../lib/images");
const { DomainError } = await import("../lib/core/errors");
const filesRoute = await import("../app/api/imports/[id]/files/route");
const openRoute = await import("../app/api/imports/route");
const { sessionCookie } = await import("./helpers/session");
let cookie = "";

const png = (shade: number) => {
  const p = new PNG({ width: 32, height: 32 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
const streamOf = (bytes: Uint8Array, chunk = 1024) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.subarray(i, i + chunk));
      c.close();
    },
  });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await upsertModel(db(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
  cookie = await sessionCookie("runner");
});
afterAll(async () => {
  await db().$disconnect();
});

describe("opening an import", () => {
  const open = (body: unknown, site = "same-origin") =>
    openRoute.POST(
      new Request("http://127.0.0.1/api/imports", {
        method: "POST",
        headers: { cookie, "content-type": "application/json", "sec-fetch-site": site },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
  it("takes a suite that imports images, and refuses an unknown suite, one without images to import, stray fields and cross-site calls", async () => {
    for (const body of [{ model: "mj", suite: "faintbench" }, { model: "mj" } /* FACT-OR-FAIR by default */]) {
      const res = await open(body);
      expect(res.status).toBe(201);
      const { meta, cleanup } = takeUpload(dataDir, (await res.json()).uploadId);
      expect(meta.suite ?? "fact-or-fair").toBe(body.suite ?? "fact-or-fair");
      cleanup();
    }
    const unknown = await open({ model: "mj", suite: "nope" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/unknown suite "nope"/);
    const noImporter = await open({ model: "mj", suite: "dofair" });
    expect(noImporter.status).toBe(400);
    expect((await noImporter.json()).error).toMatch(/DoFaiR runs cannot be imported/);
    expect((await open({ model: "mj", suite: "faintbench", extra: 1 })).status).toBe(400);
    expect((await open({ model: "mj", suite: "x".repeat(65) })).status).toBe(400);
    expect((await open({ model: "mj", suite: "faintbench" }, "cross-site")).status).toBe(403);
  });
});

describe("streamed uploads", () => {
  it("writes each file to a temp folder, imports the batch once, and removes the folder", async () => {
    const id = createUpload(dataDir, { model: "mj", runId: null, runName: "streamed" });
    for (let i = 0; i < 3; i++) await receiveFile(dataDir, id, `objective/crime-rate/highest/${i}.png`, streamOf(png(i * 40)), null);
    // The same name twice is refused; a traversal name is refused.
    await expect(receiveFile(dataDir, id, "objective/crime-rate/highest/0.png", streamOf(png(1)), null)).rejects.toMatchObject({ status: 409 });
    await expect(receiveFile(dataDir, id, "../../etc/passwd", streamOf(png(1)), null)).rejects.toMatchObject({ status: 400 });
    const { meta, files, cleanup } = takeUpload(dataDir, id);
    expect(files).toHaveLength(3);
    // A second commit (double click, replay) finds nothing.
    expect(() => takeUpload(dataDir, id)).toThrow(DomainError);
    const r = await importImages(db(), dataDir, { modelSlug: meta.model, runName: meta.runName, files });
    cleanup();
    expect(r.imported).toBe(3);
    expect(readdirSync(path.join(dataDir, "tmp", "uploads"))).toEqual([]);
  });

  // The commit's database writes on PostgreSQL: the test above (one batch, once).
  it.skipIf(sqliteOnly)("commits through the route on a worker thread: the event loop keeps turning, memory stays flat, the batch lands once", async () => {
    const commitRoute = await import("../app/api/imports/[id]/commit/route");
    const { zipSync } = await import("fflate");
    const commit = (id: string) =>
      commitRoute.POST(
        new Request(`http://127.0.0.1/api/imports/${id}/commit`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" },
          body: "{}",
        }),
        { params: Promise.resolve({ id }) },
      );
    // 40 entries of 20 MiB of zeros (a ~0.8 MB zip, 800 MiB inflated) beside three real images: refused whole.
    const zeros = new Uint8Array(20 * 1024 * 1024);
    const entries: Record<string, Uint8Array> = {};
    for (let i = 0; i < 40; i++) entries[`objective/crime-rate/highest/big-${i}.png`] = zeros;
    for (let i = 0; i < 3; i++) entries[`objective/crime-rate/lowest/${i}.png`] = png(60 + i * 50);
    const zip = zipSync(entries, { level: 9 });
    expect(zip.length).toBeLessThan(2 * 1024 * 1024);
    const id = createUpload(dataDir, { model: "mj", runId: null, runName: "bomb-ish" });
    await receiveFile(dataDir, id, "batch.zip", streamOf(zip, 64 * 1024), null);
    global.gc?.();
    const rss = process.memoryUsage().rss;
    const elu = performance.eventLoopUtilization();
    const res = await commit(id);
    const busy = performance.eventLoopUtilization(elu).utilization;
    expect(res.status).toBe(422);
    expect((await res.json()).problems.length).toBeGreaterThanOrEqual(40);
    // The inflating and checking ran off this thread: this thread's event loop sat mostly idle while 800 MiB were
    // inflated (on it, utilisation would be ~1 — a share of its own time, so other processes' load does not move it,
    // unlike a wall-clock gap), and it held no archive in memory.
    expect(busy).toBeLessThan(0.5);
    expect(process.memoryUsage().rss - rss).toBeLessThan(300 * 1024 * 1024);
    expect(await db().image.count({ where: { originalName: { startsWith: "objective/crime-rate/lowest/" } } })).toBe(0);
    expect(existsSync(path.join(dataDir, "tmp", "uploads", id))).toBe(false);
    expect(readdirSync(path.join(dataDir, "tmp", "uploads"))).toEqual([]);

    // The three real images alone: stored (moved from the upload into the store), the upload gone.
    const ok = createUpload(dataDir, { model: "mj", runId: null, runName: "zip-ok" });
    await receiveFile(dataDir, ok, "ok.zip", streamOf(zipSync(Object.fromEntries(Object.entries(entries).filter(([k]) => k.includes("lowest"))))), null);
    // (As the route does, minus its page revalidation, which needs a Next request.)
    const taken = takeUpload(dataDir, ok);
    try {
      const r = await importImages(db(), dataDir, { modelSlug: taken.meta.model, runName: taken.meta.runName, files: taken.files, workDir: taken.workDir });
      expect(r.imported).toBe(3);
      // Spilled entries were moved into the store, not copied: nothing of them is left in the scratch folder.
      expect(readdirSync(taken.workDir)).toEqual([]);
    } finally {
      taken.cleanup();
    }
    expect(await db().image.count({ where: { runId: (await db().run.findFirstOrThrow({ where: { name: "zip-ok" } })).id } })).toBe(3);
    expect(readdirSync(path.join(dataDir, "tmp", "uploads"))).toEqual([]);
  });

  it("refuses a file whose declared length is too large before reading, and one that grows too large while streaming", async () => {
    const id = createUpload(dataDir, { model: "mj", runId: null, runName: null });
    await expect(receiveFile(dataDir, id, "a.zip", streamOf(png(1)), 5 * 1024 ** 3)).rejects.toMatchObject({ status: 413 });
    // Streamed without a length: stopped once past the import's total (simulated with a small total via many bytes
    // would take 1 GiB, so the route is driven with a lying Content-Length instead and the body is cut at the cap).
    const res = await filesRoute.PUT(
      new Request(`http://127.0.0.1/api/imports/${id}/files?name=x.png`, {
        method: "PUT",
        headers: { cookie, "content-length": String(2 * 1024 ** 3), "sec-fetch-site": "same-origin" },
        body: png(2),
      }),
      { params: Promise.resolve({ id }) },
    );
    expect(res.status).toBe(413);
    const cross = await filesRoute.PUT(
      new Request(`http://127.0.0.1/api/imports/${id}/files?name=y.png`, { method: "PUT", headers: { cookie, "sec-fetch-site": "cross-site" }, body: png(3) }),
      { params: Promise.resolve({ id }) },
    );
    expect(cross.status).toBe(403);
    const unknown = await filesRoute.PUT(
      new Request(`http://127.0.0.1/api/imports/up_nope/files?name=y.png`, { method: "PUT", headers: { cookie }, body: png(3) }),
      { params: Promise.resolve({ id: "up_nope" }) },
    );
    expect(unknown.status).toBe(404);
    const ok = await filesRoute.PUT(
      new Request(`http://127.0.0.1/api/imports/${id}/files?name=objective/hiv-rate/lowest/1.png`, { method: "PUT", headers: { cookie }, body: png(9) }),
      { params: Promise.resolve({ id }) },
    );
    expect(ok.status).toBe(200);
    // An annotator may not import; nobody signed in may not either.
    const annotator = await sessionCookie("annotator");
    const refused = await filesRoute.PUT(
      new Request(`http://127.0.0.1/api/imports/${id}/files?name=z.png`, { method: "PUT", headers: { cookie: annotator }, body: png(4) }),
      { params: Promise.resolve({ id }) },
    );
    expect(refused.status).toBe(403);
    const anonymous = await filesRoute.PUT(new Request(`http://127.0.0.1/api/imports/${id}/files?name=z.png`, { method: "PUT", body: png(4) }), {
      params: Promise.resolve({ id }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("sweeps abandoned uploads and store files no row refers to, never fresh ones", async () => {
    const old = Date.now() / 1000 - 2 * 24 * 3600;
    const abandoned = createUpload(dataDir, { model: "mj", runId: null, runName: null });
    utimesSync(path.join(dataDir, "tmp", "uploads", abandoned), old, old);
    const orphanDir = path.join(dataDir, "images", "ab");
    mkdirSync(orphanDir, { recursive: true });
    const orphan = path.join(orphanDir, `${"ab".padEnd(64, "0")}.png`);
    const fresh = path.join(orphanDir, `${"ab".padEnd(64, "1")}.png`);
    const part = path.join(orphanDir, `${"ab".padEnd(64, "2")}.png.x.part`);
    for (const f of [orphan, fresh, part]) writeFileSync(f, "x");
    utimesSync(orphan, old, old);
    utimesSync(part, old, old);
    const referenced = await db().image.findFirstOrThrow();
    const kept = path.join(dataDir, referenced.path);
    utimesSync(kept, old, old);
    const r = await sweepStorage(db(), dataDir);
    expect(r.uploads).toBeGreaterThanOrEqual(1);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(part)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(kept)).toBe(true);
  });
});
