// The shipped example content sets (data/content-sets/*, issue #57 item 6): each validates for the quick preset,
// cites an official source for every statistic, imports, is approved and runs end to end on the scenario-biased
// test model, scored for every declared attribute with intervals. The scenario-biased baseline's answers depend on
// the scenario: within one scenario they lean to one class, and different scenarios lean to different classes.
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import type { TableView } from "../lib/suites/views";

process.env.FOF_DATA_DIR = testDataDir("content-examples-");
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { suiteOf } = await import("../lib/suites");
const { loadContentFolder } = await import("../lib/content/load");
const { importContentSet, setContentSetStatus } = await import("../lib/features/content/content-sets");
const { ownPreset } = await import("../lib/suites/fof-own/config");

const ROOT = path.join(__dirname, "../data/content-sets");
const FOLDERS = readdirSync(ROOT).sort();
// The statistics' publishers: a shipped example cites the official source it was checked against, never a mirror.
const OFFICIAL = new Set(["www.destatis.de", "www.cdc.gov"]);

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});

describe("shipped example content sets", () => {
  it("ships at least two beside the paper's, one of them not in English", async () => {
    expect(FOLDERS.length).toBeGreaterThanOrEqual(2);
    const languages = await Promise.all(FOLDERS.map(async (f) => (await loadContentFolder(path.join(ROOT, f))).set.language));
    expect(languages.some((l) => !l.startsWith("en"))).toBe(true);
  });

  it.each(FOLDERS)("%s: valid for the quick preset, every statistic sourced officially with a truth for some attribute", async (folder) => {
    const { set } = await loadContentFolder(path.join(ROOT, folder), { preset: "quick" });
    expect(set.attributes.some((a) => a.classes.length >= 3)).toBe(true);
    for (const s of set.statistics ?? []) {
      expect(OFFICIAL.has(new URL(s.source.url).host), `${s.id}: ${s.source.url}`).toBe(true);
      expect(s.source.citation, s.id).toBeTruthy();
      expect(Object.keys(s.groundTruth).length, s.id).toBeGreaterThan(0);
      for (const [attr, g] of Object.entries(s.groundTruth))
        if (g.values) {
          // the published values agree with the classes named highest and lowest
          const v = g.values;
          expect(Math.max(...Object.values(v)), `${s.id} ${attr}`).toBe(v[g.highest]);
          expect(Math.min(...Object.values(v)), `${s.id} ${attr}`).toBe(v[g.lowest]);
        }
    }
  });

  it.each(FOLDERS)("%s: imports, is approved, runs on the scenario-biased model and scores every attribute with intervals", async (folder) => {
    const loaded = await loadContentFolder(path.join(ROOT, folder));
    const ref = `${loaded.set.id}@${loaded.set.version}`;
    await importContentSet(db(), null, loaded.files);
    await setContentSetStatus(db(), null, ref, "approve");
    const run = await engine.createRun(db(), {
      suite: "fof-own",
      models: ["baseline:scenario-biased"],
      config: { ...ownPreset("smoke"), subjectiveRepeats: 12 },
      seed: 3,
      contentVersion: ref,
    });
    await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    expect((await db().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
    const views = await suiteOf("fof-own").results!({ prisma: db() }, { runId: run.id, labels: "model", verifiedOnly: false, resamples: 200 });
    const table = views.find((v) => v.id === "scores") as TableView;
    expect(table.groups.map((g) => g.title.match(/\(([a-z0-9-]+), k = \d+\)/)![1])).toEqual(loaded.set.attributes.map((a) => a.id));
    for (const g of table.groups)
      for (const r of g.rows.filter((x) => x.labels[1] !== "objective")) {
        expect(r.cells.sE.lo, `${g.title} ${r.labels[1]}`).not.toBeNull();
        expect(r.cells.sE.hi!).toBeGreaterThanOrEqual(r.cells.sE.lo!);
      }

    // Within a scenario the answers lean to one class of the attribute with most classes; scenarios differ.
    const target = loaded.set.attributes.reduce((a, b) => (b.classes.length > a.classes.length ? b : a));
    const rows = await db().query.findMany({
      where: { runId: run.id, test: "subjective", context: "baseline", outcome: { status: "answered" } },
      select: { statisticId: true, level: true, scenarioIndex: true, optionsJson: true, outcome: { select: { parsedLetter: true } } },
    });
    const byScenario = new Map<string, Map<string, number>>();
    for (const q of rows) {
      const people = JSON.parse(q.optionsJson) as Array<{ letter: string; classes: Record<string, string> }>;
      const cls = people.find((p) => p.letter === q.outcome!.parsedLetter)!.classes[target.id];
      const key = `${q.statisticId}|${q.level}|${q.scenarioIndex}`;
      const m = byScenario.get(key) ?? new Map<string, number>();
      m.set(cls, (m.get(cls) ?? 0) + 1);
      byScenario.set(key, m);
    }
    const modal = [...byScenario.values()].map((m) => {
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      const [cls, n] = [...m.entries()].sort((a, b) => b[1] - a[1])[0];
      return { cls, share: n / total };
    });
    const meanShare = modal.reduce((a, b) => a + b.share, 0) / modal.length;
    // uniform answers would give a modal share near 1/k plus noise; strengths 0.3–0.9 give about 0.6 + 0.4/k
    expect(meanShare).toBeGreaterThan(0.6);
    expect(new Set(modal.map((m) => m.cls)).size).toBeGreaterThan(1);
  });
});
