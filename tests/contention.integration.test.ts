// Workers survive database contention: an in-process worker and two `fof worker` processes share one SQLite file
// while a large launch (the quick preset: 12,160 queries, planned in many chunks) is planned and another connection
// keeps taking the write lock for longer than the workers' busy timeout. Every run completes, every query gets exactly one outcome, no worker exits.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-contention-");
process.env.FOF_DATA_DIR = dataDir;
// A short busy timeout makes lock waits fail fast, so the workers meet "database is locked" for real.
process.env.FOF_DB_BUSY_TIMEOUT_MS = "150";

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, Worker } = await import("./helpers/services");

const prisma = () => db();
const children: ChildProcess[] = [];
const exits: Array<number | null> = [];

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await prisma().$disconnect();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// SQLite only: the lock it holds is the SQLite file's write lock; PostgreSQL has row locks (claims skip locked rows).
describe.skipIf(process.env.DATABASE_URL?.startsWith("postgres"))("contention", () => {
  it("keeps every worker alive through locked-database errors while a large launch plans", async () => {
    const env = { ...process.env, FOF_DATA_DIR: dataDir, FOF_DB_BUSY_TIMEOUT_MS: "150" };
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, ["--import", "tsx", "bin/fof.ts", "worker"], { env, stdio: ["ignore", "ignore", "pipe"] });
      child.stderr!.on("data", (d) => process.env.FOF_DEBUG && process.stderr.write(d));
      child.once("exit", (code) => exits.push(code));
      children.push(child);
    }
    const local = new Worker(prisma(), { pollMs: 20, flushMs: 20, backoffBaseMs: 20, backoffMaxMs: 200, heartbeatMs: 200 });
    const localLoop = local.run();

    // A hostile neighbour: takes the write lock for 400 ms at a time (longer than the busy timeout), repeatedly.
    const locker = new Database(path.join(dataDir, "fof.db"), { timeout: 5_000 });
    let locking = true;
    const lockLoop = (async () => {
      while (locking) {
        try {
          locker.exec("BEGIN IMMEDIATE");
          await sleep(400);
          locker.exec("COMMIT");
        } catch {
          /* the lock was busy: try again */
        }
        await sleep(250);
      }
    })();

    // All three workers are up (heartbeat recorded) before there is work: a fast engine could finish everything
    // before a slow-starting process got to it, and then it would have met no lock.
    for (let t = 0; t < 1200; t++) {
      const up = await prisma()
        .workerStatus.count({ where: { stoppedAt: null } })
        .catch(() => 0);
      if (up >= 3) break;
      await sleep(50);
    }

    const small = await createRun(prisma(), { models: ["baseline:uniform"], config: presetConfig("smoke"), seed: 1 });
    // The large launch is planned while workers run and the locker holds the lock: planning retries its contended
    // writes itself, so the launch succeeds.
    const largeId = (await createRun(prisma(), { models: ["baseline:oracle"], config: presetConfig("quick"), seed: 1 })).id;
    const second = await createRun(prisma(), { models: ["baseline:uniform"], config: presetConfig("smoke"), seed: 2 });

    const ids = [small.id, largeId, second.id];
    const deadline = Date.now() + 480_000;
    for (;;) {
      try {
        const runs = await prisma().run.findMany({ where: { id: { in: ids } }, select: { status: true } });
        if (runs.every((r) => r.status === "completed")) break;
      } catch {
        /* our own read met the lock: look again */
      }
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(500);
    }
    locking = false;
    await lockLoop;
    locker.close();

    // No worker exited on its own: both processes still run, and the in-process loop had to survive errors.
    expect(exits).toEqual([]);
    expect(children.every((c) => c.exitCode === null)).toBe(true);
    expect(local.errors.contention + local.errors.other).toBeGreaterThanOrEqual(0);
    for (const id of ids) {
      const run = await prisma().run.findUniqueOrThrow({ where: { id } });
      const outcomes = await prisma().outcome.count({ where: { query: { runId: id } } });
      expect(outcomes).toBe(run.plannedCount);
    }
    // Heartbeats: three workers recorded, at least one of them met the lock and says so.
    const statuses = await prisma().workerStatus.findMany();
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(statuses.some((s) => s.lastError && /busy|locked|timed out/i.test(s.lastError))).toBe(true);

    // A stopping worker finishes, writes and releases: nothing stays leased by it.
    local.stop();
    await localLoop;
    for (const c of children) c.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once("exit", r)))));
    expect(exits.every((code) => code === 0)).toBe(true);
    expect(await prisma().query.count({ where: { status: "leased" } })).toBe(0);
    expect((await prisma().workerStatus.findMany()).every((s) => s.stoppedAt !== null)).toBe(true);
  }, 600_000);
});
