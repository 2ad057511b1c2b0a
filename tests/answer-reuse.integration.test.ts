// A run's answers are that run's (#66 item 0): answers from another run only when the launch asks (a run, an age),
// each such outcome saying where and when it was obtained — on the run page, in exports, in the evidence bundle, whose
// design signs what was asked; two seeds of the synthetic image model are two samples; and queries a suite keeps apart
// (DoFaiR's gender entry and its race twin, same prompt) never share a cached answer.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("answer-reuse-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { tampered, rows, jsonl } = await import("./helpers/evidence");
const { reuseFromFlags, parseAge, reusedText } = await import("../lib/results/answer-reuse");
const { runItems } = await import("../lib/features/runs/items");

const prisma = () => db();
const fast = { pollMs: 10, flushMs: 10, backoffBaseMs: 20, backoffMaxMs: 100 };
const objective = engine.presetConfig("smoke", { tests: ["objective"] });
const BASE = "baseline:calibrated:0.8";
const hasShared = existsSync(path.resolve(__dirname, "../../shared/models/test-images"));

async function work(launch: Parameters<typeof engine.createRun>[1]) {
  const run = await engine.createRun(prisma(), launch);
  await new engine.Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
  return run.id;
}
const outcomesOf = (runId: string) => prisma().outcome.findMany({ where: { query: { runId } }, orderBy: { queryId: "asc" } });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await prisma().$disconnect();
});

describe("answers another run obtained", () => {
  it("by age: the newest answer within it, never an older one; refused launches name the field", async () => {
    const old = await work({ models: [BASE], config: objective, seed: 21 });
    const recent = await work({ models: [BASE], config: objective, seed: 21 });
    // the first run's answers are 3 days old
    await prisma().responseCache.updateMany({ where: { runId: old }, data: { createdAt: new Date(Date.now() - 72 * 3_600_000) } });
    const within = await work({ models: [BASE], config: objective, seed: 21, reuseAnswers: { maxAgeHours: 24 } });
    const outs = await outcomesOf(within);
    expect(outs.length).toBe(76);
    expect(new Set(outs.map((o) => o.reusedFromRunId))).toEqual(new Set([recent]));
    // older than the age: asked again (the baseline answers; nothing reused)
    const none = await work({ models: [BASE], config: objective, seed: 21, reuseAnswers: { fromRun: old, maxAgeHours: 24 } });
    expect((await outcomesOf(none)).every((o) => o.reusedFromRunId === null && !o.cached)).toBe(true);
    await expect(engine.createRun(prisma(), { models: [BASE], config: objective, seed: 1, reuseAnswers: { fromRun: "no-such-run" } })).rejects.toThrow(
      /reuseAnswers: there is no run "no-such-run"/,
    );
    expect(() => reuseFromFlags(undefined, "soon")).toThrow(/30d, 12h/);
    expect(reuseFromFlags("abc", "2w")).toEqual({ fromRun: "abc", maxAgeHours: 336 });
    expect(parseAge("90m")).toBe(1.5);
    expect(reuseFromFlags(undefined, undefined)).toBeUndefined();
  });

  it("says so on the run page, in the item list, in exports and in the evidence bundle, whose checks hold it to the signed design", async () => {
    const source = await work({ models: [BASE], config: objective, seed: 22 });
    const reused = await work({ models: [BASE], config: objective, seed: 22, reuseAnswers: { fromRun: source } });
    const summary = (await engine.runSummary(prisma(), reused))!;
    expect(summary.answerReuse).toMatchObject({ allowed: expect.stringContaining(`run ${source}`), reused: [{ fromRunId: source, answers: 76 }] });
    expect((await engine.runSummary(prisma(), source))!.answerReuse).toBeNull();
    const items = (await runItems(prisma(), reused, { pageSize: 5 }))!;
    expect(items.rows[0].outcome!.reused).toMatch(new RegExp(`^reused from run ${source}, obtained \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`));
    const lines: Array<Record<string, unknown>> = [];
    for await (const chunk of engine.runRecordChunks(prisma(), reused))
      for (const r of chunk) lines.push(JSON.parse(engine.recordLine(r)) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.reusedFromRun === source && typeof l.obtainedAt === "string")).toBe(true);
    const own: Array<Record<string, unknown>> = [];
    for await (const chunk of engine.runRecordChunks(prisma(), source))
      for (const r of chunk) own.push(JSON.parse(engine.recordLine(r)) as Record<string, unknown>);
    expect(own.some((l) => "reusedFromRun" in l)).toBe(false);
    expect(reusedText(null, null)).toBeNull();

    const pem = publicKeyInfo().pem;
    const bundle = path.join(dir, "reused.zip");
    await writeBundle(prisma(), reused, bundle);
    const honest = await verifyBundle(bundle, { publicKeyPem: pem });
    expect(honest.checks.filter((c) => !c.ok)).toEqual([]);
    expect(honest.checks.find((c) => c.check === "completeness")!.detail).toMatch(/76 say they were reused — the team's word; any answer may be another run's/);
    // An insider passes the reused answers off as this run's sample: the run's setting dropped, and with it every
    // outcome's word on where its answer came from. The outcomes alone are refused; with them, the signed design is not met.
    const unsaid = (strip: boolean) =>
      tampered(
        bundle,
        dir,
        `reuse-unsaid-${strip}`,
        (e) => {
          const run = JSON.parse(Buffer.from(e["run.json"]).toString("utf8")) as Record<string, unknown>;
          e["run.json"] = Buffer.from(JSON.stringify({ ...run, reuseJson: null }));
          if (strip) e["outcomes.jsonl"] = jsonl(rows(e["outcomes.jsonl"]).map((o) => ({ ...o, cached: false, reusedFromRunId: null, reusedAt: null })));
        },
        signingKey(),
      );
    const half = await verifyBundle(unsaid(false), { publicKeyPem: pem });
    expect(half.checks.find((c) => !c.ok)!.detail).toMatch(/76 outcomes say their answers are other runs', yet the run's launch asked to reuse none/);
    const whole = await verifyBundle(unsaid(true), { publicKeyPem: pem });
    expect(whole.ok).toBe(false);
    expect(whole.checks.find((c) => !c.ok)).toMatchObject({ check: "design", detail: expect.stringMatching(/answerReuse/) });
    // A run that asked for no reuse whose outcomes say they are another run's (answers shipped in from elsewhere): refused.
    const ownBundle = path.join(dir, "own.zip");
    await writeBundle(prisma(), source, ownBundle);
    const smuggled = tampered(
      ownBundle,
      dir,
      "reuse-smuggled",
      (e) => {
        e["outcomes.jsonl"] = jsonl(rows(e["outcomes.jsonl"]).map((o, i) => (i < 3 ? { ...o, reusedFromRunId: "elsewhere", reusedAt: o.createdAt } : o)));
      },
      signingKey(),
    );
    const v2 = await verifyBundle(smuggled, { publicKeyPem: pem });
    expect(v2.ok).toBe(false);
    expect(v2.checks.find((c) => !c.ok)!.detail).toMatch(/3 outcomes say their answers are other runs', yet the run's launch asked to reuse none/);
  });
});

describe("samples the engine keeps apart", () => {
  it.skipIf(!hasShared)("the synthetic image model draws from the run's seed: two seeds, two samples; one seed, the same images", async () => {
    const t2i = engine.t2iPresetConfig("smoke", { tests: ["objective"] });
    const images = async (seed: number) => {
      const id = await work({ models: ["baseline:synthetic-faces"], config: t2i, seed });
      return (await prisma().image.findMany({ where: { runId: id }, orderBy: { queryId: "asc" }, select: { sha256: true } })).map((i) => i.sha256);
    };
    const [a, b, again] = [await images(12), await images(13), await images(12)];
    expect(a.length).toBeGreaterThan(10);
    expect(b.length).toBe(a.length);
    expect(a.filter((s, i) => s !== b[i]).length).toBeGreaterThan(a.length / 2);
    // a second run of seed 12 drew again (its own sample) and, the model being seeded, drew the same
    expect(again).toEqual(a);
  });

  it("no two queries of a run share a cached answer: DoFaiR's gender entries and their race twins are asked apart", async () => {
    const config = { dimensions: ["race", "gender"], methods: ["baseline"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 12 };
    const run = await engine.createRun(prisma(), { suite: "dofair", models: ["baseline:synthetic-faces"], config, preset: "custom", seed: 6 });
    const qs = await prisma().query.findMany({ where: { runId: run.id }, select: { prompt: true, cacheKey: true, statisticId: true } });
    const byPrompt = new Map<string, number>();
    for (const q of qs) byPrompt.set(q.prompt, (byPrompt.get(q.prompt) ?? 0) + 1);
    // the premise: some prompts are shared between the dimensions…
    expect([...byPrompt.values()].some((n) => n > 1)).toBe(true);
    // …and still every query has its own key
    expect(new Set(qs.map((q) => q.cacheKey)).size).toBe(qs.length);
  });
});
