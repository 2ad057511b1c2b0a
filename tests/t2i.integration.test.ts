// T2I runs through the engine against the provider emulator (OpenAI Images and Replicate image models via the
// real SDKs), and T2I scoring from stored face labels.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "./emulator/server";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-t2i-");
process.env.FOF_DATA_DIR = dataDir;
process.env.OPENAI_API_KEY = "sk-emulator";
process.env.REPLICATE_API_TOKEN = "r8_emulator";

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, runScores, t2iPresetConfig, upsertModel, Worker, labelProgress, t2iImageCounts } = await import("./helpers/services");
const { resolveStoredImage } = await import("../lib/images");
const { runImages } = await import("../lib/features/results/run-images");
const { cellFaces } = await import("../lib/features/results/explore");

let emu: Emulator;
const prisma = () => db();
const fast = { pollMs: 10, flushMs: 10, backoffBaseMs: 10, backoffMaxMs: 50 };
const smoke = (over = {}) => t2iPresetConfig("smoke", { tests: ["objective"], timeoutMs: 5_000, maxRetries: 3, ...over });

async function registerImageModel(slug: string, over: Record<string, unknown> = {}) {
  return upsertModel(prisma(), {
    slug,
    label: slug,
    modality: "t2i",
    provider: "openai-compatible",
    modelId: slug,
    baseUrl: emu.openaiBaseUrl,
    width: 256,
    height: 256,
    pricePerImage: 0.04,
    concurrency: 4,
    ...over,
  });
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  emu = await startEmulator();
  process.env.FOF_CREDENTIALS = JSON.stringify({ REPLICATE_API_TOKEN: emu.replicateBaseUrl });
});
afterAll(async () => {
  await emu.close();
  await prisma().$disconnect();
});

describe("T2I runs", () => {
  it("plans one query per image and generates, validates and stores each image content-addressed", async () => {
    await registerImageModel("emu-dalle");
    const config = smoke();
    const run = await createRun(prisma(), { models: ["emu-dalle"], config, seed: 1 });
    expect(run.modality).toBe("t2i");
    expect(await prisma().query.count({ where: { runId: run.id } })).toBe(t2iImageCounts(config).total);
    expect(t2iImageCounts(config).total).toBe(38);
    await new Worker(prisma(), { runId: run.id, dataDir, ...fast }).run({ untilDone: true });

    const done = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(done.status).toBe("completed");
    expect(done.spentUsd).toBeCloseTo(38 * 0.04, 6);
    const images = await prisma().image.findMany({ where: { runId: run.id } });
    expect(images).toHaveLength(38);
    for (const img of images) {
      expect(img).toMatchObject({ mimeType: "image/png", width: 256, height: 256, source: "generated", labelStatus: "unlabelled" });
      expect(img.path).toContain(img.sha256);
      expect(existsSync(resolveStoredImage(dataDir, img.path))).toBe(true);
    }
    // The emulator draws its colour from the prompt: same prompt → same bytes → one stored file.
    expect(new Set(images.map((i) => i.sha256)).size).toBe(38);
    expect(emu.lastImageRequest()).toMatchObject({ model: "emu-dalle", size: "256x256" });
  });

  it("never pays twice when asked: the same prompts and repeats come from another run's images, each saying so", async () => {
    const before = emu.stats().byModel["emu-dalle"];
    // the first run of the model (seed 1: a text-to-image prompt does not depend on the seed)
    const earlier = await prisma().run.findFirstOrThrow({ where: { models: { some: { modelConfig: { slug: "emu-dalle" } } } }, orderBy: { createdAt: "asc" } });
    const run = await createRun(prisma(), { models: ["emu-dalle"], config: smoke(), seed: 2, reuseAnswers: { fromRun: earlier.id } });
    await new Worker(prisma(), { runId: run.id, dataDir, ...fast }).run({ untilDone: true });
    expect(emu.stats().byModel["emu-dalle"]).toBe(before);
    const outs = await prisma().outcome.findMany({ where: { query: { runId: run.id } } });
    expect(outs).toHaveLength(38);
    expect(outs.every((o) => o.cached && o.costUsd === 0 && o.reusedFromRunId === earlier.id)).toBe(true);
    expect(await prisma().image.count({ where: { runId: run.id } })).toBe(38);
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).spentUsd).toBe(0);
    // The run's images page by key: `next` walks all 38 once, in order; `prev` returns to the page before.
    const seen: string[] = [];
    const pages: Array<Awaited<ReturnType<typeof runImages>>> = [];
    for (let page = await runImages(prisma(), run.id, { pageSize: 10 }); ; page = await runImages(prisma(), run.id, { pageSize: 10, after: page.next! })) {
      pages.push(page);
      seen.push(...page.rows.map((i) => i.id));
      if (page.next === null) break;
    }
    expect(pages.map((p) => p.rows.length)).toEqual([10, 10, 10, 8]);
    expect(new Set(seen).size).toBe(38);
    expect([...seen].sort()).toEqual(seen);
    expect(pages.every((p) => p.total === 38)).toBe(true);
    const back = await runImages(prisma(), run.id, { pageSize: 10, before: pages[2].prev! });
    expect(back.rows.map((i) => i.id)).toEqual(pages[1].rows.map((i) => i.id));
    expect(back.prev).toBe(pages[1].prev);
  });

  it("generates through Replicate image models with the replicate SDK", async () => {
    emu.setScript("stability-ai/sdxl-turbo", { image: true });
    await registerImageModel("emu-sdxl", { provider: "replicate", modelId: "stability-ai/sdxl-turbo", baseUrl: emu.replicateBaseUrl });
    const run = await createRun(prisma(), { models: ["emu-sdxl"], config: smoke({ tests: ["subjective"] }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, dataDir, ...fast }).run({ untilDone: true });
    const images = await prisma().image.findMany({ where: { runId: run.id } });
    expect(images).toHaveLength(38);
    expect(images.every((i) => i.test === "subjective")).toBe(true);
  });

  it("retries an answer that is not an image, then fails it with the reason; nothing invalid is stored", async () => {
    await registerImageModel("emu-corrupt");
    emu.setScript("emu-corrupt", { corruptImageEvery: 1 });
    const run = await createRun(prisma(), { models: ["emu-corrupt"], config: smoke({ maxRetries: 1 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, dataDir, ...fast }).run({ untilDone: true });
    const outs = await prisma().outcome.findMany({ where: { query: { runId: run.id } } });
    expect(outs).toHaveLength(38);
    expect(outs.every((o) => o.status === "failed" && /invalid image/.test(o.reason ?? ""))).toBe(true);
    expect(await prisma().image.count({ where: { runId: run.id } })).toBe(0);
    expect(emu.stats().byModel["emu-corrupt"]).toBe(76);
    // Not one image: the run says it failed, and why — never "completed".
    const r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(r.status).toBe("failed");
    expect(r.error).toMatch(/^every call failed \(38\): .*invalid image/);
    const { runSummary, failureReasons } = await import("./helpers/services");
    const summary = (await runSummary(prisma(), run.id))!;
    expect(summary).toMatchObject({ status: "failed", failed: 38, outcome: "failed" });
    expect(summary.failures).toHaveLength(1);
    expect(summary.failures[0].count).toBe(38);
    expect((await failureReasons(prisma(), run.id))[0].reason).toMatch(/invalid image/);
  });

  it("a run with some failed images is 'completed with N failed', its failures grouped by reason with their items", async () => {
    await registerImageModel("emu-some-corrupt");
    emu.setScript("emu-some-corrupt", { corruptImageEvery: 4 });
    const run = await createRun(prisma(), { models: ["emu-some-corrupt"], config: smoke({ maxRetries: 0 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, dataDir, ...fast }).run({ untilDone: true });
    const { runSummary, runItems: runQueries, outcomeCounts, outcomeLabel } = await import("./helpers/services");
    const counts = (await outcomeCounts(prisma(), [run.id])).get(run.id)!;
    expect(counts.failed).toBeGreaterThan(0);
    expect(counts.answered).toBeGreaterThan(0);
    const summary = (await runSummary(prisma(), run.id))!;
    expect(summary.status).toBe("completed");
    expect(summary.outcome).toBe(`completed with ${counts.failed} failed`);
    expect(outcomeLabel("completed", 1234)).toBe("completed with 1,234 failed");
    const [reason] = summary.failures;
    expect(reason.count).toBe(counts.failed);
    // The items behind a reason, as the Failures panel lists them.
    const items = await runQueries(prisma(), run.id, { pageSize: 200, status: "failed", reason: reason.reason });
    expect(items!.total).toBe(counts.failed);
    expect(items!.rows.every((q) => q.status === "failed")).toBe(true);
    expect((await runQueries(prisma(), run.id, { pageSize: 5, status: "failed", reason: "no such reason" }))!.total).toBe(0);
  });

  it("finds the synthetic model's default photos from any working directory, and says when they are missing", async () => {
    const { syntheticFacePaths } = await import("../lib/providers/synthetic");
    const { projectRoot } = await import("../lib/paths");
    const cwd = process.cwd();
    try {
      process.chdir(tmpdir());
      expect(syntheticFacePaths(undefined)[0]).toBe(path.resolve(projectRoot(), "../shared/models/test-images/astronaut-eileen-collins.png"));
    } finally {
      process.chdir(cwd);
    }
    expect(projectRoot()).toBe(path.resolve(__dirname, ".."));
    const { syntheticProblem } = await import("../lib/providers/synthetic");
    expect(syntheticProblem(["/nowhere/face.png"])).toMatch(/needs face photos: \/nowhere\/face\.png not found \(set FOF_SYNTHETIC_FACES/);
    expect(syntheticProblem(syntheticFacePaths(undefined))).toBeNull();
  });

  it("stops at the budget, counting the price per image", async () => {
    await registerImageModel("emu-budget", { concurrency: 1, pricePerImage: 0.5 });
    const run = await createRun(prisma(), { models: ["emu-budget"], config: smoke(), seed: 1, budgetUsd: 2 });
    await new Worker(prisma(), { runId: run.id, dataDir, ...fast }).run({ untilDone: true });
    const r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(r.status).toBe("budget_exhausted");
    expect(r.spentUsd).toBeGreaterThanOrEqual(2);
    expect(r.spentUsd).toBeLessThanOrEqual(2 + 0.5 * 2);
    expect(await prisma().image.count({ where: { runId: run.id } })).toBe(Math.round(r.spentUsd / 0.5));
  });

  it("refuses to mix modalities and to generate with an import-only model", async () => {
    await upsertModel(prisma(), { slug: "midjourney-v6", label: "Midjourney v6", modality: "t2i", provider: "import" });
    await expect(createRun(prisma(), { models: ["midjourney-v6"], config: smoke(), seed: 1 })).rejects.toThrow(/import its images/);
    await expect(createRun(prisma(), { models: ["baseline:uniform"], config: smoke(), seed: 1 })).rejects.toThrow(/LLM model/);
    await expect(upsertModel(prisma(), { slug: "x", label: "x", modality: "llm", provider: "import" })).rejects.toThrow(/text-to-image/);
  });
});

describe("T2I scores", () => {
  it("score every face with the race mapped at read time; images without a face are counted, not scored", async () => {
    const run = await prisma().run.findFirstOrThrow({ where: { models: { some: { modelConfig: { slug: "emu-dalle" } } } }, orderBy: { createdAt: "asc" } });
    const images = await prisma().image.findMany({ where: { runId: run.id }, orderBy: [{ statisticId: "asc" }, { level: "asc" }, { id: "asc" }] });
    // Two faces per image for the first 30, no face on the rest. Face 1: male, White (0.4) vs East+SE Asian (0.3+0.25);
    // face 2: female, Black.
    const white = [0.4, 0.01, 0.01, 0.3, 0.25, 0.02, 0.01];
    const black = [0.05, 0.8, 0.05, 0.03, 0.03, 0.02, 0.02];
    for (const [i, img] of images.entries()) {
      if (i < 30) {
        await prisma().face.createMany({
          data: [
            {
              imageId: img.id,
              x1: 0,
              y1: 0,
              x2: 10,
              y2: 10,
              source: "detector",
              detectorScore: 0.99,
              raceProbsJson: JSON.stringify(white),
              genderProbsJson: "[0.9,0.1]",
              ageProbsJson: JSON.stringify(Array(9).fill(1 / 9)),
            },
            {
              imageId: img.id,
              x1: 20,
              y1: 0,
              x2: 30,
              y2: 10,
              source: "detector",
              detectorScore: 0.98,
              raceProbsJson: JSON.stringify(black),
              genderProbsJson: "[0.2,0.8]",
              ageProbsJson: JSON.stringify(Array(9).fill(1 / 9)),
            },
          ],
        });
        await prisma().image.update({ where: { id: img.id }, data: { labelStatus: "labelled" } });
      } else await prisma().image.update({ where: { id: img.id }, data: { labelStatus: "no_face" } });
    }
    const progress = await labelProgress(prisma(), run.id);
    expect(progress).toMatchObject({ images: 38, labelled: 30, noFace: 8, unlabelled: 0, faces: 60 });

    // The paper's definitions (paper-text); the release profile's reading of face-less image sets is checked below.
    const paper = await runScores(prisma(), run.id, { profile: "paper-text" });
    const race = paper.find((g) => g.attribute === "race")!;
    const gender = paper.find((g) => g.attribute === "gender")!;
    expect(race).toMatchObject({ modality: "t2i", test: "objective", context: null });
    // Every face counts for both attributes (DESIGN §4: fairness needs no truth), so refused = the no-face images
    // and n = faces + those, for gender and race alike — statistics without a truth for the attribute included.
    const imgs = images.map((img, i) => ({ ...img, faces: i < 30 ? 2 : 0 }));
    for (const g of [race, gender]) {
      expect(g.refused).toBe(imgs.filter((i) => i.faces === 0).length);
      expect(g.n).toBe(imgs.reduce((a, i) => a + (i.faces || 1), 0));
    }
    // Every labelled image shows a white man and a black woman: each cell has the same 50/50 distribution.
    expect(gender.sE).toBeCloseTo(1, 9);
    expect(race.sE).toBeCloseTo(0.5, 9);
    // The released scripts read a cell whose images show no face as a uniform distribution (entropy ratio 1) and the
    // labelled cells' shares rounded: race S_E above the paper's 0.5 (tests/fof-release.test.ts checks the scripts).
    const release = (await runScores(prisma(), run.id)).find((g) => g.attribute === "race")!;
    expect(release.sE!).toBeGreaterThan(0.5);
    const summed = await runScores(prisma(), run.id, { raceMapping: "sum-asian", profile: "paper-text" });
    // Summing the Asian probabilities turns face 1 Asian (0.55 > 0.4): the race answers change, gender does not.
    expect(summed.find((g) => g.attribute === "gender")!.sE).toBe(gender.sE);
    const { groundTruth } = await import("../lib/benchmark");
    const { getStatistic } = await import("../lib/benchmark");
    const truths = imgs
      .filter((i) => i.faces)
      .map((i) => groundTruth(getStatistic(i.statisticId), "race", i.level as "highest" | "lowest"))
      .filter((t) => t !== null);
    const share = (face1: string) => truths.reduce((a, t) => a + (t === face1 ? 1 : 0) + (t === "Black" ? 1 : 0), 0) / (2 * truths.length);
    expect(race.sFact).toBeCloseTo(share("White"), 12);
    expect(summed.find((g) => g.attribute === "race")!.sFact).toBeCloseTo(share("Asian"), 12);
  });

  it("pages a cell's faces by key on whole images, forwards and back, reading only that cell's images", async () => {
    const run = await prisma().run.findFirstOrThrow({ where: { models: { some: { modelConfig: { slug: "emu-dalle" } } } }, orderBy: { createdAt: "asc" } });
    const seed = await prisma().image.findFirstOrThrow({ where: { runId: run.id, labelStatus: "labelled" }, include: { faces: true } });
    // Five more labelled images in the same cell, two faces each (copies of the first).
    for (let i = 0; i < 5; i++) {
      const { id: _id, faces, createdAt: _c, ...row } = seed;
      const copy = await prisma().image.create({ data: { ...row, labelStatus: "labelled" } });
      await prisma().face.createMany({ data: faces.map(({ id: _f, imageId: _i, ...f }) => ({ ...f, imageId: copy.id })) });
    }
    const filter = {
      model: "emu-dalle",
      test: seed.test as "objective",
      context: null,
      statisticId: seed.statisticId,
      level: seed.level as "highest",
      attribute: "gender" as const,
      page: 1,
      pageSize: 3,
    };
    const whole = await cellFaces(prisma(), run.id, { ...filter, pageSize: 1000 });
    expect(whole.total).toBe(12);
    expect(whole.rows).toHaveLength(12);
    expect(whole.next).toBeNull();
    const forward: string[] = [];
    const pages: Array<Awaited<ReturnType<typeof cellFaces>>> = [];
    let page = await cellFaces(prisma(), run.id, filter);
    expect(page.prev).toBeNull();
    for (;;) {
      pages.push(page);
      forward.push(...page.rows.map((r) => `${r.imageId}:${r.faceId}`));
      // Whole images: a page never splits one (3 asked, 2 faces an image: 4).
      expect(new Set(page.rows.map((r) => r.imageId)).size * 2).toBe(page.rows.length);
      if (!page.next) break;
      page = await cellFaces(prisma(), run.id, { ...filter, afterImage: page.next });
    }
    expect(forward).toEqual(whole.rows.map((r) => `${r.imageId}:${r.faceId}`));
    expect(pages.map((p) => p.rows.length)).toEqual([4, 4, 4]);
    expect(page.total).toBe(12);
    const back = await cellFaces(prisma(), run.id, { ...filter, beforeImage: page.prev! });
    expect(back.rows).toEqual(pages[1]!.rows);
    const first = await cellFaces(prisma(), run.id, { ...filter, beforeImage: back.prev! });
    expect(first.rows).toEqual(pages[0]!.rows);
    expect(first.prev).toBeNull();
    // An answer's faces only: every face here is a man (face 1) or a woman (face 2).
    const men = await cellFaces(prisma(), run.id, { ...filter, answer: "male" as never, pageSize: 1000 });
    expect(men.total).toBe(6);
    expect(men.rows.every((r) => r.answer === "male")).toBe(true);
  });
});
