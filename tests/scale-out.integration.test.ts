// Several workers on one database (SQLite here, PostgreSQL in npm test's second pass): they split a run, a model's
// concurrency and its requests/min hold across all of them, and every query gets exactly one outcome.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "./emulator/server";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-scale-out-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, upsertModel, Worker } = await import("./helpers/services");

let emu: Emulator;
const prisma = () => db();
const fast = { pollMs: 10, flushMs: 10, backoffBaseMs: 20, backoffMaxMs: 100, shareRenewMs: 100, shareLeaseMs: 2_000 };

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
  await prisma().$disconnect();
});

async function oneOutcomeEach(runId: string) {
  const [queries, outcomes] = await Promise.all([prisma().query.count({ where: { runId } }), prisma().outcome.count({ where: { query: { runId } } })]);
  expect(outcomes).toBe(queries);
  const open = await prisma().query.count({ where: { runId, status: { in: ["pending", "leased"] } } });
  expect(open).toBe(0);
  return queries;
}

describe("workers sharing a model", () => {
  it("three workers split a run and never run more calls at once than the model's concurrency", async () => {
    await upsertModel(prisma(), {
      slug: "emu-shared",
      label: "shared",
      provider: "openai-compatible",
      modelId: "emu-shared",
      baseUrl: emu.openaiBaseUrl,
      concurrency: 4,
    });
    emu.setScript("emu-shared", { latencyMs: 60 });
    const run = await createRun(prisma(), { models: ["emu-shared"], config: presetConfig("smoke", { tests: ["objective"], timeoutMs: 5_000 }), seed: 7 });
    const workers = [0, 1, 2].map(() => new Worker(prisma(), { runId: run.id, ...fast }));
    await Promise.all(workers.map((w) => w.run({ untilDone: true })));
    const n = await oneOutcomeEach(run.id);
    expect(n).toBeGreaterThan(30);
    expect(emu.stats().byModel["emu-shared"]).toBe(n);
    expect(emu.stats().peakConcurrent["emu-shared"]).toBeLessThanOrEqual(4);
    expect(emu.stats().peakConcurrent["emu-shared"]).toBeGreaterThanOrEqual(2);
    expect(workers.reduce((a, w) => a + w.outcomes, 0)).toBe(n);
    expect(workers.filter((w) => w.outcomes > 0).length).toBeGreaterThanOrEqual(2);
    // Stopped workers leave no share behind.
    expect(
      await prisma().modelSlotLease.count({ where: { modelConfigId: (await prisma().modelConfig.findUniqueOrThrow({ where: { slug: "emu-shared" } })).id } }),
    ).toBe(0);
  });

  it("holds a model's requests per minute across two workers", async () => {
    // 600 requests/min = 10 a second for the model, shared: two workers together may not go faster.
    await upsertModel(prisma(), {
      slug: "emu-rpm",
      label: "rpm",
      provider: "openai-compatible",
      modelId: "emu-rpm",
      baseUrl: emu.openaiBaseUrl,
      concurrency: 8,
      requestsPerMinute: 600,
    });
    const run = await createRun(prisma(), { models: ["emu-rpm"], config: presetConfig("smoke", { tests: ["objective"], timeoutMs: 5_000 }), seed: 8 });
    const n = await prisma().query.count({ where: { runId: run.id } });
    const t0 = Date.now();
    const workers = [0, 1].map(() => new Worker(prisma(), { runId: run.id, ...fast }));
    await Promise.all(workers.map((w) => w.run({ untilDone: true })));
    const seconds = (Date.now() - t0) / 1000;
    await oneOutcomeEach(run.id);
    // Each worker's bucket starts with at most one second's worth: n calls need at least (n − 2·10) / 10 seconds.
    expect(seconds).toBeGreaterThanOrEqual((n - 20) / 10);
  });
});
