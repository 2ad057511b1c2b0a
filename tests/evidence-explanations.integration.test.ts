// A reasoning run's explanations in its evidence bundle (issue #67, format v3): the sample, readings (reviewers as
// pseudonyms), gold, the judge's declared identity, passes and raw replies travel with the run; both verifiers
// re-compute the prevalences, intervals, agreement and the judge's accuracy from them and agree value by value. An
// insider who re-signs a bundle with a made-up prevalence, the judge's stored tags changed, the explanations left
// out (the format lowered) or another run's readings slipped in is named.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("evidence-explanations-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { createExplanationSample } = await import("../lib/features/explanations/sample");
const { readSample } = await import("./helpers/read-sample");
const { startJudgePass, workJudgePassesUntilDone } = await import("../lib/features/explanations/judge-pass");
const { tampered, rows, jsonl, text } = await import("./helpers/evidence");
type Entries = import("./helpers/evidence").Entries;

let pem = "";
let bundle = "";
let runId = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  pem = publicKeyInfo().pem;
  const config = engine.presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"] });
  runId = (await engine.createRun(db(), { models: ["baseline:explainer"], config: { ...config, cot: true }, seed: 4 })).id;
  await new engine.Worker(db(), { runId, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  const sample = await createExplanationSample(db(), { name: "s", runId, annotators: ["reviewer-a@example.org", "reviewer-b@example.org"], halfWidth: 0.3 });
  await readSample(db(), sample.id, ["reviewer-a@example.org", "reviewer-b@example.org"]);
  await startJudgePass(db(), { id: "judge-starter", role: "admin", spendingLimitUsd: null }, { runId, judge: "baseline:judge" });
  await workJudgePassesUntilDone(db());
  bundle = path.join(dir, "cot.zip");
  await writeBundle(db(), runId, bundle);
}, 180_000);

async function firstFailure(name: string, change: (e: Entries) => void) {
  const report = await verifyBundle(tampered(bundle, dir, name, change, signingKey()), { publicKeyPem: pem });
  expect(report.ok, name).toBe(false);
  return report.checks.find((c) => !c.ok)!;
}

describe("a reasoning run's bundle", () => {
  it("carries the review with reviewers as pseudonyms, and both verifiers re-compute the explanation results alike", async () => {
    const report = await verifyBundle(bundle, { publicKeyPem: pem });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    const check = report.checks.find((c) => c.check === "explanations")!;
    expect(check.detail).toMatch(/values recomputed from the readings and judgments .*: all equal/);
    const { unzipSync } = await import("fflate");
    const { readFileSync } = await import("node:fs");
    const e = unzipSync(readFileSync(bundle));
    const all = Object.entries(e)
      .filter(([n]) => n !== "report.html")
      .map(([, b]) => text(b))
      .join("\n");
    expect(all).not.toContain("reviewer-a@example.org");
    expect(all).not.toContain("judge-starter");
    expect(rows(e["explanation-readings.jsonl"]).every((r) => String(r.annotator).startsWith("person-"))).toBe(true);
    const stated = JSON.parse(text(e["explanations.json"]));
    expect(stated.judge.model).toBe("baseline:judge");
    expect(stated.reviewers.map((r: { annotator: string }) => r.annotator).every((a: string) => a.startsWith("person-"))).toBe(true);
    const { browserRescoreResult } = await import("./helpers/browser-rescorer");
    const web = await browserRescoreResult(bundle);
    expect(web.explanations!.length).toBeGreaterThan(100);
    expect(web.explanations!.filter((c) => !c.equal)).toEqual([]);
    const cli = report.scores.filter((s) => s.path.startsWith("rows") || s.path.startsWith("agreement"));
    const webValues = new Map(web.explanations!.map((s) => [s.path, s.recomputed]));
    for (const s of cli) expect(webValues.get(s.path), s.path).toEqual(s.recomputed);
  }, 240_000);

  it("names an insider's made-up prevalence, changed judge tags, a lowered format and readings of another run", async () => {
    const made = await firstFailure("prevalence", (e) => {
      const s = JSON.parse(text(e["explanations.json"]));
      s.rows[0].tags[0].people.estimate = 0.01;
      e["explanations.json"] = Buffer.from(JSON.stringify(s));
    });
    expect(made.check).toBe("explanations");
    expect(made.detail).toMatch(/do not follow from the readings/);
    // the stored tags are not what counts: the judge's raw reply is parsed again
    const judged = await verifyBundle(
      tampered(
        bundle,
        dir,
        "judge-tags",
        (e) => (e["explanation-judgments.jsonl"] = jsonl(rows(e["explanation-judgments.jsonl"]).map((j) => ({ ...j, tagsJson: "[]" })))),
        signingKey(),
      ),
      { publicKeyPem: pem },
    );
    expect(judged.checks.filter((c) => !c.ok)).toEqual([]);
    // a changed raw reply changes the recomputation: the stated numbers no longer follow
    const reply = await firstFailure(
      "judge-reply",
      (e) => (e["explanation-judgments.jsonl"] = jsonl(rows(e["explanation-judgments.jsonl"]).map((j) => ({ ...j, rawText: '{"tags": []}' })))),
    );
    expect(reply.check).toBe("explanations");
    const lowered = await firstFailure("lowered", (e) => {
      const m = JSON.parse(text(e["manifest.json"]));
      m.format = "fof-evidence/v2";
      m.files = m.files.filter((f: { path: string }) => !/^(review-|explanation|judge-)/.test(f.path));
      e["manifest.json"] = Buffer.from(JSON.stringify(m));
      for (const n of Object.keys(e)) if (/^(review-|explanation|judge-)/.test(n)) delete e[n];
    });
    expect(lowered.detail).toMatch(/reasoned first .* carries no explanations/);
    // which explanations were read is not the insider's to choose: a sample's items and seed are drawn again
    const swapped = await firstFailure("sample-items", (e) => {
      const items = rows(e["review-items.jsonl"]);
      const others = rows(e["outcomes.jsonl"]).filter((o) => !items.some((i) => i.outcomeId === o.id));
      e["review-items.jsonl"] = jsonl(items.map((i, k) => (k === 0 ? { ...i, outcomeId: others[0].id } : i)));
    });
    expect(swapped.check).toBe("explanations");
    expect(swapped.detail).toMatch(/sample 1 .*dealt/);
    const reseeded = await firstFailure(
      "sample-seed",
      (e) => (e["review-assignments.jsonl"] = jsonl(rows(e["review-assignments.jsonl"]).map((a) => ({ ...a, seed: 12345 })))),
    );
    expect(reseeded.detail).toMatch(/sample 1 .*seed/);
    // a stored text hash that is not the explanation's would drop readings silently: named
    const hashed = await firstFailure(
      "text-hash",
      (e) => (e["explanation-readings.jsonl"] = jsonl(rows(e["explanation-readings.jsonl"]).map((r) => ({ ...r, textSha256: "0".repeat(64) })))),
    );
    expect(hashed.detail).toMatch(/readings\.text/);
    // a judgment's stored status is the team's word: the replies are read whatever it says, and the numbers stand
    const statuses = await verifyBundle(
      tampered(
        bundle,
        dir,
        "statuses",
        (e) => (e["explanation-judgments.jsonl"] = jsonl(rows(e["explanation-judgments.jsonl"]).map((j) => ({ ...j, status: "invalid" })))),
        signingKey(),
      ),
      { publicKeyPem: pem },
    );
    expect(statuses.checks.filter((c) => !c.ok)).toEqual([]);
    // a pass marked cancelled still judged what it judged: only its stated status differs
    const cancelled = await firstFailure(
      "pass-cancelled",
      (e) => (e["judge-passes.jsonl"] = jsonl(rows(e["judge-passes.jsonl"]).map((p) => ({ ...p, status: "cancelled" })))),
    );
    expect(cancelled.detail).toMatch(/1 of \d+ values .*judge\.status/);
    const foreign = await firstFailure("foreign", (e) => {
      const rs = rows(e["explanation-readings.jsonl"]);
      e["explanation-readings.jsonl"] = jsonl([...rs, { ...rs[0], id: 999_999, outcomeId: 987_654 }]);
    });
    expect(foreign.check).toBe("completeness");
  }, 240_000);
});
