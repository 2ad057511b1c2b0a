// Two readers of one bundle must agree to the last bit: `fof verify` (Node) and /verify (the visitor's Chromium, in
// any locale). A genuine bundle of a reasoning run on two models once verified with `fof verify` and was refused in
// Chromium: 9,673 values re-computed, intervals apart by up to 0.002 — the engines' Math.log/exp/pow differ in the
// last bit on a few inputs in a hundred, and bootstrap percentiles turn that into another interval. Scoring now
// computes with lib/core/libm.ts and orders with lib/core/order.ts; this test runs the browser verifier's re-scorer
// in Chromium under two locales (en-US, and da-DK, whose collation sorts "aa" after "z") and under Node, beside
// `fof verify`, on a bundle that exercises every kind of stated value: scores and their intervals for every test,
// context and attribute, per-statistic cells, and the explanation review (samples, readings, the judge corrected).
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("verifier-chromium-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo } = await import("../lib/features/ledger/keys");
const { createExplanationSample } = await import("../lib/features/explanations/sample");
const { readSample } = await import("./helpers/read-sample");
const { startJudgePass, workJudgePassesUntilDone } = await import("../lib/features/explanations/judge-pass");
const { browserRescoreResult, nodeRescoreResult } = await import("./helpers/browser-rescorer");
type Check = { path: string; recomputed: unknown; equal: boolean };

let bundle = "";
beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const config = { ...engine.presetConfig("smoke"), cot: true };
  const runId = (await engine.createRun(db(), { models: ["baseline:explainer", "baseline:explainer:0.5"], config, seed: 7 })).id;
  await new engine.Worker(db(), { runId, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  const sample = await createExplanationSample(db(), { name: "s", runId, annotators: ["a@example.org", "b@example.org"], halfWidth: 0.3 });
  // the second reader misses every attribution error: agreement below 1, a judge checked against something
  await readSample(db(), sample.id, ["a@example.org", "b@example.org"], (who, p) => who === "b@example.org" && p.error === "attribution");
  await startJudgePass(db(), { id: "starter", role: "admin", spendingLimitUsd: null }, { runId, judge: "baseline:judge" });
  await workJudgePassesUntilDone(db());
  bundle = path.join(dir, "cot.zip");
  await writeBundle(db(), runId, bundle);
}, 300_000);

const values = (r: { scores: Check[]; explanations?: Check[] | null; stopping?: { values: Check[] } | null }) => [
  ...r.scores,
  ...(r.explanations ?? []),
  ...(r.stopping?.values ?? []),
];
/** Paths whose recomputed value is not the same double (or string, or null) in both lists. */
function differing(a: Check[], b: Check[]) {
  const other = new Map(b.map((c) => [c.path, c.recomputed]));
  expect(new Set(b.map((c) => c.path))).toEqual(new Set(a.map((c) => c.path)));
  return a.filter((c) => !Object.is(c.recomputed, other.get(c.path))).map((c) => `${c.path}: ${String(c.recomputed)} / ${String(other.get(c.path))}`);
}

describe("the browser verifier in Chromium", () => {
  it("re-computes every value of a genuine bundle as fof verify and Node do, to the last bit, in any locale", async () => {
    const cli = await verifyBundle(bundle, { publicKeyPem: publicKeyInfo().pem });
    expect(cli.checks.filter((c) => !c.ok)).toEqual([]);
    const node = values(await nodeRescoreResult(bundle));
    expect(node.length).toBeGreaterThan(5_000);
    expect(node.filter((c) => /intervals\..*\.hi$/.test(c.path)).length).toBeGreaterThanOrEqual(100);
    expect(node.filter((c) => /^(rows|agreement)/.test(c.path)).length).toBeGreaterThan(100);
    expect(differing(node, cli.scores)).toEqual([]);
    for (const locale of ["en-US", "da-DK"]) {
      const web = await browserRescoreResult(bundle, { locale });
      expect(web.locale).toBe(locale);
      expect(web.plan.problems).toEqual([]);
      expect(web.readings.problems).toEqual([]);
      const all = values(web);
      expect(all.filter((c) => !c.equal).map((c) => c.path)).toEqual([]);
      expect(differing(all, node)).toEqual([]);
    }
  }, 600_000);
});
