// Evidence bundles of text-to-image runs (issue #58): every image's hash with its faces, the raw class
// probabilities and what produced them (detector, classifier and its file hash), human labels, fixed detections,
// gold labels and exclusions — people as pseudonyms. A verifier re-scores from the pipeline's labels and from the
// reviewed ones; a changed label, a dropped image and a changed review are each caught and named. FACT-OR-FAIR on
// imported images (hand-set probabilities), DoFaiR and FAIntbench on the synthetic image model labelled by the real
// face pipeline (UltraFace + the FairFace stand-in, WASM). The browser verifier's re-scorer (run under Node) reaches
// every value as `fof verify` does.
import { generateKeyPairSync } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
const dir = testDataDir("evidence-images-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { setExclusion, setGold } = await import("../lib/features/review/annotators");
const { checkBundleFiles } = await import("../lib/evidence/check");
const { labelRun } = await import("./helpers/label-run");
const { tampered, rows, jsonl, text, sha } = await import("./helpers/evidence");
const { browserRescore, comparable } = await import("./helpers/browser-rescorer");
type Entries = import("./helpers/evidence").Entries;

const prisma = () => db();
const png = (shade: number) => {
  const p = new PNG({ width: 64, height: 64 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
// FairFace race order: White, Black, Latino_Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern
const WHITE = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01];
const BLACK = [0.05, 0.85, 0.04, 0.02, 0.02, 0.01, 0.01];
const MALE = [0.95, 0.05];
const ALICE = "Alice Example-Annotator";
const BOB = "Bob Example-Annotator";
const CAROL = "Carol Example-Annotator";
const ADMIN = { id: "admin-user-7f3a" };
const REASON = "canary-reason: labelled without looking";
let pem = "";

const failed = async (file: string) => {
  const r = await verifyBundle(file, { publicKeyPem: pem });
  expect(r.ok).toBe(false);
  return r.checks.find((c) => !c.ok)!;
};
const verified = async (file: string, opts: { browser?: boolean } = {}) => {
  const r = await verifyBundle(file, { publicKeyPem: pem });
  expect(r.checks.filter((c) => !c.ok)).toEqual([]);
  if (opts.browser) expect(comparable(await browserRescore(file))).toEqual(comparable(r.scores));
  return r;
};

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  pem = publicKeyInfo().pem;
});

describe("evidence bundles of text-to-image runs", () => {
  let bundle = "";
  beforeAll(async () => {
    await engine.upsertModel(prisma(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
    // Crime Rate: highest gender male, highest race Black. Ten images; the last has no face.
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: png(i * 20) }));
    const { runId } = await engine.importImages(prisma(), dir, { modelSlug: "mj", files });
    const lease = await engine.leaseImages(prisma(), { runId, max: 10 });
    await engine.saveLabels(prisma(), {
      lease: lease.lease,
      classifier: { model: "fairface", sha256: "b".repeat(64) },
      detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
      runtime: "browser-wasm",
      results: lease.images.map((im, i) => ({
        imageId: im.id,
        faces: i === 9 ? [] : [{ x1: 10, y1: 10, x2: 40, y2: 40, score: 0.99, race: i < 3 ? BLACK : WHITE, gender: MALE, age: Array(9).fill(1 / 9) }],
      })),
    });
    const faces = (await prisma().face.findMany({ where: { image: { runId } }, orderBy: { id: "asc" }, select: { id: true } })).map((f) => f.id);
    // Alice and Bob correct faces 3–5 to Black (a majority); Carol labels them White and is then excluded.
    const corrected = faces.slice(3, 6).map((faceId) => ({ faceId, gender: "male", race: "Black" }));
    await engine.saveAnnotations(prisma(), { annotator: ALICE, labels: corrected });
    await engine.saveAnnotations(prisma(), { annotator: BOB, labels: corrected });
    await engine.saveAnnotations(prisma(), { annotator: CAROL, labels: faces.slice(3, 6).map((faceId) => ({ faceId, gender: "female", race: "White" })) });
    await setExclusion(prisma(), { annotator: CAROL, excluded: true, reason: REASON }, ADMIN);
    await setGold(prisma(), { faceId: faces[3], gold: true }, ADMIN);
    // a false detection deleted, and a face drawn by hand on the image without one
    await engine.updateFace(prisma(), faces[8], { annotator: ALICE, deleted: true });
    const noFace = await prisma().image.findFirstOrThrow({ where: { runId, labelStatus: "no_face" } });
    const drawn = await engine.addFace(prisma(), { annotator: BOB, imageId: noFace.id, box: { x1: 5, y1: 5, x2: 60, y2: 60 } });
    await engine.saveAnnotations(prisma(), { annotator: BOB, labels: [{ faceId: drawn.id, gender: "male", race: "Black" }] });
    bundle = path.join(dir, "images.zip");
    await writeBundle(prisma(), runId, bundle);
  }, 120_000);
  const copy = (name: string, change: (e: Entries) => void, resign?: ReturnType<typeof signingKey>) => tampered(bundle, dir, name, change, resign);

  it("carries every image's hash, its faces with label provenance, the human labels, gold and exclusions — people as pseudonyms", async () => {
    const e = unzipSync(readFileSync(bundle));
    const images = rows(e["images.jsonl"]);
    expect(images).toHaveLength(10);
    for (const im of images) expect(im.sha256).toMatch(/^[0-9a-f]{64}$/);
    const faces = rows(e["faces.jsonl"]);
    expect(faces).toHaveLength(10);
    expect(faces.filter((f) => f.source === "detector")[0]).toMatchObject({
      classifierModel: "fairface",
      classifierVersion: "b".repeat(64),
      detectorVersion: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854",
      labelRuntime: "browser-wasm",
      raceProbsJson: expect.stringContaining("0.85"),
    });
    expect(rows(e["annotations.jsonl"])).toHaveLength(10);
    expect(rows(e["annotation-values.jsonl"]).length).toBeGreaterThanOrEqual(20);
    expect(rows(e["gold-labels.jsonl"])).toHaveLength(1);
    const [exclusion] = rows(e["annotator-exclusions.jsonl"]);
    const all = Object.values(e).map(text).join("\n");
    for (const who of [ALICE, BOB, CAROL, ADMIN.id, REASON]) expect(all).not.toContain(who);
    // the same person, the same pseudonym, in every table
    const people = new Set(rows(e["annotations.jsonl"]).map((a) => a.annotator as string));
    expect(people.size).toBe(3);
    for (const p of people) expect(p).toMatch(/^person-[0-9a-f]{12}$/);
    expect(people.has(exclusion.annotator as string)).toBe(true);
    expect(faces.find((f) => f.source === "manual")!.createdBy).toMatch(/^person-/);
    expect(people.has(faces.find((f) => f.source === "manual")!.createdBy as string)).toBe(true);
  });

  it("verifies, re-scoring from the pipeline's labels and from the reviewed ones — and the reviews moved the scores", async () => {
    const r = await verified(bundle);
    expect(r.ok).toBe(true);
    const at = (p: RegExp) => r.scores.filter((s) => p.test(s.path));
    const model = at(/^scores\.groups\[.*race\]\.sFact$/);
    const reviewed = at(/^reviewedScores\.groups\[.*race\]\.sFact$/);
    expect(model).toHaveLength(1);
    expect(reviewed).toHaveLength(1);
    // the pipeline: 3 of 9 faces Black; reviewed: faces 3–5 corrected (Carol's votes out), face 8 deleted, one drawn
    // 3 of 9 faces, then 7 of 9, as the release computes S_fact: each cell's share of the truth, rounded to 2 decimals
    expect(model[0].recomputed).toBe(0.33);
    expect(reviewed[0].recomputed).toBe(0.78);
    expect(at(/^reviewedScores\.intervals\..*\.lo$/).length).toBeGreaterThan(0);
    // the browser verifier's re-scorer reaches every value the same
    expect(comparable(await browserRescore(bundle))).toEqual(comparable(r.scores));
  });

  it("names a changed label: a changed file for an outsider, scores that do not follow for an insider", async () => {
    const relabel = (e: Entries) => {
      const faces = rows(e["faces.jsonl"]);
      const f = faces.find((x) => x.source === "detector" && String(x.raceProbsJson).includes("0.85"))!;
      f.raceProbsJson = JSON.stringify(WHITE);
      e["faces.jsonl"] = jsonl(faces);
    };
    expect(await failed(copy("label", relabel))).toMatchObject({ check: "files", detail: expect.stringContaining("faces.jsonl: changed") });
    const insider = await failed(copy("label-resigned", relabel, signingKey()));
    expect(insider.check).toBe("scores");
    expect(insider.detail).toMatch(/^\d+ of \d+ values do not follow from the data: .*scores\.groups\[.*race\]/);
    // a human label changed: only the reviewed scores move
    const review = (e: Entries) => {
      const values = rows(e["annotation-values.jsonl"]);
      for (const v of values) if (v.attribute === "race" && v.value === "Black") v.value = "White";
      e["annotation-values.jsonl"] = jsonl(values);
    };
    const reviewer = await failed(copy("review-resigned", review, signingKey()));
    expect(reviewer.check).toBe("scores");
    expect(reviewer.detail).toMatch(/reviewedScores\./);
    expect(reviewer.detail).not.toMatch(/; scores\./);
  });

  it("names a dropped image, a dropped human label and another signer", async () => {
    const dropImage = (e: Entries) => void (e["images.jsonl"] = jsonl(rows(e["images.jsonl"]).slice(1)));
    expect(await failed(copy("image-resigned", dropImage, signingKey()))).toMatchObject({
      check: "completeness",
      detail: expect.stringMatching(/face \d+ is on image \S+, which the bundle does not have/),
    });
    const dropLabel = (e: Entries) => void (e["annotations.jsonl"] = jsonl(rows(e["annotations.jsonl"]).slice(1)));
    expect(await failed(copy("annotation-resigned", dropLabel, signingKey()))).toMatchObject({
      check: "completeness",
      detail: expect.stringMatching(/a label value of label \d+, which the bundle does not have/),
    });
    expect(await failed(copy("image-other", dropImage, generateKeyPairSync("ed25519").privateKey))).toMatchObject({ check: "signature" });
  });

  it("reaches the same verdicts in the browser verifier's checks", async () => {
    const { verify, createPublicKey } = await import("node:crypto");
    const nodeCrypto = {
      sha256: async (b: Uint8Array) => sha(b),
      verify: async (message: Uint8Array, sig: Uint8Array, keyPem: string) => verify(null, message, createPublicKey(keyPem), sig),
    };
    const check = async (file: string) =>
      checkBundleFiles(unzipSync(readFileSync(file)), nodeCrypto, { publicKeyPem: pem, embeddedKeyName: "signer-public-key.pem" });
    expect((await check(bundle)).checks.every((c) => c.ok)).toBe(true);
    expect((await check(path.join(dir, "image-resigned.zip"))).checks.at(-1)).toMatchObject({
      check: "completeness",
      ok: false,
      detail: expect.stringMatching(/face \d+ is on image/),
    });
  });
});

describe.skipIf(!hasShared)("evidence bundles of DoFaiR and FAIntbench runs, labelled by the face pipeline", () => {
  it("a DoFaiR run (guidance queries, generated images) verifies; a dropped image is named by its query", async () => {
    const run = await engine.createRun(prisma(), {
      suite: "dofair",
      models: ["baseline:synthetic-faces"],
      config: { dimensions: ["race", "gender"], methods: ["baseline"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 4 },
      preset: "custom",
      seed: 3,
    });
    await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    await labelRun(prisma(), engine, dir, run.id);
    const file = path.join(dir, "dofair.zip");
    await writeBundle(prisma(), run.id, file);
    const r = await verified(file, { browser: true });
    expect(r.scores.filter((s) => s.path.startsWith("reviewedScores[")).length).toBeGreaterThan(10);
    const e = unzipSync(readFileSync(file));
    expect(rows(e["faces.jsonl"])[0]).toMatchObject({ classifierModel: expect.any(String), classifierVersion: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const dropImage = (x: Entries) => {
      const images = rows(x["images.jsonl"]);
      const gone = images[0].id;
      x["images.jsonl"] = jsonl(images.slice(1));
      x["faces.jsonl"] = jsonl(rows(x["faces.jsonl"]).filter((f) => f.imageId !== gone));
    };
    expect(await failed(tampered(file, dir, "dofair-image", dropImage, signingKey()))).toMatchObject({
      check: "completeness",
      detail: expect.stringMatching(/query \d+ was answered with an image the bundle does not have/),
    });
  }, 300_000);

  it("a FAIntbench run verifies, and a changed age label is caught", async () => {
    const run = await engine.createRun(prisma(), {
      suite: "faintbench",
      models: ["baseline:synthetic-faces"],
      config: { visibility: ["implicit"], acquired: ["characteristic"], imagesPerPrompt: 1, itemsPerAcquired: 2 },
      preset: "custom",
      seed: 5,
    });
    await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    await labelRun(prisma(), engine, dir, run.id);
    const file = path.join(dir, "faintbench.zip");
    await writeBundle(prisma(), run.id, file);
    await verified(file, { browser: true });
    const age = (x: Entries) => {
      const faces = rows(x["faces.jsonl"]);
      for (const f of faces) if (f.ageProbsJson) f.ageProbsJson = JSON.stringify([0.9, 0.1 / 8, 0.1 / 8, 0.1 / 8, 0.1 / 8, 0.1 / 8, 0.1 / 8, 0.1 / 8, 0.1 / 8]);
      x["faces.jsonl"] = jsonl(faces);
    };
    expect(await failed(tampered(file, dir, "faint-age", age, signingKey()))).toMatchObject({ check: "scores" });
  }, 300_000);
});
