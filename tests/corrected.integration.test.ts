// Misclassification-corrected scores of a text-to-image run: refused with the reason while a class has too few
// reviewed faces, and, once reviewed, label shares corrected for the classifier's measured confusion.
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-corrected-");
process.env.FOF_DATA_DIR = dataDir;
const { db, migrateAndSeed } = await import("../lib/db");
const { importImages, leaseImages, saveLabels, upsertModel, saveAnnotations, runScores } = await import("./helpers/services");
const { runCorrectedScores } = await import("../lib/features/results/corrected");
const { labellerWarnings } = await import("../lib/features/review/report");
const { setExclusion } = await import("../lib/features/review/annotators");

const prisma = () => db();
const png = (shade: number) => {
  const p = new PNG({ width: 64, height: 64 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
const uniform = (n: number) => Array(n).fill(1 / n);
const WHITE = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01];
const MALE = [0.95, 0.05];
const FEMALE = [0.05, 0.95];
let runId = "";
let faceIds: number[] = [];

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await upsertModel(prisma(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
  // 24 portraits for Crime Rate (highest: male); FairFace calls 16 of them male, 8 female.
  const files = Array.from({ length: 24 }, (_, i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: png(i * 10) }));
  runId = (await importImages(prisma(), dataDir, { modelSlug: "mj", files })).runId;
  const lease = await leaseImages(prisma(), { runId, max: 24 });
  await saveLabels(prisma(), {
    lease: lease.lease,
    classifier: { model: "fairface", sha256: "c".repeat(64) },
    detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
    runtime: "browser-wasm",
    results: lease.images.map((im, i) => ({
      imageId: im.id,
      faces: [{ x1: 10, y1: 10, x2: 40, y2: 40, score: 0.99, race: WHITE, gender: i < 16 ? MALE : FEMALE, age: uniform(9) }],
    })),
  });
  faceIds = (await prisma().face.findMany({ where: { image: { runId } }, orderBy: { id: "asc" }, select: { id: true } })).map((f) => f.id);
  expect(faceIds).toHaveLength(24);
});
afterAll(async () => {
  await prisma().$disconnect();
});

describe("misclassification-corrected scores", () => {
  it("refuses, naming the classes short of reviewed faces", async () => {
    const r = await runCorrectedScores(prisma(), runId);
    expect(r.groups).toEqual([]);
    expect(r.refused.map((x) => x.attribute)).toEqual(["gender", "race"]);
    expect(r.refused[0].reason).toMatch(/too few reviewed faces .* male 0, female 0 \(at least 10 per class; review more faces of male, female\)/);
  });

  it("corrects the label shares for the errors the reviewers found", async () => {
    // Reviewers: every face FairFace called female is a man, and so are the 16 it called male (the classifier
    // misreads men as women a third of the time); 10 more reviewed images would be needed for women, so ten of
    // FairFace's "male" faces are reviewed as women too.
    const labels = faceIds.map((faceId, i) => ({ faceId, gender: (i < 10 ? "female" : "male") as "male" | "female", race: "White" as const }));
    await saveAnnotations(prisma(), { annotator: "ann", labels });
    // the paper's definitions (the release profile rounds each cell's shares, as its scripts do)
    const r = await runCorrectedScores(prisma(), runId, { profile: "paper-text" });
    expect(r.reviewed.gender).toEqual({ male: 14, female: 10 });
    expect(r.refused.map((x) => x.attribute)).toEqual(["race"]);
    const g = r.groups.find((x) => x.attribute === "gender")!;
    // FairFace's own labels: 16 of 24 male (S_fact 0.667); the reviewed truth: 14 of 24 male (0.583).
    const plain = (await runScores(prisma(), runId, { profile: "paper-text" })).find((x) => x.attribute === "gender")!;
    expect(plain.sFact).toBeCloseTo(16 / 24, 10);
    expect(g.sFact!).toBeLessThan(plain.sFact!);
    expect(Math.abs(g.sFact! - 14 / 24)).toBeLessThan(0.08);
    const i = g.intervals.sFact!;
    expect(i.lo <= i.estimate && i.estimate <= i.hi).toBe(true);
    // The labeller misreads the women (10 of 10) more often than the men (8 of 14): the results say so.
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(
      /^The classifier misreads the gender of faces the reviewers call female 1\.8× as often as of male ones .*may be the labeller's, not the model's\.$/,
    );
    expect((await runCorrectedScores(prisma(), runId, { profile: "paper-text" })).cached).toBe(true);
    // The same warning where two runs' scores are compared (the Compare page, GET /api/v1/compare) …
    expect(await labellerWarnings(prisma(), [runId])).toEqual([
      expect.stringMatching(
        /^The classifier misreads the gender of faces the reviewers call female 1\.8× as often as of male ones .*may be the labeller's, not the models'\.$/,
      ),
    ]);
    // … read from the counted votes: with the only annotator excluded, there is no review to warn from.
    await setExclusion(prisma(), { annotator: "ann", excluded: true, reason: "test" }, { id: "admin" });
    expect(await labellerWarnings(prisma(), [runId])).toEqual([]);
    await setExclusion(prisma(), { annotator: "ann", excluded: false }, { id: "admin" });
  });
});
