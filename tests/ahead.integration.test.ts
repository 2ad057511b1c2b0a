// Computed ahead (lib/features/results/ahead.ts): when a run's data settles — its last outcome, its last label — the
// intervals and result views its pages ask for by default are in the cache before anyone opens them; a text-to-image
// run is not worked before its labels are in.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
const dataDir = testDataDir("fof-ahead-");
process.env.FOF_DATA_DIR = dataDir;

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { registerAhead } = await import("../lib/features/results/ahead");
const { settledIdle } = await import("../lib/core/settled");
const { intervalsQuery, runIntervals } = await import("../lib/features/results/intervals");
const { cachedSuiteResults } = await import("../lib/suites/results-cache");
const { resultParams } = await import("../lib/suites/params");
const { suiteOf } = await import("../lib/suites");
const prisma = () => db();

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  registerAhead();
});
afterAll(async () => {
  await prisma().$disconnect();
});

describe("computed ahead", () => {
  it("a FACT-OR-FAIR run's default intervals are cached when its last outcome lands", async () => {
    const config = engine.presetConfig("smoke", { objectiveRepeats: 2, subjectiveRepeats: 2 });
    const run = await engine.createRun(prisma(), { models: ["baseline:calibrated:0.8"], config, seed: 5 });
    expect(await prisma().scoreCache.count({ where: { runId: run.id } })).toBe(0);
    await new engine.Worker(prisma(), { runId: run.id, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
    await settledIdle();
    expect(await prisma().scoreCache.count({ where: { runId: run.id, kind: "bootstrap" } })).toBe(1);
    // What the pages fetch (no options: the API's defaults) is a cache read.
    expect((await runIntervals(prisma(), run.id, intervalsQuery.parse({})))!.cached).toBe(true);
  });

  it.skipIf(!hasShared)("a text-to-image run is worked when its last image is labelled, not when it is generated", async () => {
    const config = { dimensions: ["race", "gender"], methods: ["baseline", "bianchi"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 4 };
    const run = await engine.createRun(prisma(), { suite: "dofair", models: ["baseline:synthetic-faces"], config, preset: "custom", seed: 6 });
    await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    await settledIdle();
    expect(await prisma().scoreCache.count({ where: { runId: run.id } })).toBe(0);

    const { createNodeLabeller, modelFile } = await import("../lib/faces/node-labeller");
    const { labelQueue } = await import("../lib/features/labelling/queue");
    const labeller = await createNodeLabeller({
      detector: modelFile(path.join(SHARED, "ultraface-version-RFB-320.onnx")),
      classifier: modelFile(path.join(SHARED, "fairface-standin-single18.onnx")),
      threads: 1,
    });
    await labelQueue(prisma(), engine, labeller, { dataDir, runId: run.id, batch: 4 });
    await settledIdle();
    expect(await prisma().scoreCache.count({ where: { runId: run.id, kind: "suite-views" } })).toBe(1);
    // The run page's request with no options reads that entry: no new one is written.
    const p = resultParams({});
    const views = await cachedSuiteResults(prisma(), suiteOf("dofair"), {
      runId: run.id,
      labels: p.labels,
      verifiedOnly: false,
      resamples: 1000,
      profile: p.profile,
      target: p.target,
    });
    expect(views.length).toBeGreaterThan(0);
    expect(await prisma().scoreCache.count({ where: { runId: run.id } })).toBe(1);
  });
});
