// The plan re-derived (#65 item 3): a bundle's queries are compared with the rows its suite plans again from the
// signed content, configuration and seed. Every suite's planning is re-derived exactly (FACT-OR-FAIR, a content set's
// rendered prompts, DoFaiR with guidance rows a helper writes, FAIntbench); an insider's best moves on the database
// are named — a prompt or ground truth edited, a row added, one model's bad rows dropped, a dependency moved, a
// completed run cut short — while what the engine itself may leave (a run cancelled while planning keeps a prefix)
// passes and says so. Through a re-signed bundle, `fof verify` and the browser's re-scorer give the same verdict.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("evidence-plan-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { replanCheck } = await import("../lib/features/evidence/plan-check");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { importContentSet, setContentSetStatus } = await import("../lib/features/content/content-sets");
const { ownPreset } = await import("../lib/suites/fof-own/config");
const { tampered, rows, jsonl, text } = await import("./helpers/evidence");
type Entries = import("./helpers/evidence").Entries;

const admin = { id: "admin-1", email: "admin@example.org", role: "admin" as const };
const runner = { id: "runner-1", email: "runner@example.org", role: "runner" as const };
const OWN = path.join(__dirname, "fixtures/content/de-synthetic");
const runs: Record<string, string> = {};

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await importContentSet(
    db(),
    runner,
    Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(OWN, f), "utf8")])),
  );
  await setContentSetStatus(db(), admin, "de-synthetic@1.0.0", "approve");
  // planned only: the plan check reads the rows planning wrote, not what answered them
  const plan = async (name: string, launch: Parameters<typeof engine.createRun>[1]) => void (runs[name] = (await engine.createRun(db(), launch)).id);
  await plan("fof", { models: ["baseline:calibrated:0.8", "baseline:uniform"], config: engine.presetConfig("smoke"), seed: 5 });
  await plan("own", {
    suite: "fof-own",
    models: ["baseline:uniform"],
    config: ownPreset("quick"),
    preset: "quick",
    seed: 4,
    contentVersion: "de-synthetic@1.0.0",
  });
  await plan("dofair", {
    suite: "dofair",
    models: ["baseline:synthetic-faces"],
    config: {
      dimensions: ["gender", "race"],
      methods: ["bansal"],
      augmentations: ["cot"],
      imagesPerPrompt: 1,
      entriesPerDimension: 3,
      guidanceModel: "baseline:reasoner",
    },
    preset: "custom",
    seed: 9,
  });
  await plan("faint", {
    suite: "faintbench",
    models: ["baseline:synthetic-faces"],
    config: { visibility: ["implicit"], acquired: ["occupation"], imagesPerPrompt: 1, itemsPerAcquired: 2 },
    preset: "custom",
    seed: 3,
  });
}, 180_000);

const check = (name: string) => replanCheck(db(), runs[name]!);
/** a change made for one check, undone after it (the runs are shared by the checks below) */
async function whileChanged<T>(change: () => Promise<() => Promise<unknown>>, then: () => Promise<T>): Promise<T> {
  const undo = await change();
  try {
    return await then();
  } finally {
    await undo();
  }
}
const queriesOf = (name: string) => db().query.findMany({ where: { runId: runs[name] }, orderBy: { id: "asc" } });

describe("the plan, re-derived", () => {
  it("every suite's rows are the ones planning writes: prompts rendered, options, truths, guidance dependencies", async () => {
    for (const name of ["fof", "own", "dofair", "faint"]) {
      const r = await check(name);
      const planned = await db().query.count({ where: { runId: runs[name] } });
      expect(r.problems, name).toEqual([]);
      expect(r).toMatchObject({ compared: planned, planned, kept: "every planned row" });
    }
    // the guidance rows were compared too: DoFaiR's images wait for the helper's answers
    expect(await db().query.count({ where: { runId: runs.dofair, dependsOnId: { not: null } } })).toBeGreaterThan(0);
  });

  it("names a prompt, a ground truth or an option edited, on any suite", async () => {
    for (const [name, column, value] of [
      ["fof", "prompt", "Which group is most likely to be wealthy? Answer A."],
      ["own", "groundTruthJson", '{"geschlecht":{"highest":"x","lowest":"y"}}'],
      ["faint", "prompt", "a photo of a CEO"],
      ["fof", "optionsJson", '["A","B","C","D"]'],
    ] as const) {
      const qs = await queriesOf(name);
      const q = qs[Math.min(7, qs.length - 1)]!;
      const r = await whileChanged(
        async () => {
          await db().query.update({ where: { id: q.id }, data: { [column]: value } });
          return () => db().query.update({ where: { id: q.id }, data: { [column]: q[column] } });
        },
        () => check(name),
      );
      expect(r.problems.join("; "), `${name} ${column}`).toMatch(new RegExp(`^query ${q.id} \\(.+\\): ${column} stored`));
    }
  });

  it("compares built-in content with the verifier's own copy: a truth flipped under the real digest is named", async () => {
    const run = await db().run.findUniqueOrThrow({ where: { id: runs.fof }, select: { benchmarkVersion: true } });
    const bv = run.benchmarkVersion;
    expect((await check("fof")).content).toMatch(/^the built-in content .+, byte for byte as this verifier ships it$/);
    const flipped = bv.contentJson.replace('"highest":"male"', '"highest":"female"');
    expect(flipped).not.toBe(bv.contentJson);
    const r = await whileChanged(
      async () => {
        await db().benchmarkVersion.update({ where: { id: bv.id }, data: { contentJson: flipped } });
        return () => db().benchmarkVersion.update({ where: { id: bv.id }, data: { contentJson: bv.contentJson } });
      },
      () => check("fof"),
    );
    expect(r.problems.join("; ")).toMatch(
      /^content\.json claims the built-in content .+ but is not it: at character \d+, the bundle's ".*female.*", the built-in ".*male/,
    );
    // a content set's digest is its own: recomputed from the set the bundle carries
    expect((await check("own")).content).toBe("the content set de-synthetic@1.0.0, its SHA-256 recomputed from the set the bundle carries");
  });

  it("names a row added, a model's rows thinned, one model's row moved to another, and a dependency moved", async () => {
    const qs = await queriesOf("fof");
    const [a, b] = [qs[0]!.modelConfigId, qs.at(-1)!.modelConfigId];
    // a row of the insider's own, appended (a repeat that was never planned)
    const { id: _id, ...extra } = qs.at(-1)!;
    let r = await whileChanged(
      async () => {
        const added = await db().query.create({ data: { ...extra, repeatIndex: 99 } });
        return () => db().query.delete({ where: { id: added.id } });
      },
      () => check("fof"),
    );
    expect(r.problems.join("; ")).toMatch(/repeatIndex stored "99", the plan gives|not a row the plan gives/);
    // the rows one model did worst on dropped from the middle of its plan
    const middle = qs.filter((q) => q.modelConfigId === a).slice(10, 13);
    r = await whileChanged(
      async () => {
        await db().query.deleteMany({ where: { id: { in: middle.map((q) => q.id) } } });
        return () => db().query.createMany({ data: middle });
      },
      () => check("fof"),
    );
    expect(r.problems.join("; ")).toMatch(new RegExp(`query ${qs.find((q) => q.modelConfigId === a && q.id > middle[2]!.id)!.id} \\(.+\\): \\w+ stored`));
    // one row handed to the other model
    const moved = qs.find((q) => q.modelConfigId === a)!;
    r = await whileChanged(
      async () => {
        await db().query.update({ where: { id: moved.id }, data: { modelConfigId: b } });
        return () => db().query.update({ where: { id: moved.id }, data: { modelConfigId: a } });
      },
      () => check("fof"),
    );
    expect(r.problems.length).toBeGreaterThan(0);
    // a DoFaiR image made to wait for another entry's guidance
    const d = await queriesOf("dofair");
    const waits = d.filter((q) => q.dependsOnId !== null);
    const other = d.find((q) => q.test === "guidance" && q.id !== waits[0]!.dependsOnId)!;
    r = await whileChanged(
      async () => {
        await db().query.update({ where: { id: waits[0]!.id }, data: { dependsOnId: other.id } });
        return () => db().query.update({ where: { id: waits[0]!.id }, data: { dependsOnId: waits[0]!.dependsOnId } });
      },
      () => check("dofair"),
    );
    expect(r.problems.join("; ")).toContain(
      `query ${waits[0]!.id} (baseline:synthetic-faces): it waits for query ${other.id}, the plan says ${waits[0]!.dependsOnId}`,
    );
  });

  it("a run cancelled while planning may keep a prefix of the plan, and says so; a completed run cut short is named", async () => {
    const qs = await queriesOf("fof");
    const tail = qs.slice(-25);
    const cut = (status: string) =>
      whileChanged(
        async () => {
          await db().query.deleteMany({ where: { id: { in: tail.map((q) => q.id) } } });
          await db().run.update({ where: { id: runs.fof }, data: { status } });
          return async () => {
            await db().query.createMany({ data: tail });
            await db().run.update({ where: { id: runs.fof }, data: { status: "running" } });
          };
        },
        () => check("fof"),
      );
    const cancelled = await cut("cancelled");
    expect(cancelled.problems).toEqual([]);
    expect(cancelled.kept).toBe(`${qs.length - 25} of ${qs.length} planned rows (cancelled while planning)`);
    expect((await cut("completed")).problems.join("; ")).toMatch(new RegExp(`a completed run keeps ${qs.length - 25} of the ${qs.length} rows its plan gives`));
    // a cut in the first model's rows while the second's are whole is no planning order: named whatever the status
    const first = qs.filter((q) => q.modelConfigId === qs[0]!.modelConfigId).slice(-5);
    const r = await whileChanged(
      async () => {
        await db().query.deleteMany({ where: { id: { in: first.map((q) => q.id) } } });
        await db().run.update({ where: { id: runs.fof }, data: { status: "cancelled" } });
        return async () => {
          await db().query.createMany({ data: first });
          await db().run.update({ where: { id: runs.fof }, data: { status: "running" } });
        };
      },
      () => check("fof"),
    );
    expect(r.problems.join("; ")).toMatch(/has \d+ of its \d+ planned rows, yet rows planned after them are kept|\w+ stored/);
  });
});

describe("images against the plan", () => {
  it("a generated image stands where its query does; an imported one at a prompt its configuration plans", async () => {
    await new engine.Worker(db(), { runId: runs.faint!, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    expect((await check("faint")).problems).toEqual([]);
    const image = await db().image.findFirstOrThrow({ where: { runId: runs.faint }, orderBy: { id: "asc" } });
    const other = await db().query.findFirstOrThrow({ where: { runId: runs.faint, statisticId: { not: image.statisticId } } });
    // moved to another item without its query: the scores would count it there
    let r = await whileChanged(
      async () => {
        await db().image.update({ where: { id: image.id }, data: { statisticId: other.statisticId } });
        return () => db().image.update({ where: { id: image.id }, data: { statisticId: image.statisticId } });
      },
      () => check("faint"),
    );
    expect(r.problems.join("; ")).toContain(
      `image ${image.id}: stored at ${image.test} · ${other.statisticId} · ${image.level}, its query ${image.queryId} is at`,
    );
    // passed off as imported (of no query)
    r = await whileChanged(
      async () => {
        await db().image.update({ where: { id: image.id }, data: { queryId: null, source: "imported" } });
        return () => db().image.update({ where: { id: image.id }, data: { queryId: image.queryId, source: image.source } });
      },
      () => check("faint"),
    );
    expect(r.problems.join("; ")).toContain(`image ${image.id}: imported, of no query in a run whose images its queries generated`);

    await engine.upsertModel(db(), { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import" });
    const { PNG } = await import("pngjs");
    const png = (shade: number) => {
      const p = new PNG({ width: 32, height: 32 });
      p.data.fill(shade);
      return new Uint8Array(PNG.sync.write(p));
    };
    const files = [0, 1, 2].map((i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: png(40 + i * 30) }));
    runs.imported = (await engine.importImages(db(), dir, { modelSlug: "mj", files })).runId;
    const ok = await check("imported");
    expect(ok).toMatchObject({ problems: [], kept: expect.stringMatching(/^an import: 3 images made elsewhere, each at a prompt its configuration plans/) });
    const imported = await db().image.findFirstOrThrow({ where: { runId: runs.imported } });
    r = await whileChanged(
      async () => {
        await db().image.update({ where: { id: imported.id }, data: { statisticId: "made-up-statistic" } });
        return () => db().image.update({ where: { id: imported.id }, data: { statisticId: imported.statisticId } });
      },
      () => check("imported"),
    );
    expect(r.problems).toEqual([`image ${imported.id}: at objective · made-up-statistic · highest, a prompt the run's configuration does not plan`]);

    // The batches signed as they were committed are the import's plan: a second import adds batch 2.
    const more = [3].map((i) => ({ name: `objective/crime-rate/lowest/${i}.png`, bytes: png(40 + i * 30) }));
    await engine.importImages(db(), dir, { modelSlug: "mj", runId: runs.imported, files: more });
    const batches = await db().logEntry.findMany({ where: { runId: runs.imported }, orderBy: { index: "asc" }, select: { kind: true } });
    expect(batches.map((b) => b.kind)).toEqual(["design", "import", "import"]);
    const bundle = path.join(dir, "import.zip");
    await writeBundle(db(), runs.imported, bundle);
    const pem = publicKeyInfo().pem;
    const honest = await verifyBundle(bundle, { publicKeyPem: pem });
    expect(honest.checks.filter((c) => !c.ok)).toEqual([]);
    expect(honest.checks.find((c) => c.check === "design")!.detail).toContain("4 images imported in 2 batches, each signed and logged as it was committed");
    expect(honest.checks.find((c) => c.check === "plan")!.detail).toContain("an import: 4 images made elsewhere, exactly those its signed batches list");
    // an insider swaps an image for another (its hash in the rows), re-signing the bundle: not an image the import signed
    const swap = (e: Entries) => {
      const ims = rows(e["images.jsonl"]);
      ims[1]!.sha256 = "f".repeat(64);
      e["images.jsonl"] = jsonl(ims);
    };
    const swapped = (await verifyBundle(tampered(bundle, dir, "import-swapped", swap, signingKey()), { publicKeyPem: pem })).checks.find((c) => !c.ok)!;
    expect(swapped).toMatchObject({
      check: "plan",
      detail: expect.stringMatching(
        /SHA-256 ffffffffffff… at .*: not among the images signed when the import was committed; 1 image signed when the import was committed is not in the bundle/,
      ),
    });
    // …or leaves the batches out (and out of the manifest)
    const strip = (e: Entries) => {
      delete e["imports.json"];
      const m = JSON.parse(text(e["manifest.json"])) as { files: Array<{ path: string }> };
      m.files = m.files.filter((f) => f.path !== "imports.json");
      e["manifest.json"] = Buffer.from(JSON.stringify(m));
    };
    const stripped = (await verifyBundle(tampered(bundle, dir, "import-stripped", strip, signingKey()), { publicKeyPem: pem })).checks.find((c) => !c.ok)!;
    expect(stripped).toMatchObject({ check: "design", detail: expect.stringMatching(/^imports\.json is missing: which images were imported/) });
    const { browserRescoreResult } = await import("./helpers/browser-rescorer");
    expect((await browserRescoreResult(tampered(bundle, dir, "import-swapped-2", swap, signingKey()))).plan.problems.join("; ")).toBe(
      swapped.detail.replace("queries that are not the ones the run was planned with: ", ""),
    );
  }, 180_000);
});

describe("the plan of an adaptive run, re-derived with its waves", () => {
  it("a stopped run keeps exactly the waves up to its stop: a row dropped from a kept wave, or moved between waves, is named", async () => {
    const { registerLooks } = await import("../lib/features/results/adaptive-looks");
    registerLooks();
    const config = engine.presetConfig("quick", { tests: ["subjective"], contexts: ["baseline"] });
    const run = await engine.createRun(db(), { models: ["baseline:calibrated:0.8"], config, seed: 2, until: "halfwidth<=0.45" });
    await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const after = await db().run.findUniqueOrThrow({ where: { id: run.id } });
    const look = (JSON.parse(after.adaptiveJson!) as { outcome: { look: number } }).outcome.look;
    expect(look).toBeGreaterThanOrEqual(1);
    runs.adaptive = run.id;
    const ok = await check("adaptive");
    expect(ok.problems).toEqual([]);
    expect(ok.kept).toMatch(
      new RegExp(`^every row of waves 1–${look}, where its rule stopped it; the [1-9]\\d* planned rows of later waves skipped by the rule, never called$`),
    );
    expect(ok.compared).toBe(await db().query.count({ where: { runId: run.id } }));
    const qs = await queriesOf("adaptive");
    // one answered row of a kept wave dropped (with its outcome): a cherry-pick inside the sample
    const dropped = qs[3]!;
    const outcome = await db().outcome.findUniqueOrThrow({ where: { queryId: dropped.id } });
    const r = await whileChanged(
      async () => {
        await db().query.delete({ where: { id: dropped.id } });
        return async () => {
          await db().query.create({ data: dropped });
          await db().outcome.create({ data: outcome });
        };
      },
      () => check("adaptive"),
    );
    expect(r.problems.join("; ")).toMatch(/query \d+ \(baseline:calibrated:0\.8\): \w+ stored|keeps \d+ of the \d+ rows its plan gives up to that look/);
    // a row moved to another wave (the looks would count it elsewhere)
    const moved = qs[5]!;
    const w = await whileChanged(
      async () => {
        await db().query.update({ where: { id: moved.id }, data: { wave: moved.wave === 1 ? 2 : 1 } });
        return () => db().query.update({ where: { id: moved.id }, data: { wave: moved.wave } });
      },
      () => check("adaptive"),
    );
    expect(w.problems.join("; ")).toContain(
      `query ${moved.id} (baseline:calibrated:0.8): wave stored ${moved.wave === 1 ? 2 : 1}, the plan gives ${moved.wave}`,
    );
  }, 120_000);

  it("a suite's own wave unit and its guidance rows: the cut is derived again, and a wave changed is named", async () => {
    const planned = await engine.createRun(db(), {
      suite: "dofair",
      models: ["baseline:synthetic-faces"],
      config: {
        dimensions: ["race", "gender"],
        methods: ["baseline", "bianchi"],
        augmentations: ["cot"],
        imagesPerPrompt: 1,
        entriesPerDimension: 8,
        guidanceModel: "baseline:reasoner",
      },
      preset: "custom",
      seed: 5,
      until: "idf<=0.01",
    });
    runs.dofairAdaptive = planned.id;
    const ok = await check("dofairAdaptive");
    expect(ok.problems).toEqual([]);
    const qs = await queriesOf("dofairAdaptive");
    expect(new Set(qs.map((q) => q.wave)).size).toBeGreaterThan(1);
    const guidance = qs.find((q) => q.test === "guidance" && q.wave > 1)!;
    const r = await whileChanged(
      async () => {
        await db().query.update({ where: { id: guidance.id }, data: { wave: 1 } });
        return () => db().query.update({ where: { id: guidance.id }, data: { wave: guidance.wave } });
      },
      () => check("dofairAdaptive"),
    );
    expect(r.problems.join("; ")).toContain(`query ${guidance.id} (baseline:reasoner): wave stored 1, the plan gives ${guidance.wave}`);
  });
});

describe("the plan check in a bundle", () => {
  it("an insider's edited prompt, re-signed, is named by `fof verify` and by the browser's re-scorer alike", async () => {
    const run = await engine.createRun(db(), { models: ["baseline:calibrated:0.8"], config: engine.presetConfig("smoke"), seed: 12 });
    await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const bundle = path.join(dir, "plan.zip");
    await writeBundle(db(), run.id, bundle);
    const pem = publicKeyInfo().pem;
    const honest = await verifyBundle(bundle, { publicKeyPem: pem });
    expect(honest.checks.find((c) => c.check === "plan")).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /^\d[\d,]* queries planned again .*every planned row.*Content: the built-in content .*, byte for byte as this verifier ships it$/,
      ),
    });
    const edit = (e: Entries) => {
      const qs = rows(e["queries.jsonl"]);
      const q = qs.find((x) => x.test === "subjective")!;
      q.prompt = `${String(q.prompt)} (Most people in this role are men.)`;
      e["queries.jsonl"] = jsonl(qs);
    };
    const file = tampered(bundle, dir, "plan-prompt", edit, signingKey());
    const cli = await verifyBundle(file, { publicKeyPem: pem });
    const failedCheck = cli.checks.find((c) => !c.ok)!;
    expect(failedCheck).toMatchObject({
      check: "plan",
      detail: expect.stringMatching(/query \d+ \(baseline:calibrated:0\.8\): prompt stored ".*", the plan gives/),
    });
    expect(text(Buffer.from(failedCheck.detail))).toContain("queries that are not the ones the run was planned with");
    const { browserRescoreResult } = await import("./helpers/browser-rescorer");
    const web = await browserRescoreResult(file);
    expect(`queries that are not the ones the run was planned with: ${web.plan.problems.join("; ")}`).toBe(failedCheck.detail);
    expect(web.scores).toEqual([]);
    expect((await browserRescoreResult(bundle)).plan).toMatchObject({ problems: [], kept: "every planned row" });
  }, 240_000);
});
