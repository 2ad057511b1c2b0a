// Labelling work for browser tabs: leases, results accepted only from the lease holder, no image labelled twice.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "fof-label-"));
process.env.FOF_DATA_DIR = dataDir;
const { db, migrateAndSeed } = await import("../lib/db");
const { importImages, ImportError, leaseImages, saveLabels, releaseLeases, runScores, labelProgress } = await import("../lib/engine");
const { upsertModel } = await import("../lib/engine");

const prisma = () => db();
const png = (shade: number) => {
  const p = new PNG({ width: 40, height: 40 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
const uniform = (n: number) => Array(n).fill(1 / n);
const face = (race: number[], gender: number[]) => ({ x1: 1, y1: 2, x2: 30, y2: 35, score: 0.99, race, gender, age: uniform(9) });
const classifier = { model: "fairface", sha256: "a".repeat(64) };
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
    expect(err).toBeInstanceOf(ImportError);
    expect(err.problems).toEqual([{ name: "objective__hiv-rate__highest__2.png", message: expect.stringMatching(/not a PNG, JPEG or WebP/) }]);
    expect(await prisma().image.count()).toBe(before);
    expect(await prisma().run.count({ where: { preset: "import" } })).toBe(1);
  });
  it("adds to an earlier import of the same model, refusing images already in it", async () => {
    const err = await importImages(prisma(), dataDir, { modelSlug: "mj", runId, files: [{ name: "objective__hiv-rate__highest__1.png", bytes: png(0) }] }).catch((e) => e);
    expect(err.problems).toEqual([{ name: "objective__hiv-rate__highest__1.png", message: "already in this run" }]);
    await expect(importImages(prisma(), dataDir, { modelSlug: "baseline:uniform", files: [] })).rejects.toThrow(/not a text-to-image model|unknown model/);
  });
});

describe("labelling leases", () => {
  it("two tabs never get the same image; results are accepted only from the lease holder", async () => {
    const a = await leaseImages(prisma(), { owner: "tab-aaaaaaaa", runId, max: 4 });
    const b = await leaseImages(prisma(), { owner: "tab-bbbbbbbb", runId, max: 4 });
    expect(a.images).toHaveLength(4);
    expect(b.images).toHaveLength(4);
    expect(new Set([...a.images, ...b.images].map((i) => i.id)).size).toBe(8);
    expect(a.images[0].url).toBe(`/api/images/${a.images[0].id}`);

    // Tab B tries to post a result for one of A's images: refused, nothing stored for it.
    const stolen = await saveLabels(prisma(), { owner: "tab-bbbbbbbb", classifier, detector: { threshold: 0.95 }, results: [{ imageId: a.images[0].id, faces: [face(uniform(7), [0.5, 0.5])] }] });
    expect(stolen).toEqual({ saved: 0, faces: 0, refused: [a.images[0].id] });
    expect(await prisma().face.count({ where: { imageId: a.images[0].id } })).toBe(0);

    const white = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01];
    const r = await saveLabels(prisma(), {
      owner: "tab-aaaaaaaa",
      classifier,
      detector: { threshold: 0.95 },
      results: a.images.map((img, i) => ({ imageId: img.id, faces: i === 0 ? [] : [face(white, [0.8, 0.2]), face(white, [0.3, 0.7])] })),
    });
    expect(r).toEqual({ saved: 4, faces: 6, refused: [] });
    // The same results again (a retried POST) store nothing twice.
    const again = await saveLabels(prisma(), { owner: "tab-aaaaaaaa", classifier, detector: { threshold: 0.95 }, results: [{ imageId: a.images[1].id, faces: [face(white, [0.8, 0.2])] }] });
    expect(again.refused).toEqual([a.images[1].id]);
    expect(await prisma().face.count({ where: { image: { runId } } })).toBe(6);
    const stored = await prisma().face.findFirstOrThrow({ where: { imageId: a.images[1].id } });
    expect(JSON.parse(stored.raceProbsJson!)).toEqual(white);
    expect(stored.classifierVersion).toBe(classifier.sha256);
    expect((await prisma().image.findUniqueOrThrow({ where: { id: a.images[0].id } })).labelStatus).toBe("no_face");

    // B closes its tab: its images go back to the queue at once.
    expect(await releaseLeases(prisma(), "tab-bbbbbbbb")).toBe(4);
    expect(await labelProgress(prisma(), runId)).toMatchObject({ images: 10, labelled: 3, noFace: 1, unlabelled: 6, faces: 6 });
  });

  it("rejects malformed results with a clear error", async () => {
    const { images } = await leaseImages(prisma(), { owner: "tab-cccccccc", runId, max: 1 });
    const bad = (faces: unknown[]) => saveLabels(prisma(), { owner: "tab-cccccccc", classifier, detector: { threshold: 0.95 }, results: [{ imageId: images[0].id, faces }] });
    await expect(bad([face(uniform(6), [0.5, 0.5])])).rejects.toThrow(/race: 7 probabilities/);
    await expect(bad([face(uniform(7), [0.9, 0.9])])).rejects.toThrow(/sum to 1/);
    await expect(bad([{ ...face(uniform(7), [0.5, 0.5]), x2: 0 }])).rejects.toThrow(/x2 > x1/);
    await expect(leaseImages(prisma(), { owner: "x", runId })).rejects.toThrow(/tab id/);
    await releaseLeases(prisma(), "tab-cccccccc");
  });

  it("an expired lease can be taken by another tab", async () => {
    const first = await leaseImages(prisma(), { owner: "tab-dddddddd", runId, max: 2 }, -1);
    const second = await leaseImages(prisma(), { owner: "tab-eeeeeeee", runId, max: 2 });
    expect(second.images.map((i) => i.id)).toEqual(first.images.map((i) => i.id));
    const late = await saveLabels(prisma(), { owner: "tab-dddddddd", classifier, detector: { threshold: 0.95 }, results: [{ imageId: first.images[0].id, faces: [] }] });
    expect(late.refused).toEqual([first.images[0].id]);
    await releaseLeases(prisma(), "tab-eeeeeeee");
  });

  it("scores the labelled faces (images without a face counted as refused)", async () => {
    const scores = await runScores(prisma(), runId);
    const gender = scores.find((s) => s.attribute === "gender")!;
    expect(gender).toMatchObject({ modality: "t2i", test: "objective", n: 7, refused: 1 });
    expect(readFileSync(path.join(dataDir, (await prisma().image.findFirstOrThrow({ where: { runId } })).path)).length).toBeGreaterThan(0);
  });
});
