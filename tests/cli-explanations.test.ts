// `fof explanations RUN` (issue #67): a reasoning run's prevalences printed per model (or per statistic, context,
// cell, group chosen) and as JSON, `--judge` judging every explanation in the process first; a run that did not reason
// exits 1 with the reason.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("fof-explanations-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { createExplanationSample } = await import("../lib/features/explanations/sample");
const { readSample } = await import("./helpers/read-sample");

const run = promisify(execFile);
const fof = (...args: string[]) =>
  run("npm", ["run", "--silent", "fof", "--", ...args], { env: { ...process.env, FOF_DATA_DIR: dir }, maxBuffer: 20 * 1024 * 1024 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
let cot = "";
let plain = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const config = engine.presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"] });
  cot = (await engine.createRun(db(), { models: ["baseline:explainer"], config: { ...config, cot: true }, seed: 6 })).id;
  plain = (await engine.createRun(db(), { models: ["baseline:explainer"], config, seed: 6 })).id;
  await new engine.Worker(db(), { pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  const sample = await createExplanationSample(db(), { name: "cli", runId: cot, annotators: ["ann", "bea"], halfWidth: 0.3 });
  await readSample(db(), sample.id, ["ann", "bea"]);
  await db().$disconnect();
}, 120_000);
afterAll(async () => {
  await db().$disconnect();
});

describe("fof explanations", () => {
  it("judges with --judge, then prints the prevalences as JSON and as a table per statistic", async () => {
    const judged = await fof("explanations", cot, "--judge", "baseline:judge", "--json");
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stderr).toMatch(/judging \d+ explanations with baseline:judge/);
    expect(judged.stderr).toMatch(/judge pass done/);
    const r = JSON.parse(judged.stdout);
    expect(r.judge.model).toBe("baseline:judge");
    expect(r.sample.doublyReviewed).toBe(r.sample.sampled);
    const model = r.rows.find((x: { scope: string }) => x.scope === "model");
    expect(model.tags.map((t: { tag: string }) => t.tag)).toEqual(["representativeness", "attribution", "group", "stereotype"]);
    expect(model.tags[0].people.lo).toBeLessThanOrEqual(model.tags[0].people.estimate);
    const table = await fof("explanations", cot, "--scope", "statistic");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Representativeness bias\s+people \d+\.\d% \[\d+\.\d%, \d+\.\d%\] \(n=\d+\); judge/);
    expect(table.stdout).toMatch(/baseline:explainer · crime-rate/);
  }, 180_000);

  it("exits 1 with the reason for a run that did not reason", async () => {
    const r = await fof("explanations", plain);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/did not ask for reasoning/);
  }, 60_000);
});
