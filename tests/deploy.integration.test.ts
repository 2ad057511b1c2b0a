// The deployment recipe's units as written: deploy/systemd/*.service pass `systemd-analyze verify` (where systemd's
// tools are installed), and two workers started with the worker unit's own ExecStart and Environment lines — the
// bundled CLI, its heap cap — split a run between them and stop cleanly on the unit's KillSignal. Runs on SQLite and,
// in npm test's PostgreSQL pass, on PostgreSQL (the recipe's database). The web unit and Caddy are exercised by
// e2e/tls.spec.ts; systemd itself (PID 1) is not available in a container.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import { sqliteOnly } from "./helpers/databases";

const ROOT = path.resolve(__dirname, "..");
const UNITS = path.join(ROOT, "deploy/systemd");
const dataDir = testDataDir("fof-deploy-");
process.env.FOF_DATA_DIR = dataDir;

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, upsertModel } = await import("./helpers/services");
const { startEmulator } = await import("./emulator/server");
const { workerState, LOST_PREFIX } = await import("../lib/core/run-status");
const prisma = () => db();

const hasAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;

/** A unit's [Service] settings (the last value of a key wins; Environment lines accumulate). */
function unit(file: string) {
  const lines = readFileSync(path.join(UNITS, file), "utf8")
    .split("\n")
    .map((l) => l.trim());
  const get = (key: string) => lines.filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
  return { execStart: get("ExecStart").at(-1)!, environment: get("Environment"), killSignal: get("KillSignal").at(-1) ?? "SIGTERM" };
}

const workers: ChildProcess[] = [];
let emu: Awaited<ReturnType<typeof startEmulator>>;
beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  // A model with latency and a concurrency the two workers share (an instant baseline would be done by one), and a
  // run long enough (6,080 calls, several seconds) for shares to be renewed and split.
  emu = await startEmulator();
  emu.setScript("emu-deploy", { latencyMs: 10 });
  await upsertModel(prisma(), {
    slug: "emu-deploy",
    label: "deploy",
    provider: "openai-compatible",
    modelId: "emu-deploy",
    baseUrl: emu.openaiBaseUrl,
    concurrency: 8,
  });
  // The unit runs the CLI bundle `npm run build` makes.
  execFileSync(process.execPath, ["scripts/build-cli.mjs"], { cwd: ROOT });
});
afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  await emu?.close();
  await prisma().$disconnect();
});

describe("deployment units", () => {
  it.skipIf(!hasAnalyze)("pass systemd-analyze verify (syntax, keys, the binaries they start)", () => {
    // A template unit is verified through an instance of it.
    const dir = mkdtempSync(path.join(tmpdir(), "fof-units-"));
    copyFileSync(path.join(UNITS, "fof-web.service"), path.join(dir, "fof-web.service"));
    copyFileSync(path.join(UNITS, "fof-worker@.service"), path.join(dir, "fof-worker@1.service"));
    const res = spawnSync("systemd-analyze", ["verify", path.join(dir, "fof-web.service"), path.join(dir, "fof-worker@1.service")], { encoding: "utf8" });
    expect(res.stderr.trim()).toBe("");
    expect(res.status).toBe(0);
  });

  // Claims by several worker processes on PostgreSQL: scale-out.integration.test.ts.
  it.skipIf(sqliteOnly)(
    "two workers started as the worker unit starts them split a run and stop cleanly on its KillSignal",
    async () => {
      const u = unit("fof-worker@.service");
      const [bin, ...args] = u.execStart.split(/\s+/);
      expect(args).toContain("dist/fof.mjs");
      expect(args).toContain("worker");
      expect(existsSync(path.join(ROOT, "dist/fof.mjs"))).toBe(true);
      const env = {
        ...process.env,
        ...Object.fromEntries(u.environment.map((e) => e.split("=") as [string, string])),
        FOF_DATA_DIR: dataDir,
        FOF_LOG_LEVEL: "info",
        VITEST: "",
      };
      const logs: string[][] = [[], []];
      for (const i of [0, 1]) {
        // The unit names /usr/bin/node; the test runs the same file with this machine's node.
        const w = spawn(existsSync(bin) ? bin : process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
        w.stdout!.on("data", (d) => logs[i].push(String(d)));
        w.stderr!.on("data", (d) => logs[i].push(String(d)));
        workers.push(w);
      }
      // Both heartbeat before there is work, so both can claim.
      for (let t = 0; t < 600 && (await prisma().workerStatus.count({ where: { stoppedAt: null } })) < 2; t++) await new Promise((r) => setTimeout(r, 50));
      expect(await prisma().workerStatus.count({ where: { stoppedAt: null } })).toBeGreaterThanOrEqual(2);

      const run = await createRun(prisma(), { models: ["emu-deploy"], config: presetConfig("quick"), preset: "quick", seed: 9 });
      for (let t = 0; t < 1200 && (await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status !== "completed"; t++)
        await new Promise((r) => setTimeout(r, 100));
      expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
      expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(run.plannedCount);

      const exits = workers.map((w) => new Promise<number | null>((r) => w.once("exit", (code) => r(code))));
      for (const w of workers) w.kill(u.killSignal as NodeJS.Signals);
      expect(await Promise.all(exits)).toEqual([0, 0]);
      // Stopped by the signal, each says so itself (the Workers page: "stopped"), never "lost" or "stopped heartbeating".
      const rows = await prisma().workerStatus.findMany({ where: { pid: { in: workers.map((w) => w.pid!) } } });
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => workerState(r))).toEqual(["stopped", "stopped"]);
      expect(rows.every((r) => !r.lastError?.startsWith(LOST_PREFIX))).toBe(true);
      // Each worker's last log line says what it did (JSON, pino): together every query, each worker a part.
      const done = logs.map((l) => {
        const line = l
          .join("")
          .split("\n")
          .filter((x) => x.includes('"worker stopped"'))
          .at(-1);
        return line ? (JSON.parse(line) as { outcomes: number; worker: string }) : null;
      });
      expect(done.every((d) => d && d.worker)).toBe(true);
      expect(done[0]!.outcomes + done[1]!.outcomes).toBe(run.plannedCount);
      expect(Math.min(done[0]!.outcomes, done[1]!.outcomes)).toBeGreaterThan(0);
    },
    180_000,
  );
});
