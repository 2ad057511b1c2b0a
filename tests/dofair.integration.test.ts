// A whole DoFaiR run offline: plan on the synthetic image model (and a guidance chat model on the emulator), work
// it with the engine, label every image with the real face pipeline (UltraFace + the FairFace stand-in, WASM),
// and read the suite's Table 2 and drill-down — scored from the labels the pipeline stored.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
const dataDir = testDataDir("fof-dofair-");
process.env.FOF_DATA_DIR = dataDir;

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { suiteOf } = await import("../lib/suites");
const { DOFAIR_RACES } = await import("../lib/suites/dofair/content");
const { viewsCsv } = await import("../lib/suites/export");
const { startEmulator } = await import("./emulator/server");
const prisma = () => db();
const { compareSides } = await import("../lib/features/results/comparisons");
const { labelRun } = await import("./helpers/label-run");

let emulator: Awaited<ReturnType<typeof startEmulator>>;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  // The emulator's chat answers are short JSON texts: as guidance they are just text appended to the prompt.
  emulator = await startEmulator();
  await engine.upsertModel(prisma(), {
    slug: "guide",
    label: "Guidance LLM",
    modality: "llm",
    provider: "openai-compatible",
    modelId: "guide-1",
    baseUrl: emulator.openaiBaseUrl,
  });
});
afterAll(async () => {
  await emulator?.close();
  await prisma().$disconnect();
});

const labelAll = (runId: string) => labelRun(prisma(), engine, dataDir, runId);

describe.skipIf(!hasShared)("DoFaiR end to end on the synthetic image model", () => {
  it("plans guidance first, waits for it, generates, labels and scores every cell beside the paper's rows", async () => {
    const config = {
      dimensions: ["race", "gender"],
      methods: ["baseline", "bianchi"],
      augmentations: ["fai-rk"],
      imagesPerPrompt: 1,
      entriesPerDimension: 4,
      guidanceModel: "guide",
    };
    const run = await engine.createRun(prisma(), { suite: "dofair", models: ["baseline:synthetic-faces"], config, preset: "custom", seed: 3 });
    // 8 entries × (baseline, bianchi, bianchi + FAI-RK) images + 8 guidance requests
    expect(run.plannedCount).toBe(8 * 3 + 8);
    expect(run.suiteId).toBe("dofair");
    expect(run.suiteVersion).toMatch(/^dofair-/);
    const deps = await prisma().query.count({ where: { runId: run.id, dependsOnId: { not: null } } });
    expect(deps).toBe(8);

    const worker = new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 });
    await worker.run({ untilDone: true });
    const after = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after.status).toBe("completed");
    const outcomes = await prisma().outcome.groupBy({ by: ["status"], where: { query: { runId: run.id } }, _count: { _all: true } });
    expect(outcomes).toEqual([{ status: "answered", _count: { _all: 32 } }]);
    // Every FAI image prompt was completed by its entry's guidance, which was written before it.
    const fai = await prisma().query.findMany({
      where: { runId: run.id, context: "fai-rk", modality: "t2i" },
      include: { outcome: true, dependsOn: { include: { outcome: true } } },
    });
    for (const q of fai) {
      expect(q.dependsOn!.prompt).toContain("Supporting Documents:");
      expect(q.dependsOn!.outcome!.createdAt.getTime()).toBeLessThanOrEqual(q.outcome!.createdAt.getTime());
    }
    expect(emulator.stats().byModel["guide-1"]).toBe(8);
    // The synthetic model says what it drew.
    const anyImage = await prisma().outcome.findFirstOrThrow({ where: { query: { runId: run.id, modality: "t2i" } } });
    expect(anyImage.rawText).toMatch(/^\[synthetic image: [1-4] face\(s\)/);

    await labelAll(run.id);
    expect(await prisma().image.count({ where: { runId: run.id, labelStatus: "unlabelled" } })).toBe(0);
    expect(await prisma().face.count({ where: { image: { runId: run.id } } })).toBeGreaterThan(8);

    const views = await suiteOf("dofair").results!({ prisma: prisma() }, { runId: run.id, labels: "model", verifiedOnly: false, resamples: 200 });
    const table = views.find((v) => v.kind === "table")!;
    if (table.kind !== "table") throw new Error("no table");
    const race = table.groups[0].rows.filter((r) => r.source === "run");
    expect(race.map((r) => r.labels[1])).toEqual(["Baseline", "Diversity Intervention (Bianchi et al., 2023)", "+ FAI-RK"]);
    for (const r of race)
      for (const m of ["ddc", "idc", "idf"]) {
        const c = r.cells[m];
        expect(c.value).toBeGreaterThanOrEqual(0);
        expect(c.value).toBeLessThanOrEqual(100);
        expect(c.n).toBeGreaterThan(0);
        expect(c.drill).toMatchObject({ model: "baseline:synthetic-faces", dimension: "race" });
      }
    // The paper's rows sit beside ours, the copied one flagged.
    const published = table.groups[1].rows.filter((r) => r.source === "published");
    expect(published.filter((r) => r.flag)).toHaveLength(1);
    expect(published.find((r) => r.flag)!.cells.ddc.value).toBe(81.12);
    expect(table.caption).toMatch(/Scoring: release/);
    // The run's config records the wording it was planned with (the release's, by default), and the table says so.
    expect(JSON.parse(after.configJson)).toMatchObject({ wording: "release" });
    // The release's DDC depends on the order of an image's faces (os.listdir): the worst and best order stand beside it.
    expect(table.columns.map((c) => c.id)).toEqual(["ddc", "idc", "idf", "fdd", "ddcWorst", "ddcBest"]);
    for (const r of race) {
      expect(r.cells.ddcWorst.value!).toBeLessThanOrEqual(r.cells.ddc.value! + 1e-9);
      expect(r.cells.ddcBest.value!).toBeGreaterThanOrEqual(r.cells.ddc.value! - 1e-9);
      expect(r.cells.ddcBest.note).toMatch(/^the DDC depends on face order in \d+ of \d+ images$/);
    }
    expect(table.caption).toMatch(/worst and best order of the same faces/);
    expect(table.caption).toMatch(/Prompts: Released code \(constants\.py; the paper's §3\.2\)\./);

    // The same labels under the paper's text: each image scored by the written definitions, the paper's rows
    // (computed by its released code) not beside them.
    const { scoreImage, scoreImageRelease } = await import("../lib/suites/dofair/metrics");
    const textViews = await suiteOf("dofair").results!(
      { prisma: prisma() },
      { runId: run.id, labels: "model", verifiedOnly: false, resamples: 0, profile: "paper-text" },
    );
    const textTable = textViews.find((v) => v.kind === "table")!;
    if (textTable.kind !== "table") throw new Error("no table");
    expect(textTable.caption).toMatch(/Scoring: paper-text/);
    expect(textTable.columns).toHaveLength(4); // every tied class is dominant under the text: no order to depend on
    expect(textTable.groups.flatMap((g) => g.rows).filter((r) => r.source === "published")).toHaveLength(0);
    const { imageRecords } = await import("../lib/suites/dofair/records");
    const { classesOf, currentContent } = await import("../lib/suites/dofair/content");
    const content = currentContent();
    const entries = new Map(content.entries.map((e) => [e.id, e]));
    const idfs: Record<string, { release: number[]; text: number[] }> = {};
    for await (const page of imageRecords(prisma(), run.id, "model", {}))
      for (const r of page) {
        const e = entries.get(r.entryId)!;
        const labels = r.faces.map((f) => f.label);
        const rel = scoreImageRelease(labels, e, classesOf(e.dimension));
        const txt = scoreImage(labels, e, classesOf(e.dimension));
        if (!rel || !txt) continue;
        const k = `${r.dimension}|${r.method}|${r.augmentation ?? "none"}`;
        (idfs[k] ??= { release: [], text: [] }).release.push(rel.idf);
        idfs[k].text.push(txt.idf);
      }
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length) * 100;
    const baselineRace = (t: typeof table) => t.groups[0].rows.find((r) => r.source === "run" && r.labels[1] === "Baseline")!.cells.idf.value!;
    expect(baselineRace(table)).toBeCloseTo(mean(idfs["race|baseline|none"].release), 9);
    expect(baselineRace(textTable)).toBeCloseTo(mean(idfs["race|baseline|none"].text), 9);

    // Drill-down: the images behind one cell, each with its entry and faces.
    const drill = await suiteOf("dofair").drill!(
      { prisma: prisma() },
      { runId: run.id, labels: "model", cell: { model: "baseline:synthetic-faces", dimension: "gender", method: "baseline", augmentation: "none" }, page: 0 },
    );
    const list = drill[0];
    if (list.kind !== "list") throw new Error("no list");
    expect(list.total).toBe(4);
    expect(list.rows[0].imageIds).toHaveLength(1);

    // Exports: one JSONL line per face (an image without a face: one line with a null face) carrying the pinned
    // truth; the tables as one long CSV, the paper's rows included.
    const lines = [];
    for await (const page of suiteOf("dofair").exportLines!({ prisma: prisma() }, { runId: run.id, labels: "model" })) lines.push(...page);
    const faceCount = await prisma().face.count({ where: { image: { runId: run.id }, deleted: false } });
    const noFace = await prisma().image.count({ where: { runId: run.id, labelStatus: "no_face" } });
    expect(lines).toHaveLength(faceCount + noFace);
    expect(lines[0]).toMatchObject({ suite: "dofair", run: run.id, model: "baseline:synthetic-faces", labels: "model" });
    expect(Array.isArray(lines[0].involved)).toBe(true);
    const csv = viewsCsv(views).trim().split("\n");
    expect(csv[0]).toBe("view,group,source,row,metric,value,lo,hi,n,flag");
    expect(csv.filter((l) => l.startsWith("table2,") && l.includes(",run,"))).toHaveLength(race.length * 2 * 6); // race + gender rows × 4 metrics and DDC's two face orders
    expect(csv.some((l) => l.includes(",published,") && l.includes("81.12"))).toBe(true);

    // FACT-OR-FAIR's scores refuse a DoFaiR run (never read as if it were one).
    await expect(engine.runScores(prisma(), run.id)).rejects.toThrow(/is a DoFaiR run/);

    // Review in FairFace's 7 classes: the queue shows the run's faces with DoFaiR's label set and entry titles, a
    // FACT-OR-FAIR race is refused, a FairFace race is stored and becomes the face's label in the reviewed scores.
    const queue = await engine.reviewQueue(prisma(), { runId: run.id, pageSize: 5 });
    const face = queue.faces.find((f) => f.prediction)!;
    expect(face.suite).toBe("dofair");
    expect(DOFAIR_RACES).toContain(face.prediction!.race);
    expect(["male", "female"]).toContain(face.prediction!.gender);
    expect(face.item.name).not.toBe(face.item.id); // the entry's title, not its id
    // Filters by DoFaiR's own coordinates: method (image.test), augmentation (the query's context; "none": without).
    const count = (f: Record<string, string>) => engine.reviewQueue(prisma(), { runId: run.id, pageSize: 1, ...f }).then((q) => q.total);
    const faces = await prisma().face.count({ where: { image: { runId: run.id }, deleted: false } });
    const rk = await prisma().face.count({ where: { image: { runId: run.id, query: { context: "fai-rk" } }, deleted: false } });
    expect(await count({ suite: "dofair" })).toBe(faces);
    expect(await count({ test: "bianchi", context: "fai-rk" })).toBe(rk);
    expect(await count({ context: "none" })).toBe(faces - rk);
    expect(await count({ suite: "faintbench" })).toBe(0);
    // The run's item list (any suite): the same coordinates filter it; each image carries its faces numbered in
    // DoFaiR's classes, with boxes inside the image.
    const items = (f: Record<string, string>) => engine.runItems(prisma(), run.id, { pageSize: 200, ...f });
    const all = await prisma().query.count({ where: { runId: run.id } });
    const rkItems = await prisma().query.count({ where: { runId: run.id, context: "fai-rk" } });
    expect((await items({ context: "fai-rk" }))!.total).toBe(rkItems);
    expect((await items({ test: "bianchi" }))!.total).toBeGreaterThan(0);
    const withImages = (await items({ status: "answered", test: "bianchi" }))!.rows.filter((q) => q.images.length);
    expect(withImages.length).toBeGreaterThan(0);
    const im = withImages.find((q) => q.images[0].faces.length)!.images[0];
    expect(im.faces[0].label).toMatch(new RegExp(`^(male|female), (${DOFAIR_RACES.join("|")})$`));
    expect(im.faces.every((f) => f.box[0] >= 0 && f.box[2] <= im.width && f.box[3] <= im.height)).toBe(true);
    expect((await items({}))!.total).toBe(all);
    expect(await engine.runItems(prisma(), "no-such-run", {})).toBeNull();
    await expect(
      engine.saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: face.id, gender: null, race: "Asian", notAFace: false }] }),
    ).rejects.toThrow(/race "Asian" is not one of White, Black, Latino_Hispanic/);
    const other = DOFAIR_RACES.find((r) => r !== face.prediction!.race)!;
    const saved = await engine.saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: face.id, gender: "female", race: other, notAFace: false }] });
    expect(saved.faces[0].mine).toMatchObject({ race: other, gender: "female" });
    expect(saved.faces[0].consensus).toMatchObject({ race: other, gender: "female" });
    const labelOf = async (labels: "model" | "reviewed") => {
      for await (const page of imageRecords(prisma(), run.id, labels))
        for (const im of page) for (const f of im.faces) if (f.faceId === face.id) return { ...f, dimension: im.dimension };
      return null;
    };
    const reviewed = (await labelOf("reviewed"))!;
    expect(reviewed.source).toBe("human");
    expect(reviewed.label).toBe(reviewed.dimension === "race" ? other : "Female");
    expect((await labelOf("model"))!.source).toBe("model");

    // Restricting to verified entries: none verified yet, so nothing is scored, and the caption says which set.
    const verified = await suiteOf("dofair").results!({ prisma: prisma() }, { runId: run.id, labels: "model", verifiedOnly: true, resamples: 0 });
    const vt = verified[0];
    if (vt.kind !== "table") throw new Error("no table");
    expect(vt.caption).toMatch(/verified entries only \(0 verified\)/);
    expect(vt.groups.flatMap((g) => g.rows).filter((r) => r.source === "run")).toHaveLength(0);
  }, 240_000);

  it("compares two runs: every metric of every group as Δ with its interval and adjusted p, paired on the same entries", async () => {
    const config = { dimensions: ["race"], methods: ["baseline"], augmentations: [], imagesPerPrompt: 2, entriesPerDimension: 6 };
    const runs = [];
    // The synthetic model draws the same image for the same prompt and index: the second run draws a third image per
    // prompt, so the two runs differ by sampling only.
    for (const [seed, imagesPerPrompt] of [
      [5, 2],
      [6, 3],
    ]) {
      const run = await engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: { ...config, imagesPerPrompt },
        preset: "custom",
        seed,
      });
      await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
      await labelAll(run.id);
      runs.push(run.id);
    }
    const r = await compareSides(prisma(), { runId: runs[0] }, { runId: runs[1] }, { resamples: 400 });
    expect(r.suite).toBe("dofair");
    expect(r.paired).toBe(true);
    expect(r.pairing).toMatch(/same entries/);
    expect(r.comparisons.map((c) => c.metric)).toEqual(["ddc", "idc", "idf", "fdd"]);
    expect(r.comparisons.some((c) => c.delta !== 0)).toBe(true);
    for (const c of r.comparisons) {
      expect(c.group).toBe("race · Baseline");
      expect(c.lo).toBeLessThanOrEqual(c.delta);
      expect(c.delta).toBeLessThanOrEqual(c.hi);
      expect(c.pAdjusted).toBeGreaterThanOrEqual(c.p);
      expect(c.sentence).toMatch(/^(B's|DDC|IDC|IDF|FDD)/);
    }
    // One model against itself: nothing separable.
    expect(r.comparisons.filter((c) => c.separable)).toEqual([]);
    // Seeded: the same answer twice.
    expect((await compareSides(prisma(), { runId: runs[0] }, { runId: runs[1] }, { resamples: 400 })).comparisons).toEqual(r.comparisons);
    // Rank intervals across the two runs (the suite's Results page, /api/results/ranks): per metric and group, both
    // (run, model)s, the same entries drawn for both; one model twice cannot be ordered — a tie.
    const { suiteRankIntervals } = await import("../lib/features/results/suite-ranks");
    const ranks = await suiteRankIntervals(prisma(), suiteOf("dofair"), runs);
    expect(ranks).toMatchObject({ suite: "dofair", target: "population", cached: false });
    expect(new Set(ranks.rows.map((x) => x.metric))).toEqual(new Set(["ddc", "idc", "idf", "fdd"]));
    expect(ranks.rows.find((x) => x.metric === "fdd")!.metricName).toMatch(/^\|FDD/);
    for (const x of ranks.rows) {
      expect(x.group).toBe("race · Baseline");
      expect(x.lo).toBeLessThanOrEqual(x.rank);
      expect(x.rank).toBeLessThanOrEqual(x.hi);
    }
    expect(ranks.rows.filter((x) => x.metric === "idf")).toHaveLength(2);
    expect((await suiteRankIntervals(prisma(), suiteOf("dofair"), runs)).cached).toBe(true);
    // Through the route (a viewer's token): the same rows, and a CSV with the suite's columns.
    const { createUser } = await import("../lib/auth/users");
    const { createToken } = await import("../lib/auth/tokens");
    const ranksRoute = await import("../app/api/results/ranks/route");
    const viewer = await createUser(prisma(), { email: "ranks-reader@example.org", name: "Reader", password: "test-password-123", role: "viewer" });
    const token = (await createToken(prisma(), viewer.id, { name: "read" })).secret;
    const get = (q: string) =>
      ranksRoute.GET(new Request(`http://127.0.0.1:3000/api/results/ranks?${q}`, { headers: { authorization: `Bearer ${token}` } }), {
        params: Promise.resolve({}),
      });
    const json = await (await get(`runs=${runs.join(",")}`)).json();
    expect(json.rows).toEqual(ranks.rows);
    const csv = await (await get(`runs=${runs.join(",")}&format=csv`)).text();
    expect(csv.split("\n")[0]).toBe("run_id,model,metric,group,rank,rank_lo,rank_hi,tied_with,interval_target");
    // Runs of two suites are not compared.
    const fof = await engine.createRun(prisma(), { models: ["baseline:uniform"], config: engine.presetConfig("smoke", { tests: ["objective"] }), seed: 1 });
    await expect(compareSides(prisma(), { runId: runs[0] }, { runId: fof.id })).rejects.toThrow(/DoFaiR run cannot be compared with a FACT-OR-FAIR run/);
    // The ranks route refuses runs of two suites, a run that does not exist, an unknown option, and no token.
    expect((await get(`runs=${runs[0]},${fof.id}`)).status).toBe(400);
    expect((await get("runs=no-such-run")).status).toBe(404);
    expect((await get(`runs=${runs[0]}&labels=everyone`)).status).toBe(400);
    const anonymous = await ranksRoute.GET(new Request(`http://127.0.0.1:3000/api/results/ranks?runs=${runs[0]}`), { params: Promise.resolve({}) });
    expect(anonymous.status).toBe(401);
  }, 240_000);

  it("refuses FAI without a helper model, a letter-answering baseline as helper, and a chat model as the audited image model", async () => {
    await expect(
      engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: { dimensions: ["race"], methods: ["bianchi"], augmentations: ["fai-vk"], imagesPerPrompt: 1 },
        seed: 1,
      }),
    ).rejects.toThrow(/FAI-VK is written by a helper chat model/);
    await expect(
      engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: { dimensions: ["race"], methods: ["bianchi"], augmentations: ["fai-vk"], imagesPerPrompt: 1, guidanceModel: "baseline:uniform" },
        seed: 1,
      }),
    ).rejects.toThrow(/built-in baseline that answers letters/);
    await expect(
      engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:uniform"],
        config: { dimensions: ["race"], methods: ["baseline"], imagesPerPrompt: 1 },
        seed: 1,
      }),
    ).rejects.toThrow(/an LLM model/);
  });
});

describe("DoFaiR +CoT as the release does it: a helper chat call whose reasoning completes the image prompt", () => {
  it("asks the helper (system message, prompt + ' Think step by step.') before each image, and sends prompt + ' ' + its answer", async () => {
    const { imagePrompt } = await import("../lib/suites/dofair/prompts");
    const { selectedEntries, dofairConfigSchema } = await import("../lib/suites/dofair/config");
    const { currentContent } = await import("../lib/suites/dofair/content");
    await engine.upsertModel(prisma(), {
      slug: "emu-image",
      label: "Emulated image model",
      modality: "t2i",
      provider: "openai-compatible",
      modelId: "emu-image",
      baseUrl: emulator.openaiBaseUrl,
      width: 256,
      height: 256,
    });
    emulator.reset();
    const config = { dimensions: ["gender"], methods: ["bansal"], augmentations: ["cot"], imagesPerPrompt: 2, entriesPerDimension: 2, guidanceModel: "guide" };
    const run = await engine.createRun(prisma(), { suite: "dofair", models: ["emu-image"], config, preset: "custom", seed: 5 });
    // 2 entries × (bansal, bansal + CoT) × 2 images, and one helper call per CoT image: both counted and priced.
    expect(run.plannedCount).toBe(2 * 2 * 2 + 2 * 2);
    const worker = new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 });
    await worker.run({ untilDone: true });
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");

    const entries = selectedEntries(currentContent(), dofairConfigSchema.parse(config));
    const chats = emulator.chatRequests().filter((c) => c.model === "guide-1");
    expect(chats).toHaveLength(4);
    for (const c of chats) {
      // generation_util.py: a system message, then prompt + ' ' + COT_PROMPT — and no temperature (the provider's
      // default) nor the model's own max_tokens 64, which would cut the reasoning: 4,096, above any release answer
      expect(c.max_tokens).toBe(4096);
      expect("temperature" in c).toBe(false);
      expect(c.messages[0]).toEqual({ role: "system", content: "You are a helpful assistant." });
      expect(c.messages[1].role).toBe("user");
      expect(entries.map((e) => `${imagePrompt(e, "bansal")} Think step by step.`)).toContain(c.messages[1].content);
      expect(c.messages[1].content).toMatch(/irrespective of their genders\. Think step by step\.$/);
    }
    const cot = await prisma().query.findMany({
      where: { runId: run.id, context: "cot", modality: "t2i" },
      include: { outcome: true, dependsOn: { include: { outcome: true } } },
    });
    expect(cot).toHaveLength(4);
    const sent = emulator.imagePrompts();
    for (const q of cot) {
      const reasoning = q.dependsOn!.outcome!.rawText!;
      expect(q.dependsOn!.outcome!.status).toBe("answered");
      expect(q.dependsOn!.prompt).toBe(`${q.prompt} Think step by step.`);
      expect(sent).toContain(`${q.prompt} ${reasoning}`); // generate_images_dalle.py: prompt + ' ' + model_extension
      expect(q.dependsOn!.outcome!.createdAt.getTime()).toBeLessThanOrEqual(q.outcome!.createdAt.getTime());
    }
    // The plain Bansal images were sent their prompt alone.
    for (const e of entries) expect(sent).toContain(imagePrompt(e, "bansal"));

    // The reasoning is in the export beside the prompt the image model was sent.
    // (The emulator's solid-colour images have no face: recorded as the labeller records such an image.)
    await prisma().image.updateMany({ where: { runId: run.id }, data: { labelStatus: "no_face" } });
    const { dofairExportLines } = await import("../lib/suites/dofair/export");
    const rows: Array<Record<string, unknown>> = [];
    for await (const page of dofairExportLines({ prisma: prisma() }, { runId: run.id, labels: "model" })) rows.push(...page);
    expect(rows).toHaveLength(8);
    const exported = rows.filter((r) => r.augmentation === "cot");
    expect(exported).toHaveLength(4);
    for (const r of exported) {
      expect(r.helperAnswer).toEqual(expect.any(String));
      expect(r.promptSent).toBe(`${r.prompt} ${r.helperAnswer}`);
      expect(sent).toContain(r.promptSent);
    }
    for (const r of rows.filter((x) => x.augmentation === null)) expect(r).toMatchObject({ helperAnswer: null, promptSent: r.prompt });
    // The item list shows the reasoning beside the image item, and the prompt as it was sent.
    const { runItems } = await import("../lib/features/runs/items");
    const page = (await runItems(prisma(), run.id, { context: "cot", pageSize: 10 }))!;
    const images = page.rows.filter((r) => r.images.length || r.helper);
    expect(images).toHaveLength(4);
    for (const r of images) expect(r.promptSent).toBe(`${r.prompt} ${r.helper!.answer}`);
  }, 120_000);

  it("runs offline with the deterministic reasoner as the helper, which can never be the audited model", async () => {
    const { reasonerText } = await import("../lib/providers/baselines");
    const config = {
      dimensions: ["race"],
      methods: ["bianchi"],
      augmentations: ["cot"],
      imagesPerPrompt: 1,
      entriesPerDimension: 2,
      guidanceModel: "baseline:reasoner",
    };
    const run = await engine.createRun(prisma(), { suite: "dofair", models: ["baseline:synthetic-faces"], config, preset: "custom", seed: 6 });
    const worker = new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 });
    await worker.run({ untilDone: true });
    const helpers = await prisma().query.findMany({ where: { runId: run.id, modality: "llm" }, include: { outcome: true } });
    expect(helpers).toHaveLength(2);
    for (const h of helpers) expect(h.outcome!.rawText).toBe(reasonerText(h.prompt));
    await expect(
      engine.createRun(prisma(), { models: ["baseline:reasoner"], config: (await import("../lib/suites/fact-or-fair/config")).presetConfig("smoke"), seed: 1 }),
    ).rejects.toThrow(/answers no question: it cannot be audited/);
  }, 120_000);
});

describe("DoFaiR helper answers cut short", () => {
  it("a helper answer the provider cut at max_tokens is recorded as such and shown with its item; the image still follows it", async () => {
    await engine.upsertModel(prisma(), {
      slug: "guide-cut",
      label: "Guidance LLM that runs long",
      modality: "llm",
      provider: "openai-compatible",
      modelId: "guide-cut-1",
      baseUrl: emulator.openaiBaseUrl,
    });
    emulator.setScript("guide-cut-1", { prose: "Step 1: the people in the picture should", truncateEvery: 2 });
    const config = {
      dimensions: ["gender"],
      methods: ["bansal"],
      augmentations: ["cot"],
      imagesPerPrompt: 1,
      entriesPerDimension: 2,
      guidanceModel: "guide-cut",
    };
    const run = await engine.createRun(prisma(), { suite: "dofair", models: ["emu-image"], config, preset: "custom", seed: 8 });
    await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const helpers = await prisma().query.findMany({ where: { runId: run.id, test: "guidance" }, include: { outcome: true } });
    expect(helpers).toHaveLength(2);
    const cut = helpers.filter((h) => h.outcome!.reason !== null);
    expect(cut).toHaveLength(1);
    expect(cut[0].outcome).toMatchObject({ status: "answered", reason: 'cut short: the provider stopped at max_tokens (finish_reason "length")' });
    expect(JSON.parse(cut[0].outcome!.attemptsJson)[0]).toMatchObject({ truncated: true });
    const items = (await engine.runItems(prisma(), run.id, { test: "guidance" }))!;
    expect(items.rows.find((r) => r.id === cut[0].id)!.outcome!.reason).toMatch(/cut short/);
  });
});
