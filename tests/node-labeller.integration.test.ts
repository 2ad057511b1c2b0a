// Labelling without a browser: two onnxruntime-node labellers split a run through the same lease queue as the Label
// page (every image labelled once, by one of them); a labeller killed with SIGKILL loses no image; `fof label <run>`
// labels a run in one command, its faces recording the classifier's sha256. Runs on SQLite and PostgreSQL.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import { sqliteOnly } from "./helpers/databases";
import { startFof } from "./helpers/service-process";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
const dataDir = testDataDir("fof-node-label-");
process.env.FOF_DATA_DIR = dataDir;

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { createNodeLabeller, decodeImage, labelPixels, modelFile } = await import("../lib/faces/node-labeller");
const { labelQueue } = await import("../lib/features/labelling/queue");
const { suiteOf } = await import("../lib/suites");
const { labelProvenance } = await import("../lib/faces/run-provenance");
const prisma = () => db();
const DETECTOR = path.join(SHARED, "ultraface-version-RFB-320.onnx");
const STANDIN = path.join(SHARED, "fairface-standin-single18.onnx");
// Placed by `npm install` (scripts/setup-models.ts) from the detector's npm package: aligned chips are the default.
const LANDMARKER = path.resolve(__dirname, "../public/models/face-landmarks-68.onnx");

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await prisma().$disconnect();
});

const DOFAIR_CONFIG = { dimensions: ["race", "gender"], methods: ["baseline", "bianchi"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 4 };

/** A DoFaiR run on the synthetic image model, generated (not labelled). */
async function generatedRun(seed: number) {
  const run = await engine.createRun(prisma(), { suite: "dofair", models: ["baseline:synthetic-faces"], config: DOFAIR_CONFIG, preset: "custom", seed });
  await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
  expect(await prisma().image.count({ where: { runId: run.id, labelStatus: "unlabelled" } })).toBe(16);
  return run;
}

describe.skipIf(!hasShared)("server-side labelling", () => {
  it("two labellers split a run: every image labelled exactly once, with the classifier's sha256", async () => {
    const run = await generatedRun(11);
    const make = async () => createNodeLabeller({ detector: modelFile(DETECTOR), classifier: modelFile(STANDIN), threads: 1 });
    const [a, b] = [await make(), await make()];
    const deps = { leaseImages: engine.leaseImages, saveLabels: engine.saveLabels, releaseLeases: engine.releaseLeases };
    const [pa, pb] = await Promise.all([
      labelQueue(prisma(), deps, a, { dataDir, runId: run.id, batch: 2 }),
      labelQueue(prisma(), deps, b, { dataDir, runId: run.id, batch: 2 }),
    ]);
    expect(pa.images + pb.images).toBe(16);
    expect(pa.images).toBeGreaterThan(0);
    expect(pb.images).toBeGreaterThan(0);
    expect(await prisma().image.count({ where: { runId: run.id, labelStatus: { in: ["unlabelled", "leased"] } } })).toBe(0);
    const faces = await prisma().face.findMany({
      where: { image: { runId: run.id } },
      select: { imageId: true, classifierModel: true, classifierVersion: true },
    });
    expect(faces).toHaveLength(pa.faces + pb.faces);
    expect(new Set(faces.map((f) => f.classifierVersion))).toEqual(new Set([a.classifierFile.sha256]));
    expect(faces.every((f) => f.classifierModel === "fairface-standin-single18")).toBe(true);
    // Nothing is labelled twice: a second pass finds nothing to lease.
    expect((await labelQueue(prisma(), deps, a, { dataDir, runId: run.id })).images).toBe(0);
  });

  it("aligned chips by default record their landmarker; a run cut one way refuses labels cut the other (409)", async () => {
    const run = await generatedRun(14);
    const deps = { leaseImages: engine.leaseImages, saveLabels: engine.saveLabels, releaseLeases: engine.releaseLeases };
    const aligned = await createNodeLabeller({ detector: modelFile(DETECTOR), classifier: modelFile(STANDIN), landmarker: modelFile(LANDMARKER), threads: 1 });
    expect(aligned.chip).toBe("dlib-5pt-800");
    const square = await createNodeLabeller({ detector: modelFile(DETECTOR), classifier: modelFile(STANDIN), threads: 1 });
    expect(square.chip).toBe("square");
    // the landmarker slot refuses a model that is not the 68-point landmarker
    await expect(createNodeLabeller({ detector: modelFile(DETECTOR), classifier: modelFile(STANDIN), landmarker: modelFile(STANDIN) })).rejects.toThrow(
      /not the 68-point landmarker/,
    );
    const first = await labelQueue(prisma(), deps, aligned, { dataDir, runId: run.id, batch: 2 });
    expect(first.faces).toBeGreaterThan(0);
    // two more images back to unlabelled, then a square-crop labeller is refused
    const two = await prisma().image.findMany({ where: { runId: run.id }, take: 2, select: { id: true } });
    await prisma().face.deleteMany({ where: { imageId: { in: two.map((t) => t.id) } } });
    await prisma().image.updateMany({ where: { id: { in: two.map((t) => t.id) } }, data: { labelStatus: "unlabelled" } });
    await expect(labelQueue(prisma(), deps, square, { dataDir, runId: run.id, batch: 2 })).rejects.toThrow(/labelled on aligned chips.*square crops/);
    expect(await prisma().image.count({ where: { runId: run.id, labelStatus: "leased" } })).toBe(0); // given back
    const faces = await prisma().face.findMany({ where: { image: { runId: run.id } }, select: { chipMethod: true, landmarkerVersion: true } });
    expect(new Set(faces.map((f) => f.chipMethod))).toEqual(new Set(["dlib-5pt-800"]));
    expect(new Set(faces.map((f) => f.landmarkerVersion))).toEqual(new Set([aligned.landmarkerFile!.sha256]));
    const p = await labelProvenance(prisma(), [run.id]);
    expect(p.chips).toEqual([{ method: "dlib-5pt-800", faces: faces.length }]);
    expect(p.mixed).toBe(false);
  });

  it("a labeller killed with SIGKILL loses no image: its leases expire and another labels them, each image once", async () => {
    const run = await generatedRun(13);
    const env = { ...process.env, FOF_DATA_DIR: dataDir, FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "1", FOF_LABEL_LEASE_MS: "2000" };
    // One process (no npm or tsx wrapper), so the kill reaches the labeller itself.
    const labeller = startFof(["label", run.id, "--detector", DETECTOR, "--batch", "2"], env);
    const labelled = () => prisma().image.count({ where: { runId: run.id, labelStatus: { in: ["labelled", "no_face"] } } });
    await labeller.until("two images labelled", async () => (await labelled()) >= 2, 90_000, 50);
    await labeller.stop(30_000, "SIGKILL");
    const before = await labelled();
    expect(before).toBeGreaterThanOrEqual(2);
    expect(before).toBeLessThan(16);
    // Another labeller finishes the run, waiting for the dead one's leases to expire.
    // `fof label` cut aligned chips (the default): so must the labeller that finishes the run.
    const l = await createNodeLabeller({ detector: modelFile(DETECTOR), classifier: modelFile(STANDIN), landmarker: modelFile(LANDMARKER), threads: 1 });
    const deps = { leaseImages: engine.leaseImages, saveLabels: engine.saveLabels, releaseLeases: engine.releaseLeases };
    const done = await labelQueue(prisma(), deps, l, { dataDir, runId: run.id, batch: 4, leaseMs: 2000, waitForOthers: true });
    expect(before + done.images).toBe(16);
    expect(await labelled()).toBe(16);
    // Each image labelled once: its stored faces are exactly what one pass of the pipeline finds in it.
    const images = await prisma().image.findMany({
      where: { runId: run.id },
      select: { id: true, path: true, mimeType: true, _count: { select: { faces: true } } },
    });
    for (const im of images)
      expect(im._count.faces, im.id).toBe((await labelPixels(l, decodeImage(readFileSync(path.join(dataDir, im.path)), im.mimeType))).length);
  }, 180_000);

  // The command brings its own embedded database (SQLite) whatever the test process uses.
  it.skipIf(sqliteOnly)(
    "`fof run --suite faintbench … --label` generates, labels and scores with no browser; every face line names the classifier's sha256",
    async () => {
      const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-label-"), FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "2" };
      delete (env as Record<string, string | undefined>).DATABASE_URL; // the command's own embedded database
      const fof = (args: string[]) => promisify(execFile)("npm", ["run", "--silent", "fof", "--", ...args], { env, maxBuffer: 64 * 1024 * 1024 });
      // The smoke preset on two of its three acquired attributes (every score still has prompts and η pairs).
      const { stdout } = await fof([
        "run",
        "--suite",
        "faintbench",
        "--model",
        "baseline:synthetic-faces",
        "--preset",
        "smoke",
        "--config",
        '{"acquired":["occupation","characteristic"]}',
        "--label",
      ]);
      const body = JSON.parse(stdout) as {
        run: string;
        views: Array<{ id: string; kind: string; groups?: Array<{ rows: Array<{ source: string; cells: Record<string, { value: number | null }> }> }> }>;
      };
      const ours = body.views.find((v) => v.id === "table2")!.groups![0].rows.find((r) => r.source === "run")!;
      for (const m of ["implicit", "explicit", "eta"]) expect(ours.cells[m].value, m).not.toBeNull();
      const lines = (await fof(["export", body.run])).stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { face: { classifier: { name: string; sha256: string }; chip: { method: string } } | null });
      const faces = lines.filter((l) => l.face);
      expect(faces.length).toBeGreaterThan(0);
      expect(new Set(faces.map((l) => l.face!.classifier.sha256))).toEqual(new Set([modelFile(STANDIN).sha256]));
      expect(new Set(faces.map((l) => l.face!.chip.method))).toEqual(new Set(["dlib-5pt-800"]));
    },
    300_000,
  );

  it.skipIf(sqliteOnly)(
    "`fof run … --until … --label` labels an adaptive image run between its looks and says where it stopped; without --label it refuses",
    async () => {
      const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-until-label-"), FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "1" };
      delete (env as Record<string, string | undefined>).DATABASE_URL;
      const fof = (args: string[]) => promisify(execFile)("npm", ["run", "--silent", "fof", "--", ...args], { env, maxBuffer: 64 * 1024 * 1024 });
      const args = [
        "run",
        "--suite",
        "faintbench",
        "--model",
        "baseline:synthetic-faces",
        "--preset",
        "smoke",
        "--config",
        '{"acquired":["occupation"],"imagesPerPrompt":2}',
      ];
      await expect(fof([...args, "--until", "halfwidth<=0.5"])).rejects.toMatchObject({
        stderr: expect.stringContaining("an adaptive text-to-image run is scored as its images are labelled: add --label"),
      });
      // ±0.5 is every score's whole range: met at the first look, one image of each of the 22 prompts.
      const { stdout, stderr } = await fof([...args, "--until", "halfwidth<=0.5", "--label"]);
      expect(stderr).toMatch(/target met at 22 of 44 items: halfwidth<=0\.5/);
      const body = JSON.parse(stdout) as { run: string };
      expect(body.run).toBeTruthy();
    },
    300_000,
  );

  // SQLite only: the lock another process holds is the SQLite file's.
  it.skipIf(sqliteOnly)("`fof run … --label` rides out another process holding the database's write lock, and labels every image", async () => {
    // The default one-machine set-up: the server's worker writes the same SQLite file while the command generates and
    // labels. Here another connection takes the write lock for longer than the command's busy timeout, again and again.
    const dir = testDataDir("fof-run-label-locked-");
    const env = { ...process.env, FOF_DATA_DIR: dir, FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "1", FOF_DB_BUSY_TIMEOUT_MS: "150" };
    const Database = (await import("better-sqlite3")).default;
    const { existsSync: exists } = await import("node:fs");
    const cli = promisify(execFile)(
      "npm",
      [
        "run",
        "--silent",
        "fof",
        "--",
        "run",
        "--suite",
        "dofair",
        "--model",
        "baseline:synthetic-faces",
        "--preset",
        "smoke",
        "--config",
        '{"entriesPerDimension":4,"dimensions":["race"],"methods":["baseline"]}',
        "--label",
      ],
      { env, maxBuffer: 64 * 1024 * 1024 },
    );
    let locking = true;
    const locker = (async () => {
      while (!exists(path.join(dir, "fof.db"))) await new Promise((r) => setTimeout(r, 50));
      const holder = new Database(path.join(dir, "fof.db"), { timeout: 5_000 });
      try {
        while (locking) {
          try {
            holder.exec("BEGIN IMMEDIATE");
            await new Promise((r) => setTimeout(r, 600));
            holder.exec("COMMIT");
          } catch {
            // the command held it: try again
          }
          await new Promise((r) => setTimeout(r, 150));
        }
      } finally {
        if (holder.inTransaction) holder.exec("ROLLBACK");
        holder.close();
      }
    })();
    const result = await cli.finally(() => (locking = false));
    await locker;
    const body = JSON.parse(result.stdout) as { run: string };
    const check = new Database(path.join(dir, "fof.db"), { readonly: true });
    const counts = check.prepare(`SELECT "labelStatus" AS s, COUNT(*) AS n FROM "Image" WHERE "runId" = ? GROUP BY "labelStatus"`).all(body.run) as Array<{
      s: string;
      n: number;
    }>;
    check.close();
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter((c) => c.s === "unlabelled" || c.s === "leased")).toEqual([]);
  });

  it("`fof label <run>` labels a run and exits, reporting what it did; the run is then scored", async () => {
    const run = await generatedRun(12);
    const env = { ...process.env, FOF_DATA_DIR: dataDir, FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "1" };
    const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "fof", "--", "label", run.id, "--detector", DETECTOR, "--batch", "4"], {
      env,
      maxBuffer: 1024 * 1024,
    });
    const out = JSON.parse(stdout) as { labelled: number; faces: number; classifier: { name: string; sha256: string }; runtime: string };
    expect(out.labelled).toBe(16);
    expect(out.classifier).toEqual({ name: "fairface-standin-single18", sha256: modelFile(STANDIN).sha256, status: "stand-in" });
    expect(out.runtime).toBe("node-cpu (1 thread)");
    expect(await prisma().face.count({ where: { image: { runId: run.id } } })).toBe(out.faces);
    expect(await prisma().image.count({ where: { runId: run.id, labelStatus: { in: ["unlabelled", "leased"] } } })).toBe(0);
    const views = await suiteOf("dofair").results!({ prisma: prisma() }, { runId: run.id, labels: "model", verifiedOnly: false, resamples: 0 });
    const table = views.find((v) => v.kind === "table" && v.id === "table2");
    if (table?.kind !== "table") throw new Error("no Table 2");
    expect(
      table.groups.flatMap((g) => g.rows).filter((r) => r.source === "run" && Object.values(r.cells).some((c) => c.value !== null)).length,
    ).toBeGreaterThan(0);
    // Refused plainly: a run that is not text-to-image, an unknown run.
    await expect(promisify(execFile)("npm", ["run", "--silent", "fof", "--", "label", "no-such-run", "--detector", DETECTOR], { env })).rejects.toThrow(
      /no run no-such-run/,
    );
  }, 180_000);

  it('`fof worker --label-only` labels a run launched with "label automatically" as its images arrive, and only such runs; every face says what produced it', async () => {
    const manual = await generatedRun(14);
    const env = { ...process.env, FOF_DATA_DIR: dataDir, FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "1", FOF_LOG_LEVEL: "info" };
    const worker = startFof(["worker", "--label-only"], env);
    try {
      // The worker says it is alive and what it labels with before any run asks for it.
      await worker.until("the label worker's heartbeat", async () => (await engine.liveLabelWorkers(prisma())) > 0, 90_000);
      const row = await prisma().workerStatus.findFirstOrThrow({ where: { labeller: { not: null }, stoppedAt: null } });
      expect(row.labeller).toMatch(/^fairface-standin-single18 \(sha256 8156c9d98941…\) on node-cpu \(1 thread\)$/);
      const auto = await engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: DOFAIR_CONFIG,
        preset: "custom",
        seed: 15,
        autoLabel: true,
      });
      expect((await prisma().run.findUniqueOrThrow({ where: { id: auto.id } })).autoLabel).toBe(true);
      await new engine.Worker(prisma(), { runId: auto.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
      const pending = () => prisma().image.count({ where: { runId: auto.id, labelStatus: { in: ["unlabelled", "leased"] } } });
      await worker.until("every image of the auto-labelled run labelled", async () => (await pending()) === 0, 120_000);
      // A run without "label automatically" is left to the Label page.
      expect(await prisma().image.count({ where: { runId: manual.id, labelStatus: "unlabelled" } })).toBe(16);
      const faces = await prisma().face.findMany({
        where: { image: { runId: auto.id } },
        select: { classifierVersion: true, detectorVersion: true, detectorModel: true, labelRuntime: true },
      });
      expect(faces.length).toBeGreaterThan(0);
      // the detector where the server finds it (public/models: the npm copy of UltraFace, numerically the same file)
      const ultraface = expect.stringMatching(
        /^(6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854|34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017)$/,
      );
      for (const f of faces)
        expect(f).toEqual({
          classifierVersion: modelFile(STANDIN).sha256,
          detectorVersion: ultraface,
          detectorModel: expect.stringMatching(/^ultraface/),
          labelRuntime: "node-cpu",
        });
    } finally {
      // SIGTERM: it finishes the batch in hand and marks its row stopped (bounded: a worker that never stops fails here).
      await worker.stop();
    }
    // Stopped cleanly: its row says so, and no label worker is counted any more.
    expect(await engine.liveLabelWorkers(prisma())).toBe(0);
  }, 300_000);

  it("a stand-in's scores are marked wherever they appear; faces from two classifiers are not scored", async () => {
    const run = await generatedRun(16);
    const deps = { leaseImages: engine.leaseImages, saveLabels: engine.saveLabels, releaseLeases: engine.releaseLeases };
    const l = await createNodeLabeller({ detector: modelFile(DETECTOR), classifier: modelFile(STANDIN), threads: 1 });
    await labelQueue(prisma(), deps, l, { dataDir, runId: run.id, batch: 8 });
    const p = await labelProvenance(prisma(), [run.id]);
    expect(p).toMatchObject({
      mixed: false,
      comparable: false,
      classifiers: [{ name: "fairface-standin-single18", sha256: modelFile(STANDIN).sha256, status: "stand-in" }],
      runtimes: [{ runtime: "node-cpu" }],
    });
    const { genericSuiteOfRun, suiteResultsJson } = await import("../lib/suites/export");
    const body = await suiteResultsJson(prisma(), run.id, (await genericSuiteOfRun(prisma(), run.id))!, { labels: "model", resamples: 0 });
    expect(body.caution).toMatch(/stand-in classifier, not FairFace: not comparable with the papers/);
    const rows = body.views.flatMap((v) => (v.kind === "table" ? v.groups.flatMap((g) => g.rows) : []));
    expect(rows.filter((r) => r.source === "run").every((r) => r.flag?.includes("stand-in"))).toBe(true);
    expect(rows.filter((r) => r.source === "published").some((r) => r.flag?.includes("stand-in"))).toBe(false);
    const lines = [];
    for await (const page of suiteOf("dofair").exportLines!({ prisma: prisma() }, { runId: run.id, labels: "model" })) lines.push(...page);
    const face = (lines as Array<{ face?: { classifier: unknown; detector: unknown; runtime: unknown } | null }>).find((x) => x.face)!.face!;
    expect(face).toMatchObject({ classifier: { sha256: modelFile(STANDIN).sha256 }, detector: { sha256: modelFile(DETECTOR).sha256 }, runtime: "node-cpu" });

    // Legacy data with two classifiers on one run (the write path refuses it now): scoring refuses it with both named.
    const one = await prisma().face.findFirstOrThrow({ where: { image: { runId: run.id } } });
    await prisma().face.update({ where: { id: one.id }, data: { classifierVersion: "e".repeat(64), classifierModel: "fairface" } });
    await expect(suiteResultsJson(prisma(), run.id, (await genericSuiteOfRun(prisma(), run.id))!, { labels: "model", resamples: 0 })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/2 different classifiers/),
    });
    expect((await engine.runSummary(prisma(), run.id))!.scoresRefused).toMatch(/not scored/);
  }, 180_000);
});
