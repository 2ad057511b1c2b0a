import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { upperBound } from "../lib/metrics";
import { testDataDir } from "./helpers/data-dir";

const run = promisify(execFile);
async function fofRun(args: string[]) {
  const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-") };
  const { stdout } = await run("npm", ["run", "--silent", "fof", "--", "run", ...args], { env, maxBuffer: 10 * 1024 * 1024 });
  return { stdout, results: JSON.parse(stdout).results as Array<Record<string, number | string | null>> };
}

describe("fof run (built-in baselines, no key)", () => {
  it("prints scores deterministically for a fixed seed", async () => {
    const args = ["--model", "baseline:calibrated:0.8", "--tests", "objective,subjective", "--preset", "smoke", "--seed", "1"];
    const [a, b] = [await fofRun(args), await fofRun(args)];
    expect(a.stdout).toBe(b.stdout);
    expect(a.results).toHaveLength(10);
  });

  it("says how many answers a run allowed to reuse took from other runs, and asks again without the flag", async () => {
    const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-reuse-") };
    const fof = (args: string[]) => run("npm", ["run", "--silent", "fof", "--", "run", ...args], { env, maxBuffer: 10 * 1024 * 1024 });
    const args = ["--model", "baseline:calibrated:0.8", "--tests", "objective", "--preset", "smoke", "--seed", "5"];
    const first = await fof(args);
    const id = /run (\S+): completed/.exec(first.stderr)![1];
    expect(first.stderr).not.toMatch(/reused/);
    const again = await fof([...args, "--reuse-answers-from", id]);
    expect(again.stderr).toMatch(new RegExp(`: (\\d+) answers reused from other runs \\(allowed: \\{"fromRun":"${id}"\\}\\); the rest obtained for it`));
    expect(Number(/: (\d+) answers reused/.exec(again.stderr)![1])).toBeGreaterThan(0);
    expect((await fof(args)).stderr).not.toMatch(/reused/);
  });

  it("the calibrated oracle lands on the curve", async () => {
    const a = await fofRun(["--model", "baseline:calibrated:0.8", "--tests", "objective,subjective", "--preset", "quick", "--seed", "1"]);
    const objective = a.results.filter((r) => r.test === "objective");
    expect(objective).toHaveLength(2);
    for (const r of objective) {
      expect(r.sFact as number).toBeGreaterThan(0.75);
      expect(r.sFact as number).toBeLessThan(0.85);
      const k = r.attribute === "gender" ? 2 : 4;
      expect(Math.abs((r.sE as number) - upperBound(k)(r.sFact as number))).toBeLessThan(0.08);
      expect(r.distance as number).toBeLessThan(0.05);
    }
    // Subjective answers aim at race: race S_fact ≈ a for every context.
    for (const r of a.results.filter((x) => x.test === "subjective" && x.attribute === "race")) expect(r.sFact as number).toBeGreaterThan(0.75);
    expect(a.results.filter((x) => x.test === "subjective")).toHaveLength(8);
  });

  it("uniform random answers have S_E ≈ 1", async () => {
    const { results } = await fofRun(["--model", "baseline:uniform", "--tests", "subjective", "--contexts", "baseline", "--preset", "quick", "--seed", "2"]);
    expect(results).toHaveLength(2);
    for (const r of results) expect(r.sE as number).toBeGreaterThan(0.93);
  });
});

// The synthetic image model composes the shared test photos.
const hasPhotos = existsSync(path.resolve(__dirname, "../../shared/models/test-images"));

describe.skipIf(!hasPhotos)("fof run --suite (a suite's own preset and settings)", () => {
  it("plans and works a DoFaiR run on the synthetic image model and prints the suite's views", async () => {
    const { stdout } = await fofRun([
      "--suite",
      "dofair",
      "--model",
      "baseline:synthetic-faces",
      "--preset",
      "smoke",
      "--config",
      '{"entriesPerDimension": 2}',
      "--seed",
      "4",
    ]);
    const body = JSON.parse(stdout) as {
      suite: { id: string; version: string };
      labels: string;
      views: Array<{ id: string; kind: string; groups?: Array<{ rows: Array<{ source: string }> }> }>;
    };
    expect(body.suite.id).toBe("dofair");
    expect(body.suite.version).toMatch(/^dofair-/);
    expect(body.labels).toBe("model");
    const table = body.views.find((v) => v.id === "table2")!;
    // Images are generated but not labelled yet (faces are labelled in the browser): only the paper's rows.
    const rows = table.groups!.flatMap((g) => g.rows);
    expect(rows.filter((r) => r.source === "run")).toHaveLength(0);
    expect(rows.filter((r) => r.source === "published").length).toBeGreaterThan(10);
    expect(body.views.some((v) => v.kind === "list")).toBe(false);
  });

  it("refuses FACT-OR-FAIR options, bad JSON and settings the suite's schema rejects", async () => {
    const fail = (args: string[]) =>
      fofRun(args).then(
        () => "",
        (e: { stderr: string }) => e.stderr,
      );
    expect(await fail(["--suite", "dofair", "--model", "baseline:synthetic-faces", "--preset", "smoke", "--tests", "objective"])).toMatch(
      /--tests: FACT-OR-FAIR options/,
    );
    expect(await fail(["--suite", "dofair", "--model", "baseline:synthetic-faces", "--preset", "smoke", "--config", "{nope"])).toMatch(/--config is not JSON/);
    expect(await fail(["--suite", "dofair", "--model", "baseline:synthetic-faces", "--preset", "smoke", "--config", '{"imagesPerPrompt": 0}'])).toMatch(
      /invalid DoFaiR configuration: imagesPerPrompt/,
    );
    expect(await fail(["--suite", "nope", "--model", "baseline:uniform"])).toMatch(/unknown suite "nope"/);
  });
});

describe("fof worker logs", () => {
  it("writes structured JSON lines with the worker's id on stderr, and serves GET /metrics on FOF_METRICS_LISTEN", async () => {
    const { spawn } = await import("node:child_process");
    const { createServer } = await import("node:net");
    // A free port for the worker's metrics listener (docs/operations.md: set it on worker hosts).
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    // Without VITEST in its environment the child logs at FOF_LOG_LEVEL (tests are silent otherwise).
    const { VITEST: _vitest, ...parent } = process.env;
    const env = { ...parent, FOF_DATA_DIR: testDataDir("fof-worker-log-"), FOF_LOG_LEVEL: "info", FOF_METRICS_LISTEN: `127.0.0.1:${port}` };
    const child = spawn(process.execPath, ["--import", "tsx", "bin/fof.ts", "worker"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log line: ${err}`)), 60_000);
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
        const first = err.split("\n").find((l) => l.includes("worker started"));
        if (first && err.includes("metrics on http://")) {
          clearTimeout(timer);
          resolve(first);
        }
      });
    });
    // The same token check as the server's route: no token, 401 (tests/metrics.integration.test.ts covers the rest).
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(401);
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    const entry = JSON.parse(line);
    expect(entry).toMatchObject({ level: 30, component: "worker", msg: "worker started" });
    expect(entry.worker).toMatch(/^[^:]+:\d+:[0-9a-f]{8}$/);
    expect(new Date(entry.time).getTime()).toBeGreaterThan(0);
  });

  it("with --label-if-available (npm start's worker), face models that do not load are logged and runs still worked", async () => {
    const { startFof } = await import("./helpers/service-process");
    const { VITEST: _vitest, ...parent } = process.env;
    const env = { ...parent, FOF_DATA_DIR: testDataDir("fof-worker-soft-"), FOF_LOG_LEVEL: "info", FAIRFACE_MODEL_PATH: "/nowhere/fairface.onnx" };
    const worker = startFof(["worker", "--label", "--label-if-available"], env);
    await worker.until(
      "the worker started without labelling",
      async () => /"calls":true,"labels":false,"msg":"worker started"/.test(worker.output()),
      90_000,
      100,
    );
    expect(worker.output()).toMatch(/not labelling \(runs are worked without it\): no FairFace model/);
    expect(await worker.stop(30_000)).toBe(0);
    // Without the flag, as a `fof worker` unit runs: the mistake stops the command.
    const strict = startFof(["worker", "--label"], env);
    await strict.until("the command to exit", async () => strict.child.exitCode !== null, 90_000, 100).catch(() => undefined);
    expect(await strict.stop(30_000)).not.toBe(0);
    expect(strict.output()).toMatch(/no FairFace model/);
  }, 200_000);

  it("refuses the synthetic image model without its photos, with the reason, and exits non-zero", async () => {
    const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-"), FOF_SYNTHETIC_FACES: "/nowhere/face.png" };
    const failed = await run("npm", ["run", "--silent", "fof", "--", "run", "--suite", "dofair", "--model", "baseline:synthetic-faces", "--preset", "smoke"], {
      env,
    }).then(
      () => null,
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).toBe(1);
    expect(failed!.stderr).toMatch(/"baseline:synthetic-faces" cannot run: the synthetic image model needs face photos: \/nowhere\/face\.png not found/);
    expect(failed!.stdout).toBe("");
  });
});

describe("fof --server", () => {
  it("names the host and the system's error when the server refuses the connection, and stops at once", async () => {
    const net = await import("node:net");
    // A port nothing listens on: bound, then closed.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const failed = await run(process.execPath, [
      "--import",
      "tsx",
      "bin/fof.ts",
      "--server",
      `http://127.0.0.1:${port}`,
      "--token",
      "fof_x",
      "scores",
      "r1",
    ]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`cannot reach http://127.0.0.1:${port} (ECONNREFUSED 127.0.0.1:${port})`);
  });
});

describe("fof run --until (adaptive)", () => {
  it("stops at the target, prints the verdict, and reports the intervals valid under the stopping rule", async () => {
    const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-until-") };
    const args = ["--model", "baseline:calibrated:0.8", "--tests", "subjective", "--contexts", "baseline", "--preset", "quick", "--until", "halfwidth<=0.45"];
    const { stdout, stderr } = await run("npm", ["run", "--silent", "fof", "--", "run", ...args], { env, maxBuffer: 10 * 1024 * 1024 });
    expect(stderr).toMatch(/target met at 114 of 1,140 items: halfwidth<=0\.45(;|\n)/);
    const out = JSON.parse(stdout) as {
      results: unknown[];
      adaptive: { outcome: { kind: string }; intervals: { level: number; rows: Array<{ lo: number; hi: number }> } };
    };
    expect(out.adaptive.outcome.kind).toBe("met");
    expect(out.adaptive.intervals.level).toBeCloseTo(0.9975, 12);
    expect(out.adaptive.intervals.rows.every((r) => (r.hi - r.lo) / 2 <= 0.45)).toBe(true);
    await expect(run("npm", ["run", "--silent", "fof", "--", "run", ...args.slice(0, -1), "decided:sFact"], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining("at least two models"),
    });
  }, 120_000);
  it("a content set's adaptive run prints the same adaptive object: the verdict and the intervals valid under the stopping rule", async () => {
    const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-run-until-content-") };
    const fof = (...a: string[]) => run("npm", ["run", "--silent", "fof", "--", ...a], { env, maxBuffer: 10 * 1024 * 1024 });
    await fof("content", "import", path.resolve(__dirname, "../data/content-sets/us-nchs-health"));
    await fof("content", "approve", "us-nchs-health@1.0.0");
    const { stdout, stderr } = await fof(
      "run",
      "--content",
      "us-nchs-health@1.0.0",
      "--model",
      "baseline:calibrated:0.8",
      "--preset",
      "quick",
      "--until",
      "halfwidth<=0.45",
    );
    expect(stderr).toMatch(/target met at [\d,]+ of [\d,]+ items: halfwidth<=0\.45/);
    const out = JSON.parse(stdout) as { adaptive?: { outcome: { kind: string }; intervals: { level: number; rows: Array<{ lo: number; hi: number }> } } };
    expect(out.adaptive?.outcome.kind).toBe("met");
    expect(out.adaptive!.intervals.rows.length).toBeGreaterThan(0);
    expect(out.adaptive!.intervals.rows.every((r) => (r.hi - r.lo) / 2 <= 0.45)).toBe(true);
  }, 180_000);
});
