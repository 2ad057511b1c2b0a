// Annotators measured (#35 item 5) against a real SQLite database: gold faces marked by an admin (audited, only
// reviewed faces, labels checked), served blind in annotators' queues at the configured rate, accuracy and
// agreement with intervals, and an annotator's votes excluded from every consensus and restored (audited).
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-annotators-");
process.env.FOF_DATA_DIR = dataDir;
const { db, migrateAndSeed } = await import("../lib/db");
const { importImages, leaseImages, saveLabels, upsertModel, saveAnnotations, reviewQueue, createAssignment, reviewReport, runRecords, DomainError } =
  await import("./helpers/services");
const { setGold, setExclusion } = await import("../lib/features/review/annotators");
const goldRoute = await import("../app/api/review/gold/route");
const exclusionRoute = await import("../app/api/review/exclusions/route");
const { sessionCookie } = await import("./helpers/session");
const { publicUrl } = await import("../lib/core/public-url");

const prisma = () => db();
const png = (shade: number) => {
  const p = new PNG({ width: 64, height: 64 });
  p.data.fill(shade);
  return new Uint8Array(PNG.sync.write(p));
};
const WHITE = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01];
const MALE = [0.95, 0.05];
const admin = { id: "admin-1" };
let runId: string;
let faceIds: number[];

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await upsertModel(prisma(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
  const files = Array.from({ length: 30 }, (_, i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: png(i * 8) }));
  runId = (await importImages(prisma(), dataDir, { modelSlug: "mj", files })).runId;
  const lease = await leaseImages(prisma(), { runId, max: 30 });
  await saveLabels(prisma(), {
    lease: lease.lease,
    classifier: { model: "fairface", sha256: "b".repeat(64) },
    detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
    runtime: "browser-wasm",
    results: lease.images.map((im) => ({
      imageId: im.id,
      faces: [{ x1: 10, y1: 10, x2: 40, y2: 40, score: 0.99, race: WHITE, gender: MALE, age: Array(9).fill(1 / 9) }],
    })),
  });
  faceIds = (await prisma().face.findMany({ where: { image: { runId } }, orderBy: { id: "asc" }, select: { id: true } })).map((f) => f.id);
  expect(faceIds).toHaveLength(30);
  // Faces 0–5 reviewed by ann and bo (agreeing: female Black); cy labels 0–5 wrongly (male White).
  const six = faceIds.slice(0, 6);
  await saveAnnotations(prisma(), { annotator: "ann", labels: six.map((faceId) => ({ faceId, gender: "female", race: "Black" })) });
  await saveAnnotations(prisma(), { annotator: "bo", labels: six.map((faceId) => ({ faceId, gender: "female", race: "Black" })) });
  await saveAnnotations(prisma(), { annotator: "cy", labels: six.map((faceId) => ({ faceId, gender: "male", race: "White" })) });
});
afterAll(async () => {
  await prisma().$disconnect();
});

const auditOf = (action: string) => prisma().auditLog.findMany({ where: { action }, orderBy: { id: "asc" } });

describe("gold faces", () => {
  it("are reviewed faces with checked labels; marking and unmarking are audited", async () => {
    await expect(setGold(prisma(), { faceId: faceIds[20], gold: true }, admin)).rejects.toThrow(/no label yet/);
    await expect(setGold(prisma(), { faceId: faceIds[0], gold: true, values: { race: "Martian" } }, admin)).rejects.toThrow(/not one of/);
    await expect(setGold(prisma(), { faceId: faceIds[0], gold: false }, admin)).rejects.toThrow(/is not gold/);
    // the majority (ann, bo against cy) is taken when no labels are given
    for (const id of faceIds.slice(0, 4))
      expect((await setGold(prisma(), { faceId: id, gold: true }, admin)).gold).toEqual({ gender: "female", race: "Black" });
    await setGold(prisma(), { faceId: faceIds[3], gold: false }, admin);
    expect(await prisma().goldLabel.count()).toBe(3);
    const marked = await auditOf("face.gold");
    expect(marked).toHaveLength(4);
    expect(JSON.parse(marked[0].detailsJson)).toMatchObject({ labels: { gender: "female", race: "Black" } });
    expect(marked[0].userId).toBe("admin-1");
    expect(await auditOf("face.ungold")).toHaveLength(1);
  });

  it("measure each annotator: accuracy on gold and agreement with the others, with intervals", async () => {
    const { quality } = await reviewReport(prisma(), { runId });
    expect(quality.gold).toBe(3);
    const of = (a: string) => quality.annotators.find((q) => q.annotator === a)!;
    // 3 gold faces × 2 attributes
    expect([of("ann").gold.agree, of("ann").gold.n]).toEqual([6, 6]);
    expect([of("cy").gold.agree, of("cy").gold.n]).toEqual([0, 6]);
    expect(of("cy").gold.hi!).toBeLessThan(0.5);
    expect(of("ann").gold.lo!).toBeGreaterThan(0.5);
    // 6 faces × 2 attributes against the others' majority: ann's others (bo, cy) split → no majority; cy's (ann, bo) agree
    expect(of("ann").peers.n).toBe(0);
    expect([of("cy").peers.agree, of("cy").peers.n]).toEqual([0, 12]);
  });

  it("are served blind in an annotator's own queue at the configured rate, never as a page's cursor, and not again once labelled", async () => {
    const { id: assignmentId } = await createAssignment(prisma(), {
      name: "gold half",
      runIds: [runId],
      annotators: ["dee"],
      perModel: 30,
      overlap: 1,
      goldRate: 0.5,
    });
    const page = await reviewQueue(prisma(), { assignmentId, annotator: "dee", state: "unreviewed", pageSize: 12 });
    const gold = new Set(faceIds.slice(0, 3));
    const served = page.faces.filter((f) => gold.has(f.id));
    expect(served.length).toBeGreaterThan(0);
    // Blind: nobody's label, no majority — like any face nobody labelled.
    for (const f of served) {
      expect(f.labels).toEqual([]);
      expect(f.consensus.annotators).toBe(0);
      expect(f).not.toHaveProperty("gold");
    }
    // …and so are the other faces of the queue (a gold face cannot be told apart by its labels)
    for (const f of page.faces) expect(f.labels).toEqual([]);
    expect(gold.has(page.next!)).toBe(false);
    // The same mix on a reload.
    expect((await reviewQueue(prisma(), { assignmentId, annotator: "dee", state: "unreviewed", pageSize: 12 })).faces.map((f) => f.id)).toEqual(
      page.faces.map((f) => f.id),
    );
    // Labelled: not served again, and the label counts for dee's accuracy.
    await saveAnnotations(prisma(), { annotator: "dee", labels: served.map((f) => ({ faceId: f.id, gender: "female", race: "White" })) });
    const again = await reviewQueue(prisma(), { assignmentId, annotator: "dee", state: "unreviewed", pageSize: 12 });
    for (const f of again.faces) expect(served.map((s) => s.id)).not.toContain(f.id);
    const dee = (await reviewReport(prisma(), { runId })).quality.annotators.find((q) => q.annotator === "dee")!;
    expect([dee.gold.agree, dee.gold.n]).toEqual([served.length, served.length * 2]);
    // Outside one's own queue, faces show their labels as before.
    const all = await reviewQueue(prisma(), { runId, annotator: "dee", pageSize: 3 });
    expect(all.faces[0].labels.length).toBeGreaterThan(0);
    // Rate 0: no gold.
    const { id: none } = await createAssignment(prisma(), { name: "no gold", runIds: [runId], annotators: ["eve"], perModel: 30, overlap: 1, goldRate: 0 });
    const plain = await reviewQueue(prisma(), { assignmentId: none, annotator: "eve", state: "unreviewed", pageSize: 30 });
    expect(plain.faces.map((f) => f.id)).toEqual([...plain.faces.map((f) => f.id)].sort((a, b) => a - b));
  });
});

describe("excluding an annotator", () => {
  const human = async () =>
    (await runRecords(prisma(), runId, { labels: "reviewed" }))
      .filter((r) => "faceId" in r && faceIds.slice(3, 6).includes((r as { faceId: number }).faceId) && r.attribute === "gender")
      .map((r) => (r as unknown as { humanAnswer: string | null }).humanAnswer);

  it("leaves their votes out of every consensus until restored, audited both ways with the reason", async () => {
    // ann and bo outvote cy: female.
    expect(new Set(await human())).toEqual(new Set(["female"]));
    await expect(setExclusion(prisma(), { annotator: "nobody", excluded: true, reason: "test" }, admin)).rejects.toBeInstanceOf(DomainError);
    await expect(setExclusion(prisma(), { annotator: "ann", excluded: true, reason: "" }, admin)).rejects.toThrow();
    await setExclusion(prisma(), { annotator: "ann", excluded: true, reason: "careless on gold" }, admin);
    await setExclusion(prisma(), { annotator: "bo", excluded: true, reason: "same device as ann" }, admin);
    // Only cy counts now: male, on scores, the queue's majority and the report.
    expect(new Set(await human())).toEqual(new Set(["male"]));
    const [face] = (await reviewQueue(prisma(), { runId, pageSize: 1, after: faceIds[3] })).faces;
    expect(face.consensus).toMatchObject({ annotators: 1, gender: "male" });
    expect(face.labels.find((l) => l.annotator === "ann")?.excluded).toBe(true);
    const report = await reviewReport(prisma(), { runId });
    expect(report.quality.annotators.find((q) => q.annotator === "ann")?.excluded).toMatchObject({ reason: "careless on gold", by: "admin-1" });
    // ann and bo are nobody's peers now: cy is compared with dee alone, on the faces dee labelled.
    const byDee = await prisma().annotation.count({ where: { annotator: "dee", faceId: { in: faceIds.slice(0, 6) } } });
    expect(report.quality.annotators.find((q) => q.annotator === "cy")?.peers.n).toBe(byDee * 2);
    await expect(setExclusion(prisma(), { annotator: "ann", excluded: true, reason: "again" }, admin)).rejects.toThrow(/already excluded/);
    await setExclusion(prisma(), { annotator: "ann", excluded: false }, admin);
    await setExclusion(prisma(), { annotator: "bo", excluded: false }, admin);
    expect(new Set(await human())).toEqual(new Set(["female"]));
    const out = await auditOf("annotator.exclude");
    expect(out.map((a) => [a.targetId, JSON.parse(a.detailsJson).reason])).toEqual([
      ["ann", "careless on gold"],
      ["bo", "same device as ann"],
    ]);
    expect((await auditOf("annotator.restore")).map((a) => a.targetId)).toEqual(["ann", "bo"]);
  });
});

describe("routes", () => {
  const put = (handler: typeof goldRoute.PUT, path: string, body: unknown, cookie: string) =>
    handler(
      new Request(`${publicUrl()}${path}`, {
        method: "PUT",
        headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", cookie },
        body: JSON.stringify(body),
      }),
    );

  it("are for admins only; others are refused before anything changes", async () => {
    const reviewer = await sessionCookie("reviewer");
    const annotator = await sessionCookie("annotator");
    const adminCookie = await sessionCookie("admin");
    for (const cookie of [reviewer, annotator]) {
      const refused = await put(goldRoute.PUT, "/api/review/gold", { faceId: faceIds[4], gold: true }, cookie);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toMatch(/may not mark gold faces/);
      expect((await put(exclusionRoute.PUT, "/api/review/exclusions", { annotator: "cy", excluded: true, reason: "nope" }, cookie)).status).toBe(403);
      const get = await goldRoute.GET(new Request(`${publicUrl()}/api/review/gold?faceId=${faceIds[0]}`, { headers: { cookie } }));
      expect(get.status).toBe(403);
    }
    expect(await prisma().goldLabel.count({ where: { faceId: faceIds[4] } })).toBe(0);
    const ok = await put(goldRoute.PUT, "/api/review/gold", { faceId: faceIds[4], gold: true }, adminCookie);
    expect(ok.status, await ok.clone().text()).toBe(200);
    const read = await goldRoute.GET(new Request(`${publicUrl()}/api/review/gold?faceId=${faceIds[4]}`, { headers: { cookie: adminCookie } }));
    expect(await read.json()).toMatchObject({ gold: { gender: "female", race: "Black" } });
    expect((await put(goldRoute.PUT, "/api/review/gold", { faceId: "x", gold: true }, adminCookie)).status).toBe(400);
    expect((await put(exclusionRoute.PUT, "/api/review/exclusions", { annotator: "cy", excluded: true }, adminCookie)).status).toBe(400);
  });
});
