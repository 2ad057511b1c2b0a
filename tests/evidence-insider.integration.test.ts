// An insider's moves found by the third hostile re-test (#65): answers hidden as failures, reuse passed off as fresh or
// taken beyond what the launch allowed, answers dated before the launch, spend below the answers' cost, a budget stop
// with no budget, an image kept beside a query recorded as failed. Each re-signed with the real key (the insider's
// best move); `fof verify` names each, and the browser's re-scorer reads the failures alike.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("evidence-insider-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { tampered, rows, jsonl, text } = await import("./helpers/evidence");
type Entries = import("./helpers/evidence").Entries;
type Row = Record<string, unknown>;

const fast = { pollMs: 10, flushMs: 10 };
const objective = engine.presetConfig("smoke", { tests: ["objective"] });
let pem: string;
const bundles: Record<string, string> = {};

async function work(name: string, launch: Parameters<typeof engine.createRun>[1]) {
  const run = await engine.createRun(db(), launch);
  await new engine.Worker(db(), { runId: run.id, ...fast }).run({ untilDone: true });
  bundles[name] = path.join(dir, `${name}.zip`);
  await writeBundle(db(), run.id, bundles[name]);
  return run.id;
}
/** The first failing check of a bundle changed by `change` and re-signed with the real key. */
async function refused(base: string, name: string, change: (e: Entries) => void) {
  const report = await verifyBundle(tampered(bundles[base], dir, name, change, signingKey()), { publicKeyPem: pem });
  expect(report.ok, name).toBe(false);
  return report.checks.find((c) => !c.ok)!;
}
const editRun = (e: Entries, f: (r: Row) => Row) => (e["run.json"] = Buffer.from(JSON.stringify(f(JSON.parse(text(e["run.json"])) as Row))));
const editOutcomes = (e: Entries, f: (o: Row, i: number) => Row) => (e["outcomes.jsonl"] = jsonl(rows(e["outcomes.jsonl"]).map(f)));

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  pem = publicKeyInfo().pem;
  const own = await work("own", { models: ["baseline:calibrated:0.8"], config: objective, seed: 31 });
  await work("reused", { models: ["baseline:calibrated:0.8"], config: objective, seed: 31, reuseAnswers: { fromRun: own, maxAgeHours: 1 } });
  // A run as launched before its scoring rules were recorded: no Run.rulesJson, and a design signed without them (its
  // design entry, the log's last, is taken back and signed again as the older software signed it).
  const legacy = await engine.createRun(db(), { models: ["baseline:calibrated:0.8"], config: objective, seed: 33 });
  await new engine.Worker(db(), { runId: legacy.id, ...fast }).run({ untilDone: true });
  await db().run.update({ where: { id: legacy.id }, data: { rulesJson: null } });
  await db().logEntry.deleteMany({ where: { runId: legacy.id, kind: "design" } });
  const { commitDesign } = await import("../lib/features/ledger/design");
  await commitDesign(db(), legacy.id);
  bundles.legacy = path.join(dir, "legacy.zip");
  await writeBundle(db(), legacy.id, bundles.legacy);
}, 120_000);

describe("an insider's re-signed bundle", () => {
  it("the honest bundles verify; one whose launch allowed reuse says any answer may be another run's", async () => {
    expect((await verifyBundle(bundles.own, { publicKeyPem: pem })).ok).toBe(true);
    const reused = await verifyBundle(bundles.reused, { publicKeyPem: pem });
    expect(reused.checks.filter((c) => !c.ok)).toEqual([]);
    expect(reused.checks.find((c) => c.check === "completeness")!.detail).toMatch(/76 say they were reused — the team's word; any answer may be another run's/);
  });

  it("wrong answers recorded as failed (raw text kept, or only an attempt left readable) are named, by both verifiers", async () => {
    const fail = (o: Row) => ({ ...o, status: "failed", reason: "provider error 503", parsedLetter: null, gender: null, race: null });
    const wrong = (e: Entries) =>
      new Set(
        rows(e["queries.jsonl"])
          .slice(0, 5)
          .map((q) => q.id),
      );
    const asFailed = (keepRaw: boolean) => (e: Entries) => {
      const ids = wrong(e);
      e["queries.jsonl"] = jsonl(rows(e["queries.jsonl"]).map((q) => (ids.has(q.id) ? { ...q, status: "failed" } : q)));
      editOutcomes(e, (o) => (ids.has(o.queryId) ? { ...fail(o), ...(keepRaw ? {} : { rawText: null }) } : o));
    };
    const raw = await refused("own", "failed-raw", asFailed(true));
    expect(raw).toMatchObject({ check: "readings", detail: expect.stringMatching(/recorded as failed, but its raw answer reads "[A-D]"/) });
    const attempt = await refused("own", "failed-attempt", asFailed(false));
    expect(attempt.detail).toMatch(/recorded as failed, but one of its attempts reads as an answer/);
    const { browserRescoreResult } = await import("./helpers/browser-rescorer");
    const web = await browserRescoreResult(tampered(bundles.own, dir, "failed-raw-web", asFailed(true), signingKey()));
    expect(web.readings.problems.join("; ")).toMatch(/recorded as failed, but its raw answer reads/);
  });

  it("reuse beyond what the signed design allowed: too old, taken before obtained", async () => {
    const old = await refused("reused", "reuse-old", (e) => editOutcomes(e, (o) => ({ ...o, reusedAt: "2019-01-01T00:00:00.000Z" })));
    expect(old).toMatchObject({
      check: "completeness",
      detail: expect.stringMatching(/a reused answer was [\d.]+ hours old when taken; the launch allowed 1/),
    });
    const ahead = await refused("reused", "reuse-ahead", (e) => editOutcomes(e, (o, i) => (i ? o : { ...o, reusedAt: "2999-01-01T00:00:00.000Z" })));
    expect(ahead.detail).toMatch(/1 reused answers were taken before they were obtained/);
  });

  it("answers dated before the launch, spend below what the answers cost, a budget stop with no budget", async () => {
    const early = await refused("own", "dated-early", (e) => editOutcomes(e, (o) => ({ ...o, createdAt: "2026-01-02T10:00:00.000Z" })));
    expect(early).toMatchObject({
      check: "completeness",
      detail: expect.stringMatching(/an outcome is dated 2026-01-02T10:00:00\.000Z, before the run's launch/),
    });
    const started = await refused("own", "started-early", (e) => editRun(e, (r) => ({ ...r, startedAt: "2026-01-01T09:00:00.000Z" })));
    expect(started.detail).toMatch(/recorded as started before it was launched/);
    const cheap = await refused("own", "spend-low", (e) => editOutcomes(e, (o) => ({ ...o, costUsd: 0.25 })));
    expect(cheap.detail).toMatch(/its outcomes cost \$19\.000000, more than the run's recorded spend of \$0\.000000/);
    const budget = await refused("own", "no-budget-stop", (e) => {
      const ids = new Set(
        rows(e["queries.jsonl"])
          .slice(0, 3)
          .map((q) => q.id),
      );
      e["queries.jsonl"] = jsonl(rows(e["queries.jsonl"]).map((q) => (ids.has(q.id) ? { ...q, status: "pending", attempts: 0 } : q)));
      e["outcomes.jsonl"] = jsonl(rows(e["outcomes.jsonl"]).filter((o) => !ids.has(o.queryId)));
      editRun(e, (r) => ({ ...r, status: "budget_exhausted" }));
    });
    expect(budget.detail).toMatch(/stopped by its budget, yet it had none/);
  });
});

describe("the key a reader gives", () => {
  it("the JSON /.well-known/fof-evidence-key shows in a browser is read as the key; text that is no key is named as such, not as a bundle that fails", async () => {
    const info = publicKeyInfo();
    expect((await verifyBundle(bundles.own, { publicKeyPem: JSON.stringify(info) })).ok).toBe(true);
    const notKey = await verifyBundle(bundles.own, { publicKeyPem: "ssh-ed25519 AAAAC3Nza… me@example" });
    expect(notKey.checks.find((c) => !c.ok)).toMatchObject({ check: "key", detail: expect.stringMatching(/^the key is not a PEM public key/) });
    const { readKeyInput } = await import("../lib/evidence/key-input");
    expect(readKeyInput('{"keyid":"x"}')).toEqual({ problem: expect.stringMatching(/no "pem" field/) });
    expect(readKeyInput(`  ${info.pem}  `)).toEqual({ pem: info.pem.trim() + "\n" });
  });
});

describe("the scoring rules a run was launched under", () => {
  it("are signed in its design, and a re-signed bundle cannot present its scores under older ones", async () => {
    const { evidenceScores } = await import("../lib/features/evidence/scores");
    const { reportInput } = await import("../lib/evidence/report-check");
    const { evidenceReport } = await import("../lib/evidence/report");
    const { keyIdOf } = await import("../lib/evidence/dsse");
    const { unzipSync } = await import("fflate");
    const { readFileSync } = await import("node:fs");
    const e = unzipSync(readFileSync(bundles.own));
    const runId = (JSON.parse(text(e["run.json"])) as { id: string }).id;
    expect(e["design.dsse.json"]).toBeTruthy();
    const { designOf } = await import("../lib/features/ledger/design");
    const design = JSON.parse(Buffer.from((await designOf(db(), runId))!.envelope.payload, "base64").toString("utf8")) as { predicate: { rules?: unknown } };
    expect(design.predicate.rules).toEqual({ scoring: "release-scripts", quantile: "t" });
    // The insider's best move: take the values the older rules give (narrower intervals, the paper's S_KLD), drop
    // the rules from scores.json, render the page again, re-sign with the real key.
    const db2 = db();
    const run = await db2.run.findUniqueOrThrow({ where: { id: runId } });
    await db2.run.update({ where: { id: runId }, data: { rulesJson: null } });
    const older = await evidenceScores(db2, runId, {});
    await db2.run.update({ where: { id: runId }, data: { rulesJson: run.rulesJson } });
    expect(older).not.toHaveProperty("quantile");
    const forged = tampered(
      bundles.own,
      dir,
      "older-rules",
      (x) => {
        x["scores.json"] = Buffer.from(JSON.stringify(older));
        const small = Object.fromEntries(
          ["content.json", "run.json", "models.jsonl", "run-models.jsonl", "scores.json", "software.json"].map((f) => [f, x[f]]),
        );
        x["report.html"] = Buffer.from(evidenceReport(reportInput(small, keyIdOf(signingKey()))));
      },
      signingKey(),
    );
    const report = await verifyBundle(forged, { publicKeyPem: pem });
    expect(report.checks.find((c) => !c.ok)).toMatchObject({
      check: "scores",
      detail: expect.stringMatching(
        /scores\.json states other rules than the run was launched under.*scoring nothing \(launched under "release-scripts"\); quantile nothing \(launched under "t"\)/,
      ),
    });
    // …and clearing the run's recorded rules too is a run that differs from its signed design
    const both = await verifyBundle(
      tampered(forged, dir, "older-rules-run", (x) => editRun(x, (r) => ({ ...r, rulesJson: null })), signingKey()),
      { publicKeyPem: pem },
    );
    expect(both.checks.find((c) => !c.ok)!.check).toBe("design");
  });
});

describe("scores.json shaped for its page", () => {
  it("a made-up value beside a flat key holding the true one, other words for the method, counts dropped: refused", async () => {
    const { reportInput } = await import("../lib/evidence/report-check");
    const { evidenceReport } = await import("../lib/evidence/report");
    const { keyIdOf } = await import("../lib/evidence/dsse");
    const reSigned = (name: string, edit: (scores: Row) => void) =>
      tampered(
        bundles.own,
        dir,
        name,
        (x) => {
          const scores = JSON.parse(text(x["scores.json"])) as Row;
          edit(scores);
          x["scores.json"] = Buffer.from(JSON.stringify(scores));
          const small = Object.fromEntries(
            ["content.json", "run.json", "models.jsonl", "run-models.jsonl", "scores.json", "software.json"].map((f) => [f, x[f]]),
          );
          x["report.html"] = Buffer.from(evidenceReport(reportInput(small, keyIdOf(signingKey()))));
        },
        signingKey(),
      );
    const flat = await verifyBundle(
      reSigned("flat-key", (scores) => {
        const inner = scores.scores as { groups: Row[] };
        const g = inner.groups[0];
        const truth = g.sFact;
        g.sFact = 0.95;
        (inner as Row)[`groups[${[g.model, g.modality, g.test, g.context, g.attribute].filter((v) => typeof v === "string" && v).join(" · ")}].sFact`] = truth;
      }),
      { publicKeyPem: pem },
    );
    expect(flat.checks.find((c) => !c.ok)).toMatchObject({ check: "scores" });
    expect(flat.scores.filter((c) => !c.equal).map((c) => c.path)).toContainEqual(expect.stringMatching(/^scores\.groups\[.*\]\.sFact$/));
    const method = await verifyBundle(
      reSigned("method-words", (scores) => void (scores.method = "bias-corrected estimate ± z × standard error, 5000 resamples, Wilson")),
      { publicKeyPem: pem },
    );
    expect(method.checks.find((c) => !c.ok)).toMatchObject({ check: "scores", detail: expect.stringMatching(/method/) });
    const uncounted = await verifyBundle(
      reSigned("no-counts", (scores) => void delete scores.counts),
      { publicKeyPem: pem },
    );
    expect(uncounted.checks.find((c) => !c.ok)).toMatchObject({ check: "scores", detail: expect.stringMatching(/counts/) });
  });
});

describe("bundles written before the release profile followed the released scripts", () => {
  it("verify as they were scored (the paper's definitions, bounded d for images), and the scores check says so", async () => {
    const { evidenceScores } = await import("../lib/features/evidence/scores");
    const { reportInput } = await import("../lib/evidence/report-check");
    const { evidenceReport } = await import("../lib/evidence/report");
    const { keyIdOf } = await import("../lib/evidence/dsse");
    const runId = (JSON.parse(text((await import("fflate")).unzipSync((await import("node:fs")).readFileSync(bundles.legacy))["run.json"])) as { id: string })
      .id;
    // what a bundle of 2026-12-06 stated: scores.json without "scoring", scored under the legacy rule
    const legacy = await evidenceScores(db(), runId, {});
    expect(legacy).not.toHaveProperty("scoring");
    // … and without "quantile": its intervals were the normal quantile's, and are re-computed so
    expect(legacy).not.toHaveProperty("quantile");
    expect((legacy.scores as { intervals: { method: string } }).intervals.method).toMatch(/± z × standard error/);
    const current = await evidenceScores(db(), runId);
    expect(current).toHaveProperty("quantile", "t");
    expect(current).toHaveProperty("scoring", "release-scripts");
    expect((current.scores as { intervals: { method: string } }).intervals.method).toMatch(/± t × standard error.*degrees of freedom/);
    const old = tampered(
      bundles.legacy,
      dir,
      "legacy-scoring",
      (e) => {
        e["scores.json"] = Buffer.from(JSON.stringify(legacy));
        const small = Object.fromEntries(
          ["content.json", "run.json", "models.jsonl", "run-models.jsonl", "scores.json", "software.json"].map((f) => [f, e[f]]),
        );
        e["report.html"] = Buffer.from(evidenceReport(reportInput(small, keyIdOf(signingKey()))));
      },
      signingKey(),
    );
    const report = await verifyBundle(old, { publicKeyPem: pem });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.find((c) => c.check === "scores")!.detail).toMatch(/as it was before 2026-12-07/);
    expect(report.checks.find((c) => c.check === "scores")!.detail).toMatch(/intervals with the normal quantile/);
    // today's bundles say they follow the scripts
    const today = await verifyBundle(bundles.own, { publicKeyPem: pem });
    expect(today.checks.find((c) => c.check === "scores")!.detail).toMatch(/as the authors' released scripts compute it/);
    // and the legacy scores differ from today's where the scripts differ from the paper (S_KLD)
    expect(JSON.stringify(legacy.scores)).not.toBe(JSON.stringify((await evidenceScores(db(), runId)).scores));
  });
});
