// The engine's writes at any size and through failure: a batch past SQLite's parameter limit is written, a write
// the database refuses does not hold back the rest, and a worker whose writes fail stops claiming, says it is
// stuck on its heartbeat, and recovers — every query ends with exactly one outcome.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDataDir } from "./helpers/data-dir";

// A switch that makes the worker's result writes fail as a locked database would (everything else still works).
const writes = vi.hoisted(() => ({ failing: false }));
vi.mock("../lib/features/runs/outcome-writes", async (importOriginal) => {
  const real = await importOriginal<typeof import("../lib/features/runs/outcome-writes")>();
  return {
    ...real,
    writeBatch: (...a: Parameters<typeof real.writeBatch>) =>
      writes.failing ? Promise.reject(new Error("SqliteError: database is locked")) : real.writeBatch(...a),
  };
});

process.env.FOF_DATA_DIR = testDataDir("fof-writes-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, Worker, MAX_WRITES_PER_TRANSACTION } = await import("./helpers/services");
const { claimQueries } = await import("../lib/features/runs/claim");
const { writeBatch } = await import("../lib/features/runs/outcome-writes");
const { workerState, LOST_PREFIX, STUCK_PREFIX } = await import("../lib/core/run-status");
type Write = import("../lib/features/runs/work-types").Write;
type Claimed = import("../lib/features/runs/work-types").Claimed;

const prisma = () => db();
const fast = { pollMs: 10, flushMs: 10, backoffBaseMs: 20, backoffMaxMs: 100 };
// 19 × 2 × 3 × 4 contexts × 10 + objective: 2,340 queries of one model, more than SQLite's 999 parameters.
const quickSubjective = () => presetConfig("quick", { tests: ["subjective"] });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await prisma().$disconnect();
});

function answered(q: Claimed, i: number): Write {
  return {
    kind: "outcome",
    query: q,
    status: "answered",
    reason: null,
    rawText: '{"answer":"A"}',
    letter: "A",
    values: { gender: "male", race: "White" },
    attempts: [{ text: '{"answer":"A"}', latencyMs: 1 }],
    latencyMs: 1,
    inputTokens: 10,
    outputTokens: 2,
    costUsd: 0,
    cached: false,
    cacheRows: [
      {
        key: `writes-test-${q.runId}-${i}`,
        runId: q.runId,
        provider: "baseline",
        model: "uniform",
        text: '{"answer":"A"}',
        inputTokens: 10,
        outputTokens: 2,
        costUsd: 0,
      },
    ],
  };
}

async function claimAll(runId: string, modelConfigId: string): Promise<Claimed[]> {
  const all: Claimed[] = [];
  for (;;) {
    const got = await claimQueries(prisma(), { runId, modelConfigId, n: 256, token: `test:${all.length}`, leaseMs: 600_000 });
    if (!got.length) return all;
    all.push(...got);
  }
}

describe("engine writes", () => {
  it("writes one transaction of 2,000+ outcomes and cache rows (past SQLite's 999-parameter limit)", async () => {
    const run = await createRun(prisma(), { models: ["baseline:uniform"], config: quickSubjective(), seed: 11 });
    const rm = await prisma().runModel.findFirstOrThrow({ where: { runId: run.id } });
    const claimed = await claimAll(run.id, rm.modelConfigId);
    expect(claimed.length).toBeGreaterThan(2_000);
    await writeBatch(prisma(), claimed.map(answered));
    expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(claimed.length);
    expect(await prisma().query.count({ where: { runId: run.id, status: "answered" } })).toBe(claimed.length);
    // Idempotent: the same batch again writes nothing twice.
    await writeBatch(prisma(), claimed.map(answered));
    expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(claimed.length);
  });

  it("flushes a buffer of any size in bounded transactions; a write the database refuses becomes a failed outcome, the rest land", async () => {
    const run = await createRun(prisma(), { models: ["baseline:uniform"], config: quickSubjective(), seed: 12 });
    const rm = await prisma().runModel.findFirstOrThrow({ where: { runId: run.id } });
    const claimed = await claimAll(run.id, rm.modelConfigId);
    const worker = new Worker(prisma(), { runId: run.id, ...fast });
    const writes = claimed.map(answered);
    // An image row the database must refuse (no path: NOT NULL), in the middle of the batch.
    const poisoned = writes[777] as Extract<Write, { kind: "outcome" }>;
    poisoned.image = { sha256: "0".repeat(64), path: null as unknown as string, mimeType: "image/png", width: 1, height: 1, bytes: 1 };
    const push = (worker as unknown as { push(w: Write): void }).push.bind(worker);
    for (const w of writes) push(w);
    let transactions = 0;
    const tx = prisma().$transaction.bind(prisma());
    (prisma() as unknown as { $transaction: unknown }).$transaction = (...a: Parameters<typeof tx>) => {
      transactions++;
      return tx(...a);
    };
    try {
      await worker.flush();
    } finally {
      (prisma() as unknown as { $transaction: unknown }).$transaction = tx;
    }
    const outs = await prisma().outcome.findMany({ where: { query: { runId: run.id } }, select: { queryId: true, status: true, reason: true } });
    expect(outs).toHaveLength(claimed.length);
    const bad = outs.find((o) => o.queryId === poisoned.query.id)!;
    expect(bad.status).toBe("failed");
    expect(bad.reason).toMatch(/could not be stored/);
    expect(outs.filter((o) => o.status === "answered")).toHaveLength(claimed.length - 1);
    expect(worker.errors.unwritable).toBe(1);
    // Bounded: ⌈n / 500⌉ slices, plus the halves that isolate the refused write (log₂ 500 ≈ 9 levels × 2) and its retry.
    expect(transactions).toBeLessThan(Math.ceil(claimed.length / MAX_WRITES_PER_TRANSACTION) + 25);
  });

  it("a worker whose writes fail keeps its buffer bounded, heartbeats 'stuck', and finishes with one outcome each once writes work again", async () => {
    const run = await createRun(prisma(), { models: ["baseline:uniform"], config: quickSubjective(), seed: 13 });
    const total = await prisma().query.count({ where: { runId: run.id } });
    // Every result write fails as a locked database would, until released.
    writes.failing = true;
    const worker = new Worker(prisma(), { runId: run.id, ...fast, heartbeatMs: 50, maxBuffered: 300, stuckAfterMs: 200 });
    const done = worker.run({ untilDone: true });
    try {
      let row: Awaited<ReturnType<ReturnType<typeof prisma>["workerStatus"]["findUnique"]>> = null;
      const until = Date.now() + 15_000;
      while (Date.now() < until) {
        row = await prisma().workerStatus.findUnique({ where: { owner: worker.owner } });
        if (row && workerState(row) === "stuck") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(row && workerState(row)).toBe("stuck");
      expect(row!.lastError).toMatch(new RegExp(`^${STUCK_PREFIX} \\d+ result\\(s\\) unwritten`));
      // Backpressure: no more claimed than the buffer bound plus what one claim round can add.
      expect(worker.peakBuffered).toBeLessThanOrEqual(300 + 512);
      expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(0);
    } finally {
      writes.failing = false;
    }
    await done;
    const outs = await prisma().outcome.groupBy({ by: ["queryId"], where: { query: { runId: run.id } }, _count: true });
    expect(outs).toHaveLength(total);
    expect(outs.every((o) => o._count === 1)).toBe(true);
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
    const after = await prisma().workerStatus.findUniqueOrThrow({ where: { owner: worker.owner } });
    expect(workerState(after)).toBe("stopped");
  });

  it("the worker-state rule: stuck only while the latest heartbeat says so", () => {
    const now = Date.now();
    const beat = new Date(now - 1_000);
    expect(workerState({ stoppedAt: null, heartbeatAt: beat, lastError: `${STUCK_PREFIX} 5 result(s) unwritten`, lastErrorAt: beat }, now)).toBe("stuck");
    expect(workerState({ stoppedAt: null, heartbeatAt: beat, lastError: `${STUCK_PREFIX} old`, lastErrorAt: new Date(now - 20_000) }, now)).toBe("alive");
    expect(workerState({ stoppedAt: null, heartbeatAt: new Date(now - 60_000), lastError: null, lastErrorAt: null }, now)).toBe("stale");
    expect(workerState({ stoppedAt: beat, heartbeatAt: beat }, now)).toBe("stopped");
    // Released by another worker after its heartbeat stopped: lost, not stopped.
    expect(workerState({ stoppedAt: beat, heartbeatAt: new Date(now - 60_000), lastError: `${LOST_PREFIX}: its work was released` }, now)).toBe("lost");
  });
});
