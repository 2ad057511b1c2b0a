// One launch form for every suite: FACT-OR-FAIR's LLM and text-to-image shapes are variants of the generic form
// (their fields, presets and fixed values), and the generic estimate prices them as the old forms did.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-launch-variants-");
const { db, migrateAndSeed } = await import("../lib/db");
const { upsertModel, presetConfig, t2iPresetConfig } = await import("./helpers/services");
const { suiteOf } = await import("../lib/suites");
const { launchVariant, launchVariantsOf } = await import("../lib/suites/launch-variants");
const { configFromForm } = await import("../lib/suites/launch-config");
const { estimateSuiteRun } = await import("../lib/suites/estimate");
const { TYPICAL_TOKENS, cost } = await import("../lib/providers/cost");

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await upsertModel(db(), {
    slug: "priced-chat",
    label: "priced",
    provider: "openai-compatible",
    modelId: "x",
    baseUrl: "http://127.0.0.1:9/v1",
    priceInputPer1k: 0.5,
    priceOutputPer1k: 1.5,
  });
  await upsertModel(db(), {
    slug: "priced-image",
    label: "priced image",
    provider: "openai-compatible",
    modality: "t2i",
    modelId: "y",
    baseUrl: "http://127.0.0.1:9/v1",
    pricePerImage: 0.04,
  });
});
afterAll(async () => {
  await db().$disconnect();
});

const form = (entries: Array<[string, string]>) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("launch variants", () => {
  it("FACT-OR-FAIR has an LLM and a text-to-image form; other suites one form of their fields", () => {
    const fof = suiteOf("fact-or-fair");
    expect(launchVariantsOf(fof).map((v) => v.id)).toEqual(["llm", "t2i"]);
    expect(launchVariant(fof, undefined)!.id).toBe("llm");
    expect(launchVariant(fof, "nope")).toBeNull();
    const dofair = launchVariantsOf(suiteOf("dofair"));
    expect(dofair).toHaveLength(1);
    expect(dofair[0].button).toBe("DoFaiR run");
    expect(dofair[0].fields).toBe(suiteOf("dofair").launchFields);
  });

  it("reads a form into the suite's config: the text-to-image variant fixes the modality", () => {
    const fof = suiteOf("fact-or-fair");
    const t2i = launchVariant(fof, "t2i")!;
    const config = configFromForm(
      t2i.fields,
      form([
        ["tests", "objective"],
        ["imagesPerPrompt", "2"],
      ]),
      t2i.fixed,
    );
    expect(fof.configSchema.parse(config)).toEqual(t2iPresetConfig("smoke", { tests: ["objective"], imagesPerPrompt: 2 }));
    const llm = launchVariant(fof, "llm")!;
    const c = configFromForm(
      llm.fields,
      form([
        ["tests", "objective"],
        ["tests", "subjective"],
        ["contexts", "baseline"],
        ["objectiveRepeats", "2"],
        ["subjectiveRepeats", "1"],
      ]),
      llm.fixed,
    );
    expect(fof.configSchema.parse(c)).toEqual(presetConfig("smoke", { contexts: ["baseline"], objectiveRepeats: 2, subjectiveRepeats: 1 }));
  });

  it("estimates FACT-OR-FAIR with its own tokens (shorter objective prompts) and images at the model's price", async () => {
    const quick = presetConfig("quick");
    const est = await estimateSuiteRun(db(), { suite: "fact-or-fair", models: ["priced-chat"], config: quick });
    const objective = 19 * 2 * 2 * quick.objectiveRepeats;
    const subjective = est.perModel - objective;
    expect(est.unit).toBe("queries");
    expect(est.usd).toBeCloseTo(
      cost(objective * TYPICAL_TOKENS.objectiveIn + subjective * TYPICAL_TOKENS.subjectiveIn, est.perModel * TYPICAL_TOKENS.out, 0.5, 1.5),
      10,
    );
    const img = await estimateSuiteRun(db(), { suite: "fact-or-fair", models: ["priced-image"], config: t2iPresetConfig("smoke", { tests: ["objective"] }) });
    expect(img).toMatchObject({ unit: "images", perModel: 38, total: 38 });
    expect(img.usd).toBeCloseTo(1.52, 10);
  });
});
