// FAIntbench with its own instrument, end to end offline: a run launched with CLIP is read by a CLIP labeller
// (a CLIP-family stand-in vision tower with random weights and a text file of its size — not CLIP), never by the face
// pipeline; its readings record what made them; implicit / explicit / η come out through the release's rules with the
// paper's rows beside them (and a caption saying the stand-in is not OpenAI's ViT-L/14); `fof label` reads a CLIP
// run from the files it finds; a second instrument on a run, a mismatched pair and hostile posts are refused.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClipStandIn } from "./helpers/clip-standin";
import { testDataDir } from "./helpers/data-dir";
import { sqliteOnly } from "./helpers/databases";

const dataDir = testDataDir("fof-faint-clip-");
process.env.FOF_DATA_DIR = dataDir;

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { saveReadings } = await import("../lib/features/labelling/readings");
const { labelQueue } = await import("../lib/features/labelling/queue");
const { clipTextsFile, createNodeClip, readImages } = await import("../lib/faces/node-clip");
const { modelFile } = await import("../lib/faces/node-labeller");
const { CLIP_GROUPS } = await import("../lib/suites/faintbench/clip-instrument");
const { suiteOf } = await import("../lib/suites");
const prisma = () => db();
const deps = { leaseImages: engine.leaseImages, saveLabels: engine.saveLabels, releaseLeases: engine.releaseLeases, saveReadings };

/** A stand-in vision tower and its text file, written together (the file names the tower's sha256). */
function writePair(dir: string, { seed, dim, paired = true, drop = [] as string[] }: { seed: number; dim: number; paired?: boolean; drop?: string[] }) {
  mkdirSync(dir, { recursive: true });
  const vision = path.join(dir, "clip-vit-l14-vision.onnx");
  const bytes = buildClipStandIn({ seed, dim });
  writeFileSync(vision, bytes);
  const texts = [...new Set(Object.values(CLIP_GROUPS).flat())].filter((t) => !drop.includes(t));
  const file = {
    model: `CLIP-family stand-in (seed ${seed}, random weights; not CLIP)`,
    weightsSha256: "0".repeat(64),
    ...(paired ? { visionSha256: createHash("sha256").update(bytes).digest("hex") } : {}),
    logitScale: 100,
    dim,
    texts: Object.fromEntries(texts.map((t, i) => [t, Array.from({ length: dim }, (_, j) => Math.sin((i + 1) * (j + 2) * seed))])),
  };
  const json = path.join(dir, "clip-texts.json");
  writeFileSync(json, JSON.stringify(file));
  return { vision, json };
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await prisma().$disconnect();
});

const CONFIG = { visibility: ["implicit", "explicit"], acquired: ["characteristic", "occupation", "relation"], imagesPerPrompt: 2, itemsPerAcquired: 2 };

async function generated(config: object, seed: number) {
  const run = await engine.createRun(prisma(), { suite: "faintbench", models: ["baseline:synthetic-faces"], config, preset: "custom", seed });
  await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
  return run;
}

describe("FAIntbench read with CLIP", () => {
  // CLIP leases and readings on PostgreSQL: the hostile-posts and import tests below.
  it.skipIf(sqliteOnly)(
    "a CLIP run is read by CLIP only, records what read it, and is scored through the release's rules beside the paper",
    async () => {
      const files = writePair(path.join(dataDir, "models"), { seed: 3, dim: 8 });
      const run = await generated({ ...CONFIG, imagesPerPrompt: 1, instrument: "clip" }, 5);
      expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).labelInstrument).toBe("clip");
      const images = await prisma().image.count({ where: { runId: run.id } });
      expect(images).toBe(122);
      // The face pipeline never leases a CLIP run's images.
      expect((await engine.leaseImages(prisma(), { runId: run.id, instrument: "faces" })).images).toHaveLength(0);

      const clip = await createNodeClip({ vision: modelFile(files.vision), texts: clipTextsFile(files.json), threads: 1 });
      const done = await labelQueue(prisma(), deps, clip, { dataDir, runId: run.id, batch: 8 });
      expect(done).toMatchObject({ images: images, faces: 0, refused: 0 });
      expect(await prisma().image.count({ where: { runId: run.id, labelStatus: "labelled" } })).toBe(images);
      const readings = await prisma().imageReading.findMany({ where: { image: { runId: run.id } } });
      expect(readings).toHaveLength(images);
      expect(new Set(readings.map((r) => `${r.instrument} ${r.modelVersion} ${r.textsVersion} ${r.labelRuntime}`))).toEqual(
        new Set([`clip ${clip.visionFile.sha256} ${clip.textsSha256} node-cpu`]),
      );
      const groups = JSON.parse(readings[0].probsJson) as Record<string, number[]>;
      expect(Object.keys(groups).sort()).toEqual(Object.keys(CLIP_GROUPS).sort());
      for (const [g, v] of Object.entries(groups)) {
        expect(v, g).toHaveLength(CLIP_GROUPS[g as keyof typeof CLIP_GROUPS].length);
        expect(v.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      }

      const suite = suiteOf("faintbench");
      const views = await suite.results!({ prisma: prisma() }, { runId: run.id, labels: "model", verifiedOnly: false, resamples: 0 });
      const t2 = views.find((v) => v.id === "table2");
      if (t2?.kind !== "table") throw new Error("no table2");
      const ours = t2.groups[0].rows.find((r) => r.source === "run")!;
      for (const m of ["implicit", "explicit", "eta"]) {
        expect(ours.cells[m].value, m).not.toBeNull();
        expect(ours.cells[m].value!).toBeGreaterThanOrEqual(0);
        expect(ours.cells[m].value!).toBeLessThanOrEqual(1);
      }
      expect(t2.groups[0].rows.filter((r) => r.source === "published")).toHaveLength(7);
      expect(t2.caption).toMatch(/Instrument: CLIP on whole images.*read by clip-vit-l14-vision \(sha256 [0-9a-f]{12}…/);
      expect(t2.caption).toMatch(/do NOT come from OpenAI's ViT-L\/14 weights/);
      expect(t2.caption).toMatch(/dropped by the person check/);
      // Its evidence bundle carries every reading with what made it; a verifier re-scores from them (#58).
      const { writeBundle } = await import("../lib/features/evidence/bundle");
      const { verifyBundle } = await import("../lib/features/evidence/verify");
      const { signingKey } = await import("../lib/features/ledger/keys");
      const { tampered, rows, jsonl } = await import("./helpers/evidence");
      const bundle = path.join(dataDir, "clip-evidence.zip");
      await writeBundle(prisma(), run.id, bundle);
      const verified = await verifyBundle(bundle);
      expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
      const { browserRescore, comparable } = await import("./helpers/browser-rescorer");
      expect(comparable(await browserRescore(bundle))).toEqual(comparable(verified.scores));
      const reread = (e: Record<string, Uint8Array>) => {
        const rs = rows(e["image-readings.jsonl"]);
        expect(rs).toHaveLength(images);
        expect(rs[0]).toMatchObject({ instrument: "clip", modelVersion: clip.visionFile.sha256, textsVersion: clip.textsSha256 });
        for (const r of rs)
          r.probsJson = JSON.stringify(
            Object.fromEntries(Object.entries(JSON.parse(String(r.probsJson)) as Record<string, number[]>).map(([g, v]) => [g, [...v].reverse()])),
          );
        e["image-readings.jsonl"] = jsonl(rs);
      };
      const changed = await verifyBundle(tampered(bundle, dataDir, "clip-reread", reread, signingKey()));
      expect(changed.checks.find((c) => !c.ok)).toMatchObject({ check: "scores" });
      // The explicit levels explicit.py also computes: per requested class, and per category with the paper's
      // Tables 14–16 beside them (release profile); the paper-text profile files by category and shows no paper rows.
      const byId = (vs: typeof views, id: string) => {
        const v = vs.find((x) => x.id === id);
        if (v?.kind !== "table") throw new Error(`no ${id}`);
        return v;
      };
      expect(byId(views, "explicit-classes").columns.map((c) => c.id)).toEqual([
        "gender:male",
        "gender:female",
        "race:European",
        "race:East-Asian",
        "race:African",
        "race:Latino",
        "race:South-Asian",
        "age:young",
        "age:middle-aged",
        "age:elderly",
      ]);
      const occ = byId(views, "explicit-categories-occupation");
      expect(occ.columns).toHaveLength(15);
      const sdxl = occ.groups[0].rows.find((r) => r.labels[0] === "SDXL (paper)")!;
      expect(sdxl.cells["Management, Business, and Financial"].value).toBe(0.83744); // Table 15, "Business"
      expect(occ.columns.find((c) => c.id === "Management, Business, and Financial")!.label).toBe("Business");
      expect(byId(views, "explicit-categories-relation").columns.map((c) => c.label)).toEqual(["Intimate", "Instructional", "Hierarchical"]);
      const textViews = await suite.results!(
        { prisma: prisma() },
        { runId: run.id, labels: "model", verifiedOnly: false, resamples: 0, profile: "paper-text" },
      );
      expect(byId(textViews, "explicit-categories-occupation").groups[0].rows.filter((r) => r.source === "published")).toHaveLength(0);
      // The numbers carry the caution wherever they travel (JSON scores, row flags): a stand-in is not the paper's CLIP.
      const { genericSuiteOfRun, suiteResultsJson } = await import("../lib/suites/export");
      const body = await suiteResultsJson(prisma(), run.id, (await genericSuiteOfRun(prisma(), run.id))!, { labels: "model", resamples: 0 });
      expect(body.caution).toMatch(/CLIP texts from unknown weights/);
      expect(body.labelProvenance.readers).toEqual([
        { name: "clip-vit-l14-vision", sha256: clip.visionFile.sha256, weightsSha256: "0".repeat(64), known: false, images },
      ]);

      const lines = [];
      for await (const page of suite.exportLines!({ prisma: prisma() }, { runId: run.id, labels: "model" })) lines.push(...page);
      expect(lines).toHaveLength(images);
      expect(lines.every((l) => l.instrument === "clip")).toBe(true);
      const line = lines[0] as { clip: { sha256: string; weightsSha256: string; groups: object }; reading: { kind: string } | null };
      expect(line.clip).toMatchObject({ sha256: clip.visionFile.sha256, weightsSha256: "0".repeat(64) });
      if (line.reading) expect(["one", "relation"]).toContain(line.reading.kind);
    },
    240_000,
  );

  it.skipIf(sqliteOnly)(
    "`fof label` reads a CLIP run with the files it finds; a second instrument on the run is refused (409)",
    async () => {
      const files = writePair(path.join(dataDir, "models"), { seed: 3, dim: 8 });
      const run = await generated({ ...CONFIG, imagesPerPrompt: 1, instrument: "clip" }, 6);
      const env = { ...process.env, FOF_DATA_DIR: dataDir, FOF_LABEL_THREADS: "1" };
      const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "fof", "--", "label", run.id, "--batch", "16"], { env, maxBuffer: 16 << 20 });
      const body = JSON.parse(stdout) as { labelled: number; clip: { sha256: string } };
      expect(body.labelled).toBe(122);
      expect(body.clip.sha256).toBe(modelFile(files.vision).sha256);

      // Another tower and text file on the same run: refused, the lease given back.
      const other = writePair(path.join(dataDir, "other"), { seed: 4, dim: 8 });
      const second = await createNodeClip({ vision: modelFile(other.vision), texts: clipTextsFile(other.json) });
      const two = await prisma().image.findMany({ where: { runId: run.id }, take: 2, select: { id: true } });
      await prisma().imageReading.deleteMany({ where: { imageId: { in: two.map((t) => t.id) } } });
      await prisma().image.updateMany({ where: { id: { in: two.map((t) => t.id) } }, data: { labelStatus: "unlabelled" } });
      await expect(labelQueue(prisma(), deps, second, { dataDir, runId: run.id })).rejects.toThrow(/One run is read by one instrument/);
      expect(await prisma().image.count({ where: { runId: run.id, labelStatus: "leased" } })).toBe(0);
    },
    240_000,
  );

  it("refuses a mismatched pair, a tower that is not CLIP's, a text file lacking a text, and hostile posts", async () => {
    const dir = path.join(dataDir, "bad");
    const good = writePair(dir, { seed: 7, dim: 8 });
    const wide = writePair(path.join(dir, "wide"), { seed: 7, dim: 16 });
    await expect(createNodeClip({ vision: modelFile(wide.vision), texts: clipTextsFile(good.json) })).rejects.toThrow(
      /16-value embeddings; the text file was made for 8/,
    );
    const unpaired = writePair(path.join(dir, "unpaired"), { seed: 8, dim: 8 });
    await expect(createNodeClip({ vision: modelFile(unpaired.vision), texts: clipTextsFile(good.json) })).rejects.toThrow(/exported with vision tower/);
    const ultraface = path.resolve(__dirname, "../public/models/ultraface-rfb-320.onnx");
    await expect(createNodeClip({ vision: modelFile(ultraface), texts: clipTextsFile(good.json) })).rejects.toThrow(/not a CLIP vision tower/);
    writeFileSync(path.join(dir, "junk.json"), "{not json");
    expect(() => clipTextsFile(path.join(dir, "junk.json"))).toThrow(/not JSON/);
    const lacking = writePair(path.join(dir, "lacking"), { seed: 9, dim: 8, drop: ["East-asian"] });
    const l = await createNodeClip({ vision: modelFile(lacking.vision), texts: clipTextsFile(lacking.json) });
    await expect(readImages(l, [{ width: 4, height: 4, data: new Uint8Array(64).fill(128) }], CLIP_GROUPS)).rejects.toThrow(
      /lacks 1 of the instrument's texts/,
    );

    // Hostile posts: groups that are not the suite's, and readings for a faces run's images.
    const clipRun = await generated({ ...CONFIG, imagesPerPrompt: 1, itemsPerAcquired: 1, acquired: ["occupation"], instrument: "clip" }, 8);
    const lease = await engine.leaseImages(prisma(), { runId: clipRun.id, instrument: "clip", max: 2 });
    const post = (groups: Record<string, number[]>, leaseToken = lease.lease, imageId = lease.images[0].id, weightsSha256 = "3".repeat(64)) =>
      saveReadings(prisma(), {
        lease: leaseToken,
        model: { model: "x", sha256: "1".repeat(64) },
        texts: { sha256: "2".repeat(64), weightsSha256 },
        runtime: "node-cpu",
        results: [{ imageId, groups }],
      });
    await expect(post({ person: [0.5, 0.5] })).rejects.toThrow(/expected the groups .*missing or wrong size/);
    // A group named after the prototype's members is not a group of the suite (an `in` check took it for one).
    const allGroups = Object.fromEntries(Object.entries(CLIP_GROUPS).map(([k, t]) => [k, t.map(() => 1 / t.length)]));
    await expect(post({ ...allGroups, constructor: [0.5, 0.5] })).rejects.toThrow(/unknown: constructor/);
    await expect(post({ ...allGroups, toString: [0.5, 0.5] })).rejects.toThrow(/unknown: toString/);
    await expect(post({ person: [0.7, 0.7] })).rejects.toThrow(/must sum to 1/);
    const facesRun = await generated({ ...CONFIG, imagesPerPrompt: 1, itemsPerAcquired: 1, acquired: ["occupation"] }, 9);
    const facesLease = await engine.leaseImages(prisma(), { runId: facesRun.id, max: 1 });
    const uniform = Object.fromEntries(Object.entries(CLIP_GROUPS).map(([k, t]) => [k, t.map(() => 1 / t.length)]));
    await expect(post(uniform, facesLease.lease, facesLease.images[0].id)).rejects.toThrow(/not of a run read with CLIP/);
    // A well-formed post is stored; the same image again is refused as not held.
    expect(await post(uniform)).toEqual({ saved: 1, refused: [] });
    expect(await post(uniform)).toEqual({ saved: 0, refused: [lease.images[0].id] });
    // The run's next image, from the same tower and text file but claiming other weights: another instrument, refused.
    expect(lease.images.length).toBe(2);
    await expect(post(uniform, lease.lease, lease.images[1].id, "b8cca3fd41ae0c99ba7e8951adf17d267cdb84cd88be6f7c2e0eca1737a03836")).rejects.toThrow(
      /One run is read by one instrument/,
    );
  }, 240_000);

  it("imports the paper's layout as a CLIP run when asked (and refuses CLIP for a suite without it); the import is read and scored", async () => {
    const files = writePair(path.join(dataDir, "models"), { seed: 3, dim: 8 });
    await engine.upsertModel(prisma(), { slug: "elsewhere", label: "Images made elsewhere", modality: "t2i", provider: "import", modelId: "elsewhere" });
    const SHARED = path.resolve(__dirname, "../../shared/models/test-images");
    const photo = (f: string) => new Uint8Array(readFileSync(path.join(SHARED, f)));
    const images = [
      { name: "SDXL/a photo of a rich person/1.jpg", bytes: photo("grace-hopper-512.jpg") },
      { name: "SDXL/i-poor-person/1.png", bytes: photo("astronaut-eileen-collins.png") },
    ];
    await expect(engine.importImages(prisma(), dataDir, { modelSlug: "elsewhere", suite: "fact-or-fair", instrument: "clip", files: images })).rejects.toThrow(
      /no CLIP instrument/,
    );
    const r = await engine.importImages(prisma(), dataDir, { modelSlug: "elsewhere", suite: "faintbench", instrument: "clip", files: images });
    const run = await prisma().run.findUniqueOrThrow({ where: { id: r.runId } });
    expect(run.labelInstrument).toBe("clip");
    expect(JSON.parse(run.configJson)).toMatchObject({ instrument: "clip" });
    const { cachedSuiteResults } = await import("../lib/suites/results-cache");
    const req = { runId: run.id, labels: "model" as const, verifiedOnly: false, resamples: 0 };
    const before = await cachedSuiteResults(prisma(), suiteOf("faintbench"), req);
    const clip = await createNodeClip({ vision: modelFile(files.vision), texts: clipTextsFile(files.json) });
    expect((await labelQueue(prisma(), deps, clip, { dataDir, runId: run.id })).images).toBe(2);
    // The cached views follow the readings (a new state of the run's data is a new key).
    const views = await cachedSuiteResults(prisma(), suiteOf("faintbench"), req);
    expect(views).not.toEqual(before);
    const t2 = views.find((v) => v.id === "table2");
    if (t2?.kind !== "table") throw new Error("no table2");
    expect(t2.groups[0].rows.filter((x) => x.source === "published")).toHaveLength(7);
    expect(t2.caption).toMatch(/elsewhere: 2 images, \d dropped by the person check/);
  });
});
