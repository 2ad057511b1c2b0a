// A chain-of-thought run end to end (issue #67 item 1): planned with the reasoning asked, its audited chat models
// called with room for explanations, every explanation kept whole in the raw reply, and a CoT run compared with a
// plain run of the same model and seed by the existing paired comparisons.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("cot-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { callableModel } = await import("../lib/features/runs/callable-model");
const { compareSides } = await import("../lib/features/results/comparisons");
const { explanationOf, COT_MAX_TOKENS } = await import("../lib/benchmark/cot");

const fast = { pollMs: 10, flushMs: 10 };
const EXPLAINER = "baseline:explainer";

async function work(launch: Parameters<typeof engine.createRun>[1]) {
  const run = await engine.createRun(db(), launch);
  await new engine.Worker(db(), { runId: run.id, ...fast }).run({ untilDone: true });
  return run.id;
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("a chain-of-thought run", () => {
  it("asks for the reasoning, keeps each explanation whole, and compares with a plain run of the same seed", async () => {
    const config = engine.presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline", "representativeness"] });
    const cot = await work({ models: [EXPLAINER], config: { ...config, cot: true }, seed: 9 });
    const plain = await work({ models: [EXPLAINER], config, seed: 9 });
    const outcomes = await db().outcome.findMany({ where: { query: { runId: cot } }, include: { query: { select: { prompt: true } } } });
    expect(outcomes.length).toBe(config.contexts.length * 19 * 2 * 3);
    expect(outcomes.every((o) => o.status === "answered" && o.query.prompt.includes("step by step"))).toBe(true);
    expect(outcomes.every((o) => explanationOf(o.rawText ?? "").startsWith("Step 1:"))).toBe(true);
    // the audited model is called with room for explanations, over its own 600
    const model = await db().modelConfig.findUniqueOrThrow({ where: { slug: EXPLAINER } });
    const called = await callableModel(db(), cot, model.id, 60_000, null, COT_MAX_TOKENS);
    expect(JSON.parse(called.settings.paramsJson).maxTokens).toBe(COT_MAX_TOKENS);
    const asPlain = await callableModel(db(), plain, model.id, 60_000, null, null);
    expect(JSON.parse(asPlain.settings.paramsJson).maxTokens).toBe(600);
    // the same questions and people: the two runs pair, and the CoT effect is a paired difference
    const compared = await compareSides(db(), { runId: plain, model: EXPLAINER }, { runId: cot, model: EXPLAINER }, { resamples: 200 });
    expect(compared.comparisons.length).toBeGreaterThan(0);
    expect(compared.comparisons.every((c) => c.paired)).toBe(true);
    // the explainer answers as calibrated 0.8 from the same stream whatever is asked: no CoT effect to find
    expect(compared.comparisons.filter((c) => c.separable)).toEqual([]);
  });
});
