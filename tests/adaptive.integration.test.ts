// Adaptive runs through the engine (lib/features/runs/adaptive.ts): waves claimed in order, a look after each, the
// run stopped at the target (its unreleased rows removed, never called) or at the cap, the verdict in the summary,
// the webhook and the run list; launches that cannot stop on a target refused before anything exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-adaptive-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, runSummary, Worker } = await import("./helpers/services");
const { registerLooks } = await import("../lib/features/results/adaptive-looks");
const { adaptiveStateOf } = await import("../lib/results/adaptive");
const { waveSizes } = await import("../lib/metrics/sequential");
const { runList } = await import("../lib/features/runs/lookups");

const prisma = () => db();
const fast = { pollMs: 5, flushMs: 10, runCheckMs: 10 };
// One context, subjective only: 19 statistics × 2 levels × 3 scenarios × 10 answers = 1,140 queries per model.
const small = () => presetConfig("quick", { tests: ["subjective"], contexts: ["baseline"] });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  registerLooks();
  await prisma().webhook.create({ data: { url: "https://hooks.example.test/fof", eventsJson: JSON.stringify(["run.completed"]), secret: "s" } });
});
afterAll(async () => {
  await prisma().$disconnect();
});

async function work(runId: string) {
  await new Worker(prisma(), { runId, ...fast }).run({ untilDone: true });
  return prisma().run.findUniqueOrThrow({ where: { id: runId } });
}

describe("adaptive runs", () => {
  it("stops at the first look when its target is met: the rest of the plan is never called, and it says so everywhere", async () => {
    const run = await createRun(prisma(), { models: ["baseline:calibrated:0.8"], config: small(), seed: 2, until: "halfwidth<=0.45" });
    expect(run.plannedCount).toBe(1140);
    // Cut into waves as planned: every stratum (statistic, level, scenario) has ⌈8 % of 10⌉ = 1 row in wave 1.
    const waves = await prisma().query.groupBy({ by: ["wave"], where: { runId: run.id }, _count: { _all: true } });
    const sizes = waveSizes(10);
    const expected = sizes.map((s, j) => (s - (j ? sizes[j - 1] : 0)) * 114);
    expect(waves.sort((a, b) => a.wave - b.wave).map((w) => w._count._all)).toEqual(expected);
    expect(run.wavesReleased).toBe(1);
    const done = await work(run.id);
    expect(done.status).toBe("completed");
    const state = adaptiveStateOf(done.adaptiveJson)!;
    expect(state.outcome).toMatchObject({ kind: "met", look: 1, items: 114, planned: 1140 });
    expect(state.looks[0].rows.length).toBeGreaterThan(0);
    expect(state.looks[0].rows.every((r) => (r.hi - r.lo) / 2 <= 0.45 + 1e-12)).toBe(true);
    expect(state.looks[0].level).toBeCloseTo(0.9975, 12);
    // Only what it used is left: 114 rows, each with its one outcome; nothing unreleased was called.
    expect(await prisma().query.count({ where: { runId: run.id } })).toBe(114);
    expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(114);
    expect(done.plannedCount).toBe(114);
    const summary = (await runSummary(prisma(), run.id))!;
    // 114 answers over 38 cells: most cells are too small for the bias correction, and the verdict says so.
    const smallCells = state.looks[0].rows.filter((r) => r.flags?.includes("small-cells")).length;
    expect(smallCells).toBeGreaterThan(0);
    expect(summary.adaptive?.summary).toMatch(
      new RegExp(
        `^target met at 114 of 1,140 items: halfwidth<=0\\.45; ${smallCells} of ${state.looks[0].rows.length} intervals: some cells are too small for the bias correction: coverage not promised(;|$)`,
      ),
    );
    const listed = (await runList(prisma(), { id: run.id, limit: 1 })).runs[0];
    expect(listed.adaptive).toMatchObject({ until: "halfwidth<=0.45", outcome: "met" });
    const delivery = await prisma().webhookDelivery.findFirstOrThrow({ where: { subject: run.id, event: "run.completed" } });
    const payload = JSON.parse(delivery.payloadJson) as { run: { adaptive: { summary: string; lastLook: { rows: unknown[] } }; adaptiveJson?: unknown } };
    expect(payload.run.adaptive.summary).toContain("target met at 114 of 1,140 items");
    expect(payload.run.adaptive.lastLook.rows.length).toBeGreaterThan(0);
    expect(payload.run.adaptiveJson).toBeUndefined();
  }, 60_000);

  it("goes on wave by wave to the cap when the target cannot be met, and says how far it is", async () => {
    const run = await createRun(prisma(), { models: ["baseline:uniform"], config: small(), seed: 3, until: "sFact<=0.001" });
    const done = await work(run.id);
    const state = adaptiveStateOf(done.adaptiveJson)!;
    expect(done.status).toBe("completed");
    expect(state.looks.map((l) => l.items)).toEqual(waveSizes(10).map((s) => s * 114));
    expect(state.looks.every((l) => !l.met)).toBe(true);
    expect(state.outcome).toMatchObject({ kind: "cap", look: 4, items: 1140 });
    expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(1140);
    const summary = (await runSummary(prisma(), run.id))!;
    expect(summary.adaptive?.summary).toMatch(
      /^cap reached before the target: widest interval ±0\.\d{3} on S_fact \(baseline:uniform, subjective · baseline · (gender|race); target ±0\.001\)$/,
    );
  }, 120_000);

  it("judges each model of a run by its own intervals, and names the model holding it back", async () => {
    const run = await createRun(prisma(), { models: ["baseline:uniform", "baseline:calibrated:0.8"], config: small(), seed: 5, until: "sFact<=0.001" });
    const done = await work(run.id);
    const state = adaptiveStateOf(done.adaptiveJson)!;
    const first = state.looks[0];
    expect(new Set(first.rows.map((r) => r.model))).toEqual(new Set(["baseline:uniform", "baseline:calibrated:0.8"]));
    const widest = first.rows.reduce((a, r) => ((r.hi - r.lo) / 2 > (a.hi - a.lo) / 2 ? r : a));
    expect(first.widest).toMatchObject({ model: widest.model, group: widest.group, metric: "sFact" });
    expect(state.outcome?.kind).toBe("cap");
  }, 120_000);

  it("stops an A-vs-B run as soon as every comparison is decided", async () => {
    const run = await createRun(prisma(), {
      models: ["baseline:uniform", "baseline:calibrated:0.8"],
      config: presetConfig("quick", { tests: ["subjective"], contexts: ["baseline"], subjectiveRepeats: 40 }),
      seed: 4,
      until: "decided:sFact;attribute=race",
    });
    const done = await work(run.id);
    const state = adaptiveStateOf(done.adaptiveJson)!;
    expect(state.outcome).toMatchObject({ kind: "met", look: 1 });
    const rows = state.looks[0].rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      model: "baseline:calibrated:0.8 − baseline:uniform",
      group: "subjective · baseline · race",
      metric: "sFact",
      decision: "separated",
    });
    expect(rows[0].lo).toBeGreaterThan(0);
  }, 120_000);

  it("two workers share an adaptive run: one verdict per look, and nothing beyond the released waves is called", async () => {
    const run = await createRun(prisma(), { models: ["baseline:calibrated:0.8"], config: small(), seed: 8, until: "halfwidth<=0.45" });
    const workers = [0, 1].map(() => new Worker(prisma(), { runId: run.id, ...fast }));
    await Promise.all(workers.map((w) => w.run({ untilDone: true })));
    const done = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    const state = adaptiveStateOf(done.adaptiveJson)!;
    // One look, taken once whichever worker took it; the first wave called once per row and nothing after it.
    expect(state.looks.map((l) => l.look)).toEqual([1]);
    expect(state.outcome).toMatchObject({ kind: "met", look: 1, items: 114 });
    expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(114);
    expect(workers.reduce((a, w) => a + w.outcomes, 0)).toBe(114);
  }, 120_000);

  it("refuses a target it cannot keep before anything is created", async () => {
    const before = await prisma().run.count();
    await expect(createRun(prisma(), { models: ["baseline:uniform"], config: small(), seed: 1, until: "halfwidth<0.05" })).rejects.toThrow(/cannot read/);
    await expect(createRun(prisma(), { models: ["baseline:uniform"], config: small(), seed: 1, until: "decided:sFact" })).rejects.toThrow(
      /at least two models/,
    );
    await expect(
      createRun(prisma(), { models: ["baseline:uniform"], config: presetConfig("quick", { tests: ["objective"] }), seed: 1, until: "sFact<=0.05" }),
    ).rejects.toThrow(/include the subjective test/);
    await expect(
      createRun(prisma(), { models: ["baseline:uniform"], config: small(), seed: 1, until: { kind: "halfwidth", halfwidth: { idf: 0.05 } } }),
    ).rejects.toThrow(/until: unknown score "idf"/);
    expect(await prisma().run.count()).toBe(before);
  });
});
