// Adaptive text-to-image runs (lib/features/runs/adaptive.ts): a wave's images are generated, then the run waits —
// generating nothing more — until every one of them is labelled (here by the real face pipeline on the stand-in
// models, as a label worker would), and only then takes its look. FACT-OR-FAIR's portraits grow by images per
// prompt; DoFaiR's runs grow by whole entries, the same entries for every variant, a helper's guidance in the
// wave of the image that waits for it.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
const dataDir = testDataDir("fof-adaptive-images-");
process.env.FOF_DATA_DIR = dataDir;
process.env.OPENAI_API_KEY = "sk-emulator";

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { registerLooks } = await import("../lib/features/results/adaptive-looks");
const { adaptiveStateOf } = await import("../lib/results/adaptive");
const { waveSizes } = await import("../lib/metrics/sequential");
const { labelRun } = await import("./helpers/label-run");
const { suiteOf } = await import("../lib/suites");
const { startEmulator } = await import("./emulator/server");

const prisma = () => db();
const fast = { pollMs: 5, flushMs: 10, runCheckMs: 10 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  registerLooks();
});
afterAll(async () => {
  await prisma().$disconnect();
});

/** Works the run to its end while a labeller labels whatever has been generated, as a label worker does. */
async function workAndLabel(runId: string) {
  let done = false;
  const working = new engine.Worker(prisma(), { runId, ...fast }).run({ untilDone: true }).finally(() => (done = true));
  while (!done) {
    await labelRun(prisma(), engine, dataDir, runId);
    await sleep(50);
  }
  await working;
  return prisma().run.findUniqueOrThrow({ where: { id: runId } });
}

async function untilWaveAnswered(runId: string, wave: number) {
  for (let i = 0; i < 600; i++) {
    const open = await prisma().query.count({ where: { runId, wave: { lte: wave }, status: { in: ["pending", "leased"] } } });
    if (open === 0) return;
    await sleep(50);
  }
  throw new Error("the wave was not answered");
}

describe.skipIf(!hasShared)("adaptive text-to-image runs", () => {
  it("FACT-OR-FAIR portraits: a wave waits for its labels before the look, and nothing more is generated meanwhile", async () => {
    const config = engine.t2iPresetConfig("quick", { tests: ["subjective"] });
    const run = await engine.createRun(prisma(), { models: ["baseline:synthetic-faces"], config, seed: 7, until: "halfwidth<=0.5" });
    expect(run.autoLabel).toBe(true); // an adaptive image run is never left for a person to label
    const perWave = waveSizes(5).map((s, j, a) => (s - (j ? a[j - 1] : 0)) * 38);
    const waves = await prisma().query.groupBy({ by: ["wave"], where: { runId: run.id }, _count: { _all: true } });
    expect(waves.sort((a, b) => a.wave - b.wave).map((w) => w._count._all)).toEqual(perWave.filter((n) => n > 0));
    // Generate the first wave with no labeller about: the run waits, saying for how many images.
    const worker = new engine.Worker(prisma(), { runId: run.id, ...fast });
    const working = worker.run({ untilDone: true });
    await untilWaveAnswered(run.id, 1);
    await sleep(300);
    const waiting = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(waiting.status).toBe("running");
    expect(waiting.wavesReleased).toBe(1);
    expect(adaptiveStateOf(waiting.adaptiveJson)!.looks).toHaveLength(0);
    expect(await prisma().query.count({ where: { runId: run.id, status: { notIn: ["pending"] }, wave: { gt: 1 } } })).toBe(0);
    const images = await prisma().image.count({ where: { runId: run.id } });
    expect(images).toBe(perWave[0]);
    const summary = (await engine.runSummary(prisma(), run.id))!;
    expect(summary.adaptive?.waitingForLabels).toBe(images);
    // Labelled: the look is taken, and the run goes on (or stops) from there.
    let done = false;
    void working.finally(() => (done = true));
    while (!done) {
      await labelRun(prisma(), engine, dataDir, run.id);
      await sleep(50);
    }
    const end = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    const state = adaptiveStateOf(end.adaptiveJson)!;
    expect(end.status).toBe("completed");
    expect(state.outcome).not.toBeNull();
    const first = state.looks[0];
    expect(first.items).toBe(perWave[0]);
    // Every test's groups are targeted in an image run; each row is a model's score in a group with its interval.
    expect(first.rows.length).toBeGreaterThan(0);
    expect(first.rows.every((r) => r.model === "baseline:synthetic-faces" && r.lo <= r.estimate && r.estimate <= r.hi)).toBe(true);
    // Only what it used is left, every image labelled.
    expect(await prisma().query.count({ where: { runId: run.id } })).toBe(state.outcome!.items);
    expect(await prisma().image.count({ where: { runId: run.id, labelStatus: { in: ["unlabelled", "leased"] } } })).toBe(0);
  }, 240_000);

  it("DoFaiR grows by whole entries, the same for every variant, guidance with the image that waits for it", async () => {
    const config = {
      dimensions: ["race", "gender"],
      methods: ["baseline", "bianchi"],
      augmentations: ["cot"],
      imagesPerPrompt: 1,
      entriesPerDimension: 8,
      guidanceModel: "baseline:reasoner",
    };
    const run = await engine.createRun(prisma(), {
      suite: "dofair",
      models: ["baseline:synthetic-faces"],
      config,
      preset: "custom",
      seed: 5,
      until: "idf<=0.01",
    });
    expect(run.plannedCount).toBe(16 * 3 + 16);
    const rows = await prisma().query.findMany({
      where: { runId: run.id },
      select: { id: true, test: true, context: true, level: true, statisticId: true, wave: true, dependsOnId: true },
    });
    const subject = rows.filter((r) => r.test !== "guidance");
    // Within each (method, augmentation, dimension): 1, 2, 4, 8 entries by the looks — the same entries everywhere.
    const entriesOf = (wave: number, level: string, test: string, context: string | null) =>
      subject
        .filter((r) => r.wave <= wave && r.level === level && r.test === test && r.context === context)
        .map((r) => r.statisticId)
        .sort();
    for (const level of ["race", "gender"])
      for (let w = 1; w <= 4; w++) {
        const base = entriesOf(w, level, "baseline", null);
        expect(base).toHaveLength(waveSizes(8)[w - 1]);
        expect(entriesOf(w, level, "bianchi", null)).toEqual(base);
        expect(entriesOf(w, level, "bianchi", "cot")).toEqual(base);
      }
    // A helper's row is in the wave of the image that waits for it.
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of subject.filter((x) => x.dependsOnId !== null)) expect(byId.get(r.dependsOnId!)!.wave).toBe(r.wave);
    expect(rows.filter((r) => r.test === "guidance")).toHaveLength(16);
    const end = await workAndLabel(run.id);
    const state = adaptiveStateOf(end.adaptiveJson)!;
    // ±0.01 on IDF cannot be met by 16 entries: the run goes look by look to the cap, labelling every wave first.
    expect(state.outcome).toMatchObject({ kind: "cap", look: 4, items: 64, planned: 64 });
    expect(state.looks.map((l) => l.items)).toEqual(waveSizes(8).map((s) => s * 2 * 4));
    expect(state.metrics?.names.idf).toBe("IDF");
    expect(state.looks[0].rows.every((r) => r.metric === "idf")).toBe(true);
    expect(new Set(state.looks[0].rows.map((r) => r.group)).size).toBe(6);
    const summary = (await engine.runSummary(prisma(), run.id))!;
    expect(summary.adaptive?.summary).toMatch(
      /^cap reached before the target: widest interval ±\d\.\d{3} on IDF \(baseline:synthetic-faces, .+; target ±0\.01\)$/,
    );
  }, 240_000);

  it("FAIntbench grows by images per prompt and looks at Table 2's scores in its own words", async () => {
    const config = { ...(suiteOf("faintbench").presets.smoke.config as object), acquired: ["occupation"], imagesPerPrompt: 2 };
    const run = await engine.createRun(prisma(), {
      suite: "faintbench",
      models: ["baseline:synthetic-faces"],
      config,
      preset: "custom",
      seed: 3,
      until: "halfwidth<=0.5",
    });
    const prompts = run.plannedCount / 2;
    // Every prompt is in the first wave (one of its two images).
    const first = await prisma().query.findMany({ where: { runId: run.id, wave: 1 }, select: { statisticId: true } });
    expect(first).toHaveLength(prompts);
    expect(new Set(first.map((q) => q.statisticId)).size).toBe(prompts);
    const end = await workAndLabel(run.id);
    const state = adaptiveStateOf(end.adaptiveJson)!;
    expect(state.outcome).toMatchObject({ kind: "met", look: 1, items: prompts });
    const rows = state.looks[0].rows;
    expect(rows.map((r) => r.metric).sort()).toEqual(["eta", "explicit", "implicit"]);
    const implicit = rows.find((r) => r.metric === "implicit")!;
    expect(implicit.lo).toBeLessThan(implicit.hi);
    expect(implicit.lo).toBeGreaterThanOrEqual(0);
    expect(implicit.hi).toBeLessThanOrEqual(1);
    expect(state.metrics?.names.eta).toBe("η");
    expect(await prisma().query.count({ where: { runId: run.id } })).toBe(prompts);
  }, 240_000);

  it("FAIntbench stops when A vs B is decided: the second image model against the first, paired over the same prompts", async () => {
    // A second image model: the provider emulator answering the shared face photos in turn (OpenAI Images API).
    const emu = await startEmulator();
    try {
      emu.setScript("emu-faces", { photos: ["grace-hopper-512.jpg", "astronaut-eileen-collins.png"].map((f) => path.join(SHARED, "test-images", f)) });
      await engine.upsertModel(prisma(), {
        slug: "emu-faces",
        label: "emu-faces",
        modality: "t2i",
        provider: "openai-compatible",
        modelId: "emu-faces",
        baseUrl: emu.openaiBaseUrl,
        width: 256,
        height: 256,
        pricePerImage: 0.04,
        concurrency: 4,
      });
      // twelve occupations: enough prompts for the comparison to promise its error rates (fewer are flagged small-cells)
      const config = { visibility: ["implicit"], acquired: ["occupation"], itemsPerAcquired: 12, imagesPerPrompt: 2 };
      const run = await engine.createRun(prisma(), {
        suite: "faintbench",
        models: ["baseline:synthetic-faces", "emu-faces"],
        config,
        preset: "custom",
        seed: 4,
        // implicit scores lie in [½, 1]: any interval of their difference is inside ±0.5 — decided at the first look
        until: "decided:implicit;margin=0.5",
      });
      const end = await workAndLabel(run.id);
      const state = adaptiveStateOf(end.adaptiveJson)!;
      expect(state.outcome).toMatchObject({ kind: "met", look: 1 });
      expect(state.outcome!.items).toBeLessThan(run.plannedCount);
      const rows = state.looks[0].rows;
      expect(rows).toEqual([
        expect.objectContaining({ model: "emu-faces − baseline:synthetic-faces", group: "all prompts", metric: "implicit", decision: "equivalent" }),
      ]);
      expect(rows[0].lo).toBeLessThanOrEqual(rows[0].estimate);
      expect(rows[0].estimate).toBeLessThanOrEqual(rows[0].hi);
    } finally {
      await emu.close();
    }
  }, 240_000);

  it("refuses what cannot stop on a target before anything is created", async () => {
    const before = await prisma().run.count();
    await expect(
      engine.createRun(prisma(), {
        suite: "faintbench",
        models: ["baseline:synthetic-faces"],
        config: suiteOf("faintbench").presets.smoke.config,
        preset: "smoke",
        seed: 1,
        until: "decided:implicit",
      }),
    ).rejects.toThrow(/needs at least two models/);
    await expect(
      engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: { dimensions: ["race"], methods: ["baseline"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 4 },
        preset: "custom",
        seed: 1,
        until: "sE<=0.05",
      }),
    ).rejects.toThrow(/until: unknown score "sE": one of DDC, IDC, IDF, FDD/);
    expect(await prisma().run.count()).toBe(before);
  });
});
