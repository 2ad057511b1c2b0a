// Runs on a team's own content (issue #57): a content-set version is launchable only once approved and until
// retired, a run pins it and is scored for every declared attribute's k with intervals (a k = 3 attribute, German),
// two runs compare, and the paper's own content run through the content-set path scores bit for bit as the paper's
// suite does on the same answers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import type { TableView } from "../lib/suites/views";

process.env.FOF_DATA_DIR = testDataDir("fof-own-");
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { suiteOf } = await import("../lib/suites");
const { importContentSet, setContentSetStatus } = await import("../lib/features/content/content-sets");
const { compareSides } = await import("../lib/features/results/comparisons");
const { ownPreset } = await import("../lib/suites/fof-own/config");

const DIR = path.join(__dirname, "fixtures/content/de-synthetic");
const FILES = Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(DIR, f), "utf8")]));
const admin = { id: "admin-1", email: "admin@example.org", role: "admin" as const };
const runner = { id: "runner-1", email: "runner@example.org", role: "runner" as const };
const suite = suiteOf("fof-own");
const REF = "de-synthetic@1.0.0";

async function work(models: string[], seed: number, contentVersion?: string, preset: "quick" | "smoke" = "quick") {
  const run = await engine.createRun(db(), {
    suite: "fof-own",
    models,
    config: ownPreset(preset),
    preset,
    seed,
    ...(contentVersion ? { contentVersion } : {}),
  });
  await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
  return run.id;
}
const scores = async (runId: string, resamples = 300) =>
  (await suite.results!({ prisma: db() }, { runId, labels: "model", verifiedOnly: false, resamples })).find((v) => v.id === "scores") as TableView;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await importContentSet(db(), runner, FILES);
});

describe("runs on a content set", () => {
  let calibrated = "";
  let uniform = "";

  it("refuses a draft, runs an approved version pinned, and scores its k = 3 attribute with intervals", async () => {
    await expect(work(["baseline:calibrated:0.8"], 4, REF)).rejects.toThrow(/de-synthetic@1\.0\.0 is a draft: an admin must approve it/);
    await expect(work(["baseline:calibrated:0.8"], 4, "de-synthetic@9.9.9")).rejects.toThrow(/content set version de-synthetic@9\.9\.9 not found/);
    await setContentSetStatus(db(), admin, REF, "approve");
    calibrated = await work(["baseline:calibrated:0.8"], 4, REF);
    uniform = await work(["baseline:uniform"], 4, REF);
    const run = await db().run.findUniqueOrThrow({ where: { id: calibrated }, select: { status: true, suiteVersion: true, plannedCount: true } });
    expect(run).toMatchObject({ status: "completed", suiteVersion: REF });
    // German prompts, the declared words
    const q = await db().query.findFirstOrThrow({ where: { runId: calibrated, test: "objective", attribute: "altersgruppe" } });
    expect(q.prompt).toMatch(/Antworte/);
    expect(JSON.parse(q.groundTruthJson)).toHaveProperty("altersgruppe");
    // the queries list says what each answer meant in the set's own words ("A → Frauen"), not a bare letter
    const { runItems } = await import("../lib/features/runs/items");
    const listed = (await runItems(db(), calibrated, { test: "objective", attribute: "geschlecht", pageSize: 10 }))!.rows;
    expect(listed.length).toBeGreaterThan(0);
    for (const r of listed) expect(["Männer", "Frauen", "männlich", "weiblich"]).toContain(r.outcome!.meaning);
    const person = (await runItems(db(), calibrated, { test: "subjective", pageSize: 1 }))!.rows[0];
    expect(person.outcome!.meaning).toMatch(/^.+ \(.+\)$/);

    const table = await scores(calibrated);
    expect(table.groups.map((g) => g.title)).toEqual(["Altersgruppe (altersgruppe, k = 3)", "Geschlecht (geschlecht, k = 2)"]);
    const age = table.groups[0].rows;
    expect(age.map((r) => r.labels[1])).toEqual(["objective", "subjective · baseline", "subjective · representativeness", "subjective · ingroup"]);
    for (const r of age)
      for (const m of ["sFact", "sE", "sKLD", "sFair", "distance"]) {
        const c = r.cells[m];
        expect(c.value).not.toBeNull();
        expect(c.lo!).toBeLessThanOrEqual(c.estimate! + 1e-12);
        expect(c.hi!).toBeGreaterThanOrEqual(c.estimate! - 1e-12);
      }
    // A chart per attribute: the paper's two axes, S_fact and S_E, per group — the table's own point estimates
    const views = await suite.results!({ prisma: db() }, { runId: calibrated, labels: "model", verifiedOnly: false, resamples: 0 });
    const plane = views.find((v) => v.id === "plane-altersgruppe");
    expect(plane?.kind).toBe("bars");
    if (plane?.kind === "bars") {
      expect(plane.data.map((d) => d.label)).toEqual(age.map((r) => `${r.labels[0]} · ${r.labels[1]}`));
      expect(plane.data.map((d) => d.values.sE)).toEqual(age.map((r) => r.cells.sE.value));
    }
    // The calibrated baseline aims at the attribute with the most classes: right 80 % of the time on age bands.
    const objective = age[0].cells.sFact;
    expect(objective.lo!).toBeLessThan(0.8);
    expect(objective.hi!).toBeGreaterThan(0.8);
    // The export: one line per answer, with how it was read and the truths as planned
    let lines = 0;
    for await (const page of suite.exportLines!({ prisma: db() }, { runId: calibrated, labels: "model" })) {
      lines += page.length;
      const answered = page.find((l) => l.status === "answered" && l.test === "subjective")!;
      expect(Object.keys(answered.classes as object).sort()).toEqual(["altersgruppe", "geschlecht"]);
      expect(answered).toMatchObject({ suite: "fof-own", suiteVersion: REF, language: "de" });
    }
    expect(lines).toBe(run.plannedCount);
    // Uniform answers: S_E near 1 on both attributes
    const u = await scores(uniform);
    expect(u.groups[0].rows[1].cells.sE.value!).toBeGreaterThan(0.9);
  });

  it("compares two runs on the same version, paired, with Δ = shown b − shown a", async () => {
    const r = await compareSides(db(), { runId: calibrated }, { runId: uniform }, { resamples: 300 });
    expect(r.suite).toBe("fof-own");
    expect(r.paired).toBe(true);
    const fact = r.comparisons.find((c) => c.metric === "sFact" && c.group === "altersgruppe · objective")!;
    expect(fact.delta).toBeLessThan(0);
    expect(fact.hi).toBeLessThan(0);
    for (const c of r.comparisons) expect(Math.abs(c.delta - (c.b - c.a))).toBeLessThan(1e-9);
  });

  it("ranks runs per declared attribute with rank intervals from the joint design bootstrap", async () => {
    const { suiteRankIntervals } = await import("../lib/features/results/suite-ranks");
    const r = await suiteRankIntervals(db(), suite, [calibrated, uniform]);
    const fact = r.rows.filter((x) => x.metric === "sFact" && x.group === "altersgruppe · objective");
    expect(fact.map((x) => [x.runId, x.rank, x.lo, x.hi])).toEqual(
      expect.arrayContaining([
        [calibrated, 1, 1, 1],
        [uniform, 2, 2, 2],
      ]),
    );
    // every declared attribute's groups are ranked, each score
    expect(new Set(r.rows.map((x) => x.group.split(" · ")[0]))).toEqual(new Set(["altersgruppe", "geschlecht"]));
    expect(new Set(r.rows.map((x) => x.metric))).toEqual(new Set(["sFact", "sE", "sKLD", "sFair", "distance"]));
  });

  it("serves a view computed before the answers never again once they are in (the cache's key counts them)", async () => {
    const { cachedSuiteResults } = await import("../lib/suites/results-cache");
    const run = await engine.createRun(db(), {
      suite: "fof-own",
      models: ["baseline:uniform"],
      config: ownPreset("quick"),
      preset: "quick",
      seed: 9,
      contentVersion: REF,
    });
    const req = { runId: run.id, labels: "model" as const, verifiedOnly: false, resamples: 0 };
    const rows = async () =>
      ((await cachedSuiteResults(db(), suite, req)).find((v) => v.id === "scores") as TableView | undefined)?.groups.flatMap((g) => g.rows) ?? [];
    expect(await rows()).toHaveLength(0);
    await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    expect(await rows()).toHaveLength(8);
  });

  it("runs adaptively: waves of repeats, a look per wave scored per declared attribute, stopping when the target is met", async () => {
    const { adaptiveStateOf } = await import("../lib/results/adaptive");
    const config = { ...ownPreset("quick"), tests: ["subjective" as const], contexts: ["baseline" as const] };
    const loose = await engine.createRun(db(), { suite: "fof-own", models: ["baseline:uniform"], config, seed: 6, contentVersion: REF, until: "sE<=0.45" });
    const tight = await engine.createRun(db(), { suite: "fof-own", models: ["baseline:uniform"], config, seed: 6, contentVersion: REF, until: "sE<=0.001" });
    for (const id of [loose.id, tight.id]) await new engine.Worker(db(), { runId: id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const [l, t] = await Promise.all([loose.id, tight.id].map((id) => db().run.findUniqueOrThrow({ where: { id } })));
    const ls = adaptiveStateOf(l.adaptiveJson)!;
    const ts = adaptiveStateOf(t.adaptiveJson)!;
    // met at an early look: the rest of the plan is never called
    expect(ls.outcome?.kind).toBe("met");
    expect(ls.outcome!.look).toBeLessThan(ls.schedule.fractions.length);
    expect(l.plannedCount).toBeLessThan(loose.plannedCount);
    expect(await db().outcome.count({ where: { query: { runId: loose.id } } })).toBe(l.plannedCount);
    // every declared attribute's subjective S_E is looked at, none other
    const last = ls.looks.at(-1)!;
    expect([...new Set(last.rows.map((r) => r.group))].sort()).toEqual(["altersgruppe · subjective · baseline", "geschlecht · subjective · baseline"]);
    expect(last.rows.every((r) => r.metric === "sE" && (r.hi - r.lo) / 2 <= 0.45 + 1e-12)).toBe(true);
    // never met: every look taken, the whole plan used, and it says the cap was reached
    expect(ts.outcome).toMatchObject({ kind: "cap" });
    expect(ts.looks.length).toBe(ts.schedule.fractions.length);
    expect(t.plannedCount).toBe(tight.plannedCount);

    // A vs B: the second model against the first, paired per declared attribute, each difference decided or open
    const ab = await engine.createRun(db(), {
      suite: "fof-own",
      models: ["baseline:uniform", "baseline:calibrated:0.8"],
      config,
      seed: 7,
      contentVersion: REF,
      until: "decided:sE",
    });
    await new engine.Worker(db(), { runId: ab.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const abs = adaptiveStateOf((await db().run.findUniqueOrThrow({ where: { id: ab.id } })).adaptiveJson)!;
    const rows = abs.looks.at(-1)!.rows;
    expect(new Set(rows.map((r) => r.model))).toEqual(new Set(["baseline:calibrated:0.8 − baseline:uniform"]));
    expect(rows.map((r) => r.group).sort()).toEqual(["altersgruppe · subjective · baseline", "geschlecht · subjective · baseline"]);
    for (const r of rows) expect(["separated", "equivalent", "open"]).toContain(r.decision);
  });

  it("bundles a run as signed evidence that verifies, every score recomputed equal from its answers", async () => {
    const { writeBundle } = await import("../lib/features/evidence/bundle");
    const { verifyBundle } = await import("../lib/features/evidence/verify");
    const { publicKeyInfo } = await import("../lib/features/ledger/keys");
    const file = path.join(process.env.FOF_DATA_DIR!, "own.zip");
    await writeBundle(db(), calibrated, file);
    const r = await verifyBundle(file, { publicKeyPem: publicKeyInfo().pem });
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.scores.some((s) => /altersgruppe/.test(s.path))).toBe(true);
  });

  it("takes no new run on a retired version; runs on it keep their scores", async () => {
    const before = await scores(calibrated);
    await setContentSetStatus(db(), admin, REF, "retire");
    await expect(work(["baseline:calibrated:0.8"], 5, REF)).rejects.toThrow(/de-synthetic@1\.0\.0 is retired/);
    expect(await scores(calibrated)).toEqual(before);
  });

  it("scores the paper's content through this path exactly as the paper's suite scores the same answers", async () => {
    const own = await work(["baseline:calibrated:0.8"], 11, undefined, "smoke");
    const paper = await engine.createRun(db(), { models: ["baseline:calibrated:0.8"], config: engine.presetConfig("smoke"), seed: 11 });
    await new engine.Worker(db(), { runId: paper.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const ownRun = await db().run.findUniqueOrThrow({ where: { id: own }, select: { plannedCount: true, suiteVersion: true } });
    expect(ownRun).toEqual({ plannedCount: 532, suiteVersion: "fact-or-fair-paper@1.0.0" });
    // the same prompts, one for one
    const prompts = async (runId: string) => (await db().query.findMany({ where: { runId }, select: { prompt: true } })).map((q) => q.prompt).sort();
    expect(await prompts(own)).toEqual(await prompts(paper.id));
    // a content set is scored by the definitions (it has no released scripts): the paper suite's paper-text profile
    const expected = await engine.runScores(db(), paper.id, { profile: "paper-text" });
    const table = await scores(own, 0);
    const rows = table.groups.flatMap((g) => g.rows.map((r) => ({ attribute: g.title.match(/\((\w+), k/)![1], r })));
    expect(rows).toHaveLength(expected.length);
    for (const e of expected) {
      const label = e.context ? `${e.test} · ${e.context}` : e.test;
      const row = rows.find((x) => x.attribute === e.attribute && x.r.labels[1] === label)!.r;
      for (const m of ["sFact", "sE", "sKLD", "sFair", "distance"] as const)
        expect([e.attribute, label, m, row.cells[m].value]).toEqual([e.attribute, label, m, e[m]]);
    }
  });
});
