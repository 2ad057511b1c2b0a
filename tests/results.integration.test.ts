// The results engine on a real (baseline) run: SQL aggregation equals scoring every record, context-influence counts,
// cached bootstrap intervals, and the answers behind a breakdown cell.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-results-");

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { createRun, presetConfig, Worker, aggregatedRecords, runRecords, runDetailed, runScores, runInfluenceCounts, runIntervals, cellQueries, designRecords } =
  engine;
const { scoreGroups } = await import("../lib/metrics");
const { contextInfluence } = await import("../lib/results/context");
const { breakdownRows } = await import("../lib/results/breakdown");
const { runIdsParam } = await import("../lib/results/selection");

const prisma = () => db();
let runId = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const config = presetConfig("smoke", { objectiveRepeats: 2, subjectiveRepeats: 2 });
  const run = await createRun(prisma(), { models: ["baseline:calibrated:0.8", "baseline:uniform"], config, seed: 11 });
  runId = run.id;
  await new Worker(prisma(), { runId, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
});
afterAll(async () => {
  await prisma().$disconnect();
});

describe("results engine", () => {
  it("aggregates in SQL to exactly the scores of every record", async () => {
    const records = await runRecords(prisma(), runId);
    const aggregated = await aggregatedRecords(prisma(), runId);
    expect(aggregated.length).toBeLessThan(records.length);
    expect(aggregated.reduce((a, r) => a + (r.count ?? 1), 0)).toBe(records.length);
    expect(await runScores(prisma(), runId)).toEqual(scoreGroups(records));
    const one = await aggregatedRecords(prisma(), runId, { modelSlug: "baseline:uniform" });
    expect(new Set(one.map((r) => r.model))).toEqual(new Set(["baseline:uniform"]));
  });

  it("counts context influence in SQL exactly as from the raw queries", async () => {
    const rows = await prisma().query.findMany({
      where: { runId, test: "subjective", context: { in: ["representativeness", "attribution", "ingroup"] }, outcome: { status: "answered" } },
      include: { outcome: true, modelConfig: { select: { slug: true } } },
    });
    expect(rows.length).toBeGreaterThan(0);
    const direct = rows.map((q) => {
      const identity = q.identityJson ? (JSON.parse(q.identityJson) as { gender: string; race: string }) : null;
      return {
        model: q.modelConfig.slug,
        context: q.context as "attribution",
        statisticId: q.statisticId,
        level: q.level as "highest",
        identityGender: identity?.gender ?? null,
        identityRace: identity?.race ?? null,
        gender: q.outcome!.gender,
        race: q.outcome!.race,
        count: 1,
      };
    });
    const counts = await runInfluenceCounts(prisma(), runId);
    expect(counts.reduce((a, c) => a + c.count, 0)).toBe(rows.length);
    const influence = contextInfluence(counts);
    // equal up to floating-point summation order
    const round = (rows: ReturnType<typeof contextInfluence>) =>
      JSON.parse(JSON.stringify(rows, (_k, v) => (typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v)));
    expect(round(influence)).toEqual(round(contextInfluence(direct)));
    expect(influence.map((r) => `${r.model}|${r.attribute}`)).toEqual([
      "baseline:calibrated:0.8|gender",
      "baseline:calibrated:0.8|race",
      "baseline:uniform|gender",
      "baseline:uniform|race",
    ]);
    for (const r of influence) for (const c of Object.values(r.cells)) if (c.share !== null) expect(c.share).toBeGreaterThanOrEqual(0);
  });

  it("computes bootstrap intervals once per state of the data and reads them from the cache after", async () => {
    const first = await runIntervals(prisma(), runId);
    expect(first!.cached).toBe(false);
    expect(first!.resamples).toBe(1000);
    expect(first!.seed).toBe(11);
    const scores = await runScores(prisma(), runId);
    expect(first!.groups).toHaveLength(scores.length);
    for (const g of first!.groups) {
      const s = scores.find((x) => x.model === g.model && x.test === g.test && x.context === g.context && x.attribute === g.attribute)!;
      if (s.sFact !== null && g.intervals.sFact) {
        expect(g.intervals.sFact.lo).toBeLessThanOrEqual(s.sFact + 1e-12);
        expect(g.intervals.sFact.hi).toBeGreaterThanOrEqual(s.sFact - 1e-12);
      }
    }
    const second = await runIntervals(prisma(), runId);
    expect(second!.cached).toBe(true);
    expect(second!.groups).toEqual(first!.groups);
    // Concurrent first requests for another state share one computation and agree.
    const [a, b] = await Promise.all([runIntervals(prisma(), runId, { resamples: 2000 }), runIntervals(prisma(), runId, { resamples: 2000 })]);
    expect(a!.groups).toEqual(b!.groups);
    expect(await prisma().scoreCache.count({ where: { runId } })).toBe(2);
    expect(await runIntervals(prisma(), "no-such-run")).toBeNull();
  });

  it("keeps answers with their scenario for the intervals, and computes each target apart", async () => {
    const records = await designRecords(prisma(), runId);
    // The same answers as the scores read, kept apart by scenario (subjective) and not at all (objective).
    expect(records.reduce((a, r) => a + (r.count ?? 1), 0)).toBe((await runRecords(prisma(), runId)).length);
    expect(new Set(records.filter((r) => r.test === "subjective").map((r) => r.cluster))).toEqual(new Set([0, 1, 2]));
    expect(records.filter((r) => r.test === "objective").every((r) => r.cluster === undefined)).toBe(true);
    const population = await runIntervals(prisma(), runId);
    const exact = await runIntervals(prisma(), runId, { target: "exact" });
    expect([population!.target, exact!.target]).toEqual(["population", "exact"]);
    expect(exact!.method).toMatch(/Rao–Wu/);
    expect(exact!.groups).not.toEqual(population!.groups);
    // Objective cells hold one fixed question each: the population interval is the exact one, and says so.
    const objective = population!.groups.find((g) => g.test === "objective" && g.intervals.sFact)!;
    expect(objective.intervals.sFact!.flags).toContain("fixed-items");
    for (const g of population!.groups) for (const i of Object.values(g.intervals)) if (i) expect(i.lo <= i.estimate && i.estimate <= i.hi).toBe(true);
    await expect(runIntervals(prisma(), runId, { target: "bogus" as never })).rejects.toThrow(/target/);
  });

  it("lists the queries behind a breakdown cell, paginated, matching the cell's counts", async () => {
    const groups = await runDetailed(prisma(), runId);
    const g = groups.find((x) => x.model === "baseline:calibrated:0.8" && x.test === "subjective" && x.context === "baseline" && x.attribute === "race")!;
    const row = breakdownRows(g).find((r) => r.n > 0)!;
    const filter = {
      model: g.model,
      test: g.test,
      context: g.context,
      attribute: g.attribute,
      statisticId: row.statisticId,
      level: row.level,
      page: 1,
      pageSize: 2,
    };
    const all = await cellQueries(prisma(), runId, filter);
    expect(all.total).toBe(row.n);
    expect(all.rows.length).toBe(Math.min(2, row.n));
    for (const [answer, n] of Object.entries(row.counts)) {
      const res = await cellQueries(prisma(), runId, { ...filter, answer, pageSize: 50 });
      expect(res.total).toBe(n);
      expect(res.rows.every((q) => q.answer === answer)).toBe(true);
    }
    expect((await cellQueries(prisma(), runId, { ...filter, answer: "refused" })).total).toBe(row.refused);
    // Paged by key: walking `next` visits every query of the cell once, in order; `prev` walks back the same pages.
    const seen: number[] = [];
    const pages: Array<Awaited<ReturnType<typeof cellQueries>>> = [];
    for (let page = await cellQueries(prisma(), runId, filter); ; page = await cellQueries(prisma(), runId, { ...filter, after: page.next! })) {
      pages.push(page);
      seen.push(...page.rows.map((q) => q.id));
      if (page.next === null) break;
    }
    expect(seen).toHaveLength(row.n);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(new Set(seen).size).toBe(row.n);
    expect(pages[0].prev).toBeNull();
    if (pages.length > 1) {
      const back = await cellQueries(prisma(), runId, { ...filter, before: pages[1].prev! });
      expect(back.rows.map((q) => q.id)).toEqual(pages[0].rows.map((q) => q.id));
      expect(back.prev).toBeNull();
    }
  });

  it("validates the run selection parameter", () => {
    expect(runIdsParam.parse("a1, b2,a1")).toEqual(["a1", "b2"]);
    expect(runIdsParam.parse(undefined)).toEqual([]);
    expect(runIdsParam.safeParse("ok,bad id;drop").success).toBe(false);
    expect(runIdsParam.safeParse(Array.from({ length: 31 }, (_, i) => `r${i}`).join(",")).success).toBe(false);
  });
});
