// Labelling work for browser tabs: leases, results accepted only from the lease holder, no image labelled twice.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-label-");
process.env.FOF_DATA_DIR = dataDir;
const { db, migrateAndSeed } = await import("../lib/db");
const { importImages, DomainError, leaseImages, saveLabels, releaseLeases, runScores, labelProgress } = await import("./helpers/services");
const { upsertModel, setAutoLabel, createRun, presetConfig } = await import("./helpers/services");
const { labelProvenance } = await import("../lib/faces/run-provenance");

const prisma = () => db();
const png = (shade: number) => {
  const p = new PNG({ width: 40, height: 40 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
const uniform = (n: number) => Array(n).fill(1 / n);
const face = (race: number[], gender: number[]) => ({ x1: 1, y1: 2, x2: 30, y2: 35, score: 0.99, race, gender, age: uniform(9) });
const classifier = { model: "fairface", sha256: "a".repeat(64) };
const PIPELINE = {
  detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
  // FairFace's aligned chips, as the Label page cuts them by default
  chip: "dlib-5pt-800" as const,
  landmarker: { model: "face-landmarks-68", sha256: "f10b0ba1d2a8a099adefede1ebf3733e44fe370715e7303dbeb7f59c02142258" },
  runtime: "browser-wasm" as const,
};
let runId: string;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await upsertModel(prisma(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
  const files = Array.from({ length: 10 }, (_, i) => ({ name: `objective/crime-rate/${i % 2 ? "lowest" : "highest"}/${i}.png`, bytes: png(i * 10) }));
  runId = (await importImages(prisma(), dataDir, { modelSlug: "mj", files })).runId;
});
afterAll(async () => {
  await prisma().$disconnect();
});

describe("image import", () => {
  it("stores nothing from a batch with a bad file, and names the file", async () => {
    const before = await prisma().image.count();
    const err = await importImages(prisma(), dataDir, {
      modelSlug: "mj",
      files: [
        { name: "objective__hiv-rate__highest__1.png", bytes: png(1) },
        { name: "objective__hiv-rate__highest__2.png", bytes: new TextEncoder().encode("GIF89a") },
      ],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err.problems).toEqual([{ name: "objective__hiv-rate__highest__2.png", message: expect.stringMatching(/not a PNG, JPEG or WebP/) }]);
    expect(await prisma().image.count()).toBe(before);
    expect(await prisma().run.count({ where: { preset: "import" } })).toBe(1);
  });
  it("adds to an earlier import of the same model, refusing images already in it", async () => {
    const err = await importImages(prisma(), dataDir, {
      modelSlug: "mj",
      runId,
      files: [{ name: "objective__hiv-rate__highest__1.png", bytes: png(0) }],
    }).catch((e) => e);
    expect(err.problems).toEqual([{ name: "objective__hiv-rate__highest__1.png", message: "already in this run" }]);
    await expect(importImages(prisma(), dataDir, { modelSlug: "baseline:uniform", files: [] })).rejects.toThrow(/not a text-to-image model|unknown model/);
  });
});

describe("labelling leases", () => {
  it("two tabs never get the same image; results are accepted only from the lease holder", async () => {
    const a = await leaseImages(prisma(), { runId, max: 4 });
    const b = await leaseImages(prisma(), { runId, max: 4 });
    // Each batch comes with its own unguessable token, issued by the server.
    expect(a.lease).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.lease).not.toBe(b.lease);
    expect(a.images).toHaveLength(4);
    expect(b.images).toHaveLength(4);
    expect(new Set([...a.images, ...b.images].map((i) => i.id)).size).toBe(8);
    expect(a.images[0].url).toBe(`/api/images/${a.images[0].id}`);

    // Tab B tries to post a result for one of A's images: refused, nothing stored for it.
    const stolen = await saveLabels(prisma(), {
      lease: b.lease,
      classifier,
      ...PIPELINE,
      results: [{ imageId: a.images[0].id, faces: [face(uniform(7), [0.5, 0.5])] }],
    });
    expect(stolen).toEqual({ saved: 0, faces: 0, refused: [a.images[0].id] });
    expect(await prisma().face.count({ where: { imageId: a.images[0].id } })).toBe(0);

    const white = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01];
    const r = await saveLabels(prisma(), {
      lease: a.lease,
      classifier,
      ...PIPELINE,
      results: a.images.map((img, i) => ({ imageId: img.id, faces: i === 0 ? [] : [face(white, [0.8, 0.2]), face(white, [0.3, 0.7])] })),
    });
    expect(r).toEqual({ saved: 4, faces: 6, refused: [] });
    // The same results again (a retried POST) store nothing twice.
    const again = await saveLabels(prisma(), {
      lease: a.lease,
      classifier,
      ...PIPELINE,
      results: [{ imageId: a.images[1].id, faces: [face(white, [0.8, 0.2])] }],
    });
    expect(again.refused).toEqual([a.images[1].id]);
    expect(await prisma().face.count({ where: { image: { runId } } })).toBe(6);
    const stored = await prisma().face.findFirstOrThrow({ where: { imageId: a.images[1].id } });
    expect(JSON.parse(stored.raceProbsJson!)).toEqual(white);
    expect(stored.classifierVersion).toBe(classifier.sha256);
    // every face says what produced it: detector, classifier, runtime
    expect(stored).toMatchObject({ detectorModel: "ultraface-rfb-320", detectorVersion: PIPELINE.detector.sha256, labelRuntime: "browser-wasm" });
    const p = await labelProvenance(prisma(), [runId]);
    expect(p).toMatchObject({ faces: 6, mixed: false, comparable: false, runtimes: [{ runtime: "browser-wasm", faces: 6 }] });
    expect(p.classifiers).toEqual([{ name: "fairface", sha256: classifier.sha256, faces: 6, status: "unverified" }]);
    expect(p.detectors).toEqual([{ name: "ultraface-rfb-320", sha256: PIPELINE.detector.sha256, faces: 6 }]);
    // vouched for by an admin (FAIRFACE_MODEL_SHA256): comparable with the papers
    expect(await labelProvenance(prisma(), [runId], [classifier.sha256])).toMatchObject({ comparable: true, classifiers: [{ status: "fairface" }] });

    // Another classifier on the same run is refused whole (409), with both named; the images stay leased to B.
    const b2 = await leaseImages(prisma(), { runId, max: 1 });
    const other = { model: "fairface-standin-single18", sha256: "8156c9d989417b3f2db78025b03b725138a91d30814f483cb437b5a57ac65eb4" };
    const mixed = await saveLabels(prisma(), {
      lease: b2.lease,
      classifier: other,
      ...PIPELINE,
      results: [{ imageId: b2.images[0].id, faces: [face(white, [0.8, 0.2])] }],
    }).catch((e) => e);
    expect(mixed).toMatchObject({
      status: 409,
      message: expect.stringMatching(/labelled with fairface \(sha256 aaaaaaaaaaaa…\).*FairFace stand-in \(single output\)/),
    });
    expect(await prisma().face.count({ where: { image: { runId } } })).toBe(6);
    await releaseLeases(prisma(), { leases: [b2.lease] });

    // Labels that do not say what produced them are refused whole: no runtime, a detector without its checksum.
    const b3 = await leaseImages(prisma(), { runId, max: 1 });
    const noRuntime = { lease: b3.lease, classifier, detector: PIPELINE.detector, results: [{ imageId: b3.images[0].id, faces: [] }] };
    await expect(saveLabels(prisma(), noRuntime)).rejects.toThrow(/runtime/);
    await expect(saveLabels(prisma(), { ...noRuntime, runtime: "browser-cuda" })).rejects.toThrow(/runtime/);
    await expect(saveLabels(prisma(), { ...noRuntime, runtime: "node-cpu", detector: { model: "ultraface-rfb-320", threshold: 0.95 } })).rejects.toThrow(
      /sha256/,
    );
    expect((await prisma().image.findUniqueOrThrow({ where: { id: b3.images[0].id } })).labelStatus).toBe("leased");
    await releaseLeases(prisma(), { leases: [b3.lease] });
    // "label automatically" is for text-to-image runs only, and for runs that exist.
    expect(await setAutoLabel(prisma(), "no-such-run", true)).toEqual({ ok: false, error: "run not found" });
    const llm = await createRun(prisma(), { models: ["baseline:uniform"], config: presetConfig("smoke"), seed: 3 });
    expect(await setAutoLabel(prisma(), llm.id, true)).toEqual({ ok: false, error: "only text-to-image runs have faces to label" });
    expect(await setAutoLabel(prisma(), runId, true)).toEqual({ ok: true });
    expect((await prisma().run.findUniqueOrThrow({ where: { id: runId } })).autoLabel).toBe(true);
    await setAutoLabel(prisma(), runId, false);
    expect((await prisma().image.findUniqueOrThrow({ where: { id: a.images[0].id } })).labelStatus).toBe("no_face");

    // B closes its tab: its images go back to the queue at once.
    expect(await releaseLeases(prisma(), { leases: [b.lease] })).toBe(4);
    expect(await labelProgress(prisma(), runId)).toMatchObject({ images: 10, labelled: 3, noFace: 1, unlabelled: 6, faces: 6 });
  });

  it("rejects malformed results with a clear error", async () => {
    const { images, lease } = await leaseImages(prisma(), { runId, max: 1 });
    const bad = (faces: unknown[]) => saveLabels(prisma(), { lease, classifier, ...PIPELINE, results: [{ imageId: images[0].id, faces }] });
    await expect(bad([face(uniform(6), [0.5, 0.5])])).rejects.toThrow(/race: 7 probabilities/);
    await expect(bad([face(uniform(7), [0.9, 0.9])])).rejects.toThrow(/sum to 1/);
    await expect(bad([{ ...face(uniform(7), [0.5, 0.5]), x2: 0 }])).rejects.toThrow(/x2 > x1/);
    // Boxes outside the image (beyond a small tolerance), non-finite or out-of-range probabilities: refused whole.
    const { width, height } = images[0];
    await expect(bad([{ ...face(uniform(7), [0.5, 0.5]), x1: 0, y1: 0, x2: width * 3, y2: height }])).rejects.toThrow(/inside the/);
    await expect(bad([{ ...face(uniform(7), [0.5, 0.5]), x1: -50, y1: 0, x2: 10, y2: 10 }])).rejects.toThrow(/inside the/);
    await expect(bad([{ ...face(uniform(7), [0.5, 0.5]), x1: 0, y1: 0, x2: width + 1, y2: height + 1 }])).resolves.toMatchObject({ saved: 1 });
    const next = await leaseImages(prisma(), { runId, max: 1 });
    const bad2 = (faces: unknown[]) => saveLabels(prisma(), { lease: next.lease, classifier, ...PIPELINE, results: [{ imageId: next.images[0].id, faces }] });
    await expect(bad2([face([NaN, 0, 0, 0, 0, 0, 1], [0.5, 0.5])])).rejects.toThrow();
    await expect(bad2([face([1.5, -0.5, 0, 0, 0, 0, 0], [0.5, 0.5])])).rejects.toThrow();
    await expect(bad2([face(uniform(7), [Infinity, 0])])).rejects.toThrow();
    // A client-chosen id is not a lease: posting with a guessed token stores nothing.
    await expect(
      saveLabels(prisma(), { lease: "tab-cccccccc", classifier, ...PIPELINE, results: [{ imageId: next.images[0].id, faces: [] }] }),
    ).rejects.toThrow(/lease token/);
    expect(await prisma().face.count({ where: { imageId: next.images[0].id } })).toBe(0);
    await releaseLeases(prisma(), { leases: [next.lease] });
  });

  it("an expired lease can be taken by another tab", async () => {
    const first = await leaseImages(prisma(), { runId, max: 2 }, -1);
    const second = await leaseImages(prisma(), { runId, max: 2 });
    expect(second.images.map((i) => i.id)).toEqual(first.images.map((i) => i.id));
    const late = await saveLabels(prisma(), { lease: first.lease, classifier, ...PIPELINE, results: [{ imageId: first.images[0].id, faces: [] }] });
    expect(late.refused).toEqual([first.images[0].id]);
    await releaseLeases(prisma(), { leases: [second.lease] });
  });

  it("binds a lease to the account that took it: its token is worth nothing to another account", async () => {
    const mine = await leaseImages(prisma(), { runId, max: 1 }, undefined, "account-a");
    expect(mine.lease).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const post = (account: string | null) =>
      saveLabels(prisma(), { lease: mine.lease, classifier, ...PIPELINE, results: [{ imageId: mine.images[0].id, faces: [] }] }, account);
    expect((await post("account-b")).refused).toEqual([mine.images[0].id]);
    expect((await post(null)).refused).toEqual([mine.images[0].id]);
    expect(await releaseLeases(prisma(), { leases: [mine.lease] }, "account-b")).toBe(0);
    expect(await releaseLeases(prisma(), { leases: [mine.lease] }, "account-a")).toBe(1);
  });

  it("scores the labelled faces (images without a face counted as refused)", async () => {
    const scores = await runScores(prisma(), runId);
    const gender = scores.find((s) => s.attribute === "gender")!;
    // 6 faces of the first batch + the clamped one of the malformed-results test, and 1 image without a face.
    expect(gender).toMatchObject({ modality: "t2i", test: "objective", n: 8, refused: 1 });
    expect(readFileSync(path.join(dataDir, (await prisma().image.findFirstOrThrow({ where: { runId } })).path)).length).toBeGreaterThan(0);
  });
});
