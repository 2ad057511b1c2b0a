// Review of face labels against a real SQLite database: append-only labels (no lost writes under concurrency),
// undo, detection fixes, the queue's filters and cursors, assignments, agreement, the detector report, and the
// run's T2I scores following the review.
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-review-");
process.env.FOF_DATA_DIR = dataDir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const {
  importImages,
  leaseImages,
  saveLabels,
  upsertModel,
  saveAnnotations,
  reviewQueue,
  addFace,
  updateFace,
  createAssignment,
  listAssignments,
  reviewReport,
  runScores,
  DomainError,
} = engine;

const prisma = () => db();
const png = (shade: number) => {
  const p = new PNG({ width: 64, height: 64 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
const uniform = (n: number) => Array(n).fill(1 / n);
// FairFace race order: White, Black, Latino_Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern
const WHITE = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01];
const BLACK_UNSURE = [0.3, 0.4, 0.1, 0.1, 0.05, 0.03, 0.02];
const MALE = [0.95, 0.05];
let runId: string;
let faceIds: number[];

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await upsertModel(prisma(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
  // Crime Rate: highest gender male, highest race Black.
  const files = Array.from({ length: 8 }, (_, i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: png(i * 20) }));
  runId = (await importImages(prisma(), dataDir, { modelSlug: "mj", files })).runId;
  const lease = await leaseImages(prisma(), { runId, max: 8 });
  await saveLabels(prisma(), {
    lease: lease.lease,
    classifier: { model: "fairface", sha256: "b".repeat(64) },
    detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
    runtime: "browser-wasm",
    results: lease.images.map((im, i) => ({
      imageId: im.id,
      faces: i === 7 ? [] : [{ x1: 10, y1: 10, x2: 40, y2: 40, score: 0.99, race: i < 2 ? BLACK_UNSURE : WHITE, gender: MALE, age: uniform(9) }],
    })),
  });
  faceIds = (await prisma().face.findMany({ where: { image: { runId } }, orderBy: { id: "asc" }, select: { id: true } })).map((f) => f.id);
  expect(faceIds).toHaveLength(7);
});
afterAll(async () => {
  await prisma().$disconnect();
});

const gender = (scores: Awaited<ReturnType<typeof runScores>>, attribute: "gender" | "race") => scores.find((s) => s.attribute === attribute)!;

describe("annotations", () => {
  it("keeps both labels when two annotators label the same face at the same moment", async () => {
    const id = faceIds[0];
    await Promise.all([
      saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: id, gender: "male", race: "Black" }] }),
      saveAnnotations(prisma(), { annotator: "bo", labels: [{ faceId: id, gender: "male", race: "White" }] }),
      saveAnnotations(prisma(), { annotator: "cy", labels: [{ faceId: id, gender: "female", race: "Black" }] }),
    ]);
    const [face] = (await reviewQueue(prisma(), { runId, annotator: "ann", pageSize: 1 })).faces;
    expect(face.labels.map((l) => l.annotator).sort()).toEqual(["ann", "bo", "cy"]);
    expect(face.consensus).toMatchObject({ annotators: 3, gender: "male", race: "Black", disagreement: true });
    expect(face.mine).toMatchObject({ gender: "male", race: "Black" });
  });

  it("undo appends the previous state, and an empty label withdraws it", async () => {
    const id = faceIds[1];
    await saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: id, gender: "male", race: "Asian" }] });
    await saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: id, gender: null, race: null }] });
    const page = await reviewQueue(prisma(), { runId, annotator: "ann", state: "unreviewed" });
    expect(page.faces.map((f) => f.id)).toContain(id);
    expect(await prisma().annotation.count({ where: { faceId: id } })).toBe(2); // nothing is overwritten
  });

  it("stores a class per attribute as a row (values by attribute id, or by name), read back as the same label", async () => {
    const id = faceIds[4];
    await saveAnnotations(prisma(), { annotator: "dee", labels: [{ faceId: id, values: { gender: "female", race: "Hispanic" } }] });
    const rows = await prisma().annotation.findMany({
      where: { faceId: id, annotator: "dee" },
      select: { values: { select: { attribute: true, value: true }, orderBy: { attribute: "asc" } } },
    });
    expect(rows).toEqual([
      {
        values: [
          { attribute: "gender", value: "female" },
          { attribute: "race", value: "Hispanic" },
        ],
      },
    ]);
    const face = (await reviewQueue(prisma(), { runId, annotator: "dee", pageSize: 200 })).faces.find((f) => f.id === id)!;
    expect(face.mine).toMatchObject({ gender: "female", race: "Hispanic" });
    // Withdrawn again (an empty label: a row without values), so the faces the later tests count are as they were.
    await saveAnnotations(prisma(), { annotator: "dee", labels: [{ faceId: id, values: {} }] });
    expect((await reviewQueue(prisma(), { runId, annotator: "dee", pageSize: 200 })).faces.find((f) => f.id === id)!.mine).toBeNull();
  });

  it("validates at the boundary and writes nothing from a bad batch", async () => {
    const before = await prisma().annotation.count();
    // A FACT-OR-FAIR face takes its 4 races only: FairFace's native class (another suite's) is refused, whole batch.
    await expect(
      saveAnnotations(prisma(), {
        annotator: "ann",
        labels: [
          { faceId: faceIds[2], gender: "male", race: "Black" },
          { faceId: faceIds[3], gender: "male", race: "East Asian" },
        ],
      }),
    ).rejects.toThrow(/race "East Asian" is not one of Asian, Black, Hispanic, White/);
    await expect(
      saveAnnotations(prisma(), {
        annotator: "ann",
        labels: [
          { faceId: faceIds[2], gender: "male", race: "Black" },
          { faceId: 999_999, gender: "male", race: null },
        ],
      }),
    ).rejects.toThrow(/999999 not found/);
    await expect(saveAnnotations(prisma(), { annotator: "", labels: [{ faceId: faceIds[2], gender: "male", race: null }] })).rejects.toThrow(
      /annotator name required/,
    );
    await expect(saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: faceIds[2], gender: "male", race: null, notAFace: true }] })).rejects.toThrow(
      /not a face/,
    );
    await expect(saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: faceIds[2], gender: "other" as "male", race: null }] })).rejects.toThrow();
    // Attributes are data: one the face's suite does not declare is refused by name; one given twice must agree.
    await expect(saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: faceIds[2], values: { skin_tone: "III" } }] })).rejects.toThrow(
      /carry no skin_tone label/,
    );
    await expect(
      saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: faceIds[2], gender: "male", values: { gender: "female" } }] }),
    ).rejects.toThrow(/gender given twice/);
    await expect(saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: faceIds[2], values: { "Bad Key": "x" } }] })).rejects.toThrow(/attribute id/);
    expect(await prisma().annotation.count()).toBe(before);
  });
});

describe("the review queue", () => {
  it("filters by state and confidence, and pages by cursor without skipping faces labelled meanwhile", async () => {
    const low = await reviewQueue(prisma(), { runId, confidenceBelow: 0.6 });
    expect(low.faces.map((f) => f.id)).toEqual([faceIds[0], faceIds[1]]); // the two unsure "Black" faces (p = 0.4)
    expect(low.faces[0].prediction).toMatchObject({ gender: "male", race: "Black", raceConfidence: 0.4, fairface: { race: "Black" } });
    const dis = await reviewQueue(prisma(), { runId, state: "disagreement" });
    expect(dis.faces.map((f) => f.id)).toEqual([faceIds[0]]);
    await expect(reviewQueue(prisma(), { runId, state: "unreviewed" })).rejects.toBeInstanceOf(DomainError);

    const p1 = await reviewQueue(prisma(), { runId, annotator: "dee", state: "unreviewed", pageSize: 3 });
    expect(p1.faces.map((f) => f.id)).toEqual(faceIds.slice(0, 3));
    // dee labels the whole first page; the next page still starts right after it
    await saveAnnotations(prisma(), { annotator: "dee", labels: p1.faces.map((f) => ({ faceId: f.id, gender: "male", race: "White" })) });
    const p2 = await reviewQueue(prisma(), { runId, annotator: "dee", state: "unreviewed", pageSize: 3, after: p1.next! });
    expect(p2.faces.map((f) => f.id)).toEqual(faceIds.slice(3, 6));
    const p3 = await reviewQueue(prisma(), { runId, annotator: "dee", state: "unreviewed", pageSize: 3, after: p2.next! });
    expect(p3.faces.map((f) => f.id)).toEqual(faceIds.slice(6));
    expect(p3.next).toBeNull();
    const back = await reviewQueue(prisma(), { runId, annotator: "dee", pageSize: 3, before: p3.faces[0].id });
    expect(back.faces.map((f) => f.id)).toEqual(faceIds.slice(3, 6));
    // withdraw dee's labels again (undo) so later expectations do not depend on them
    await saveAnnotations(prisma(), { annotator: "dee", labels: p1.faces.map((f) => ({ faceId: f.id, gender: null, race: null })) });
  });
});

describe("scores follow the review", () => {
  it("model labels stay the pipeline's; reviewed labels take the majority, fixed detections and non-faces", async () => {
    const modelBefore = await runScores(prisma(), runId, { labels: "model", profile: "paper-text" });
    // model: 7 faces male; race Black on faces 0–1, White on 2–6 → race S_fact 2/7; one image without a face
    expect(gender(modelBefore, "race")).toMatchObject({ n: 8, refused: 1, sFact: 2 / 7 });

    // two annotators call face 2 Black (a majority of two), face 3 is not a face, face 4's detection is deleted,
    // and a missed face is drawn on the image that had none.
    await saveAnnotations(prisma(), {
      annotator: "ann",
      labels: [
        { faceId: faceIds[2], gender: "male", race: "Black" },
        { faceId: faceIds[3], gender: null, race: null, notAFace: true },
      ],
    });
    await saveAnnotations(prisma(), {
      annotator: "bo",
      labels: [
        { faceId: faceIds[2], gender: "male", race: "Black" },
        { faceId: faceIds[3], gender: null, race: null, notAFace: true },
      ],
    });
    await updateFace(prisma(), faceIds[4], { annotator: "ann", deleted: true });
    const noFaceImage = await prisma().image.findFirstOrThrow({ where: { runId, labelStatus: "no_face" } });
    // A box far outside the image is refused; a pixel of overhang (a drag past the edge) is clamped.
    await expect(addFace(prisma(), { annotator: "ann", imageId: noFaceImage.id, box: { x1: 5, y1: 5, x2: 60, y2: 70 } })).rejects.toThrow(
      /inside the 64 × 64 image/,
    );
    const drawn = await addFace(prisma(), { annotator: "ann", imageId: noFaceImage.id, box: { x1: 5, y1: 5, x2: 60, y2: 65 } });
    expect(drawn).toMatchObject({ source: "manual", createdBy: "ann", prediction: null, box: { x1: 5, y1: 5, x2: 60, y2: 64 } });
    await saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: drawn.id, gender: "female", race: "Black" }] });

    expect(await runScores(prisma(), runId, { labels: "model", profile: "paper-text" })).toEqual(modelBefore);
    const reviewed = await runScores(prisma(), runId, { labels: "reviewed", profile: "paper-text" });
    // faces: 0 (Black by majority), 1 (model Black), 2 (Black by majority), 5, 6 (White), drawn (Black) → 4/6;
    // the images of faces 3 (not a face) and 4 (deleted) are now images without a face: counted, not scored
    expect(gender(reviewed, "race")).toMatchObject({ n: 8, refused: 2, sFact: 4 / 6 });
    expect(gender(reviewed, "gender")).toMatchObject({ n: 8, refused: 2, sFact: 5 / 6 });

    // deleting is undoable; a deleted face cannot be labelled
    await expect(saveAnnotations(prisma(), { annotator: "ann", labels: [{ faceId: faceIds[4], gender: "male", race: null }] })).rejects.toThrow(/deleted/);
    await updateFace(prisma(), faceIds[4], { annotator: "ann", deleted: false });
    expect(gender(await runScores(prisma(), runId, { labels: "reviewed", profile: "paper-text" }), "race")).toMatchObject({ n: 8, refused: 1 });
    await updateFace(prisma(), faceIds[4], { annotator: "ann", deleted: true });

    // a hand-drawn face takes the browser classifier's output; detector faces keep the pipeline's
    const classifier = { model: "fairface", sha256: "b".repeat(64) };
    // a different classifier than the one the run is labelled with is refused: one run, one instrument
    const probabilities = { race: WHITE, gender: [0.1, 0.9], age: uniform(9) };
    await expect(
      updateFace(prisma(), drawn.id, { annotator: "ann", classifier: { model: "fairface", sha256: "c".repeat(64) }, runtime: "browser-wasm", probabilities }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await updateFace(prisma(), drawn.id, { annotator: "ann", classifier, runtime: "browser-wasm", probabilities })).prediction).toMatchObject({
      gender: "female",
      race: "White",
    });
    await expect(updateFace(prisma(), faceIds[0], { annotator: "ann", classifier, runtime: "browser-wasm", probabilities })).rejects.toThrow(/hand-drawn/);
    // Another reviewer cannot replace the classification of a face someone else drew.
    const other = { race: [1, 0, 0, 0, 0, 0, 0], gender: [1, 0], age: probabilities.age };
    await expect(updateFace(prisma(), drawn.id, { annotator: "bo", classifier, runtime: "browser-wasm", probabilities: other })).rejects.toMatchObject({
      status: 403,
    });
    expect((await updateFace(prisma(), drawn.id, { annotator: "ann", classifier, runtime: "browser-wasm", probabilities })).prediction).toMatchObject({
      gender: "female",
      race: "White",
    });
    await expect(addFace(prisma(), { annotator: "ann", imageId: noFaceImage.id, box: { x1: 60, y1: 60, x2: 65, y2: 65 } })).rejects.toThrow(/8 × 8/);
    await expect(addFace(prisma(), { annotator: "ann", imageId: noFaceImage.id, box: { x1: 60, y1: 60, x2: 200, y2: 200 } })).rejects.toThrow(/inside the/);
  });
});

describe("assignments, agreement and the detector report", () => {
  it("deals a seeded sample with overlap and reports progress", async () => {
    await expect(createAssignment(prisma(), { name: "x", runIds: [runId], annotators: ["ann"], overlap: 2 })).rejects.toThrow(/cannot exceed/);
    const a = await createAssignment(prisma(), { name: "pilot", runIds: [runId], annotators: ["ann", "bo", "cy"], perModel: 6, overlap: 2 });
    expect(a).toMatchObject({ images: 6, items: 12 });
    const [listed] = await listAssignments(prisma());
    expect(listed).toMatchObject({ name: "pilot", images: 6, overlap: 2, perModel: 6 });
    expect(listed.annotators.map((x) => x.images)).toEqual([4, 4, 4]);
    // nobody picks the seed: the runs' own, by ordinal (a second assignment of the same runs draws another sample)
    const { faceSampleSeed } = await import("../lib/features/review/assignments");
    const run = (await prisma().run.findUnique({ where: { id: runId }, select: { id: true, seed: true } }))!;
    expect((await prisma().assignment.findUnique({ where: { id: a.id } }))!.seed).toBe(faceSampleSeed([run], 0));
    expect(faceSampleSeed([run], 1)).not.toBe(faceSampleSeed([run], 0));
    const mine = await reviewQueue(prisma(), { assignmentId: a.id, annotator: "cy" });
    const cyImages = new Set((await prisma().assignmentItem.findMany({ where: { assignmentId: a.id, annotator: "cy" } })).map((i) => i.imageId));
    expect(mine.faces.every((f) => cyImages.has(f.imageId))).toBe(true);
  });

  it("computes kappa per attribute and the classifier's errors against the human majority", async () => {
    const r = await reviewReport(prisma(), { runId });
    expect(r.annotators.map((a) => a.name)).toEqual(["ann", "bo", "cy"]);
    // ann, bo and cy all labelled face 0 only: gender m/m/f, race B/W/B
    expect(r.agreement.overall.gender).toMatchObject({ method: "fleiss", items: 1, raters: 3 });
    const annBo = r.agreement.pairs.find((p) => p.annotators.join() === "ann,bo")!;
    expect(annBo.kappa.race).toMatchObject({ method: "cohen", items: 2, observed: 0.5 }); // faces 0 and 2 (3 is not a face)
    expect(annBo.kappa.face).toMatchObject({ items: 3, observed: 1 });
    // faces with a human majority: 0 (male, Black; model male, Black), 2 (male, Black; model male, White) and the
    // drawn one (female, Black; classified female, White)
    expect(r.detector.gender).toMatchObject({ n: 3, errors: 0, errorRate: 0 });
    expect(r.detector.race.paper).toMatchObject({ n: 3, errors: 2 });
    expect(r.detector.race.paper.confusion.Black).toEqual({ Asian: 0, Black: 1, Hispanic: 0, White: 2 });
    // detector: faces 0, 2, 3 reviewed and 4 deleted; 3 and 4 were false detections; one face was missed
    expect(r.detector.detection).toEqual({ detectorFaces: 4, falsePositives: 2, missed: 1 });
  });

  it("pages the annotator pairs and counts them in one pass with hundreds of annotators; constant labels give kappa n/a", async () => {
    const faces = await prisma().face.findMany({ where: { image: { runId }, deleted: false }, select: { id: true }, take: 4 });
    // 120 annotators, each labelling the same faces as male / White: 7,140 pairs, every kappa undefined (constant).
    const names = Array.from({ length: 120 }, (_, i) => `crowd-${String(i).padStart(3, "0")}`);
    for (const annotator of names)
      for (const f of faces)
        await prisma().annotation.create({
          data: {
            faceId: f.id,
            annotator,
            values: {
              create: [
                { attribute: "gender", value: "male" },
                { attribute: "race", value: "White" },
              ],
            },
          },
        });
    const r = await reviewReport(prisma(), { runId });
    expect(r.annotatorCount).toBeGreaterThanOrEqual(120);
    expect(r.agreement.pairCount).toBeGreaterThanOrEqual((120 * 119) / 2);
    expect(r.agreement.pairs).toHaveLength(50);
    const crowd = r.agreement.pairs.find((p) => p.annotators.every((a) => a.startsWith("crowd-")));
    if (crowd) expect(crowd.kappa.gender?.kappa).toBeNull();
    const page2 = await reviewReport(prisma(), { runId, page: 2 });
    expect(page2.agreement.pairs[0].annotators).not.toEqual(r.agreement.pairs[0].annotators);
    expect(r.annotators.length).toBeLessThanOrEqual(100);
    await prisma().annotation.deleteMany({ where: { annotator: { startsWith: "crowd-" } } });
  });
});

describe("annotators are accounts", () => {
  it("turns the typed names of older labels into placeholder accounts, keeping every label and the agreement", async () => {
    const { adoptNameOnlyAnnotators } = await import("../lib/auth/legacy");
    const before = await reviewReport(prisma(), { runId });
    const names = before.annotators.map((a) => a.name).filter((n) => !/^[0-9a-f-]{36}$/.test(n));
    expect(names.length).toBeGreaterThan(0);
    const adopted = await adoptNameOnlyAnnotators(prisma());
    expect(adopted).toBeGreaterThanOrEqual(names.length);
    expect(adopted).toBe(await prisma().user.count({ where: { placeholder: true } }));
    const after = await reviewReport(prisma(), { runId });
    const users = await prisma().user.findMany({ where: { placeholder: true } });
    expect(users.map((u) => u.name).sort()).toEqual(expect.arrayContaining(names.sort()));
    expect(users.every((u) => u.disabled && u.role === "annotator")).toBe(true);
    // Same labels, same agreement, now by account.
    expect(after.annotators.map((a) => a.labelled).sort()).toEqual(before.annotators.map((a) => a.labelled).sort());
    expect(after.agreement.pairs.map((p) => p.kappa.gender?.kappa ?? null)).toEqual(before.agreement.pairs.map((p) => p.kappa.gender?.kappa ?? null));
    expect(after.annotators.every((a) => users.some((u) => u.id === a.name))).toBe(true);
    // Idempotent.
    expect(await adoptNameOnlyAnnotators(prisma())).toBe(0);
  });
});
