// No money spent at a provider leaves the records. A worker killed (-9) mid-call leaves marks of the calls it made
// (lib/features/runs/call-marks.ts): the worker that finds it dead charges each to its run and model at its worst
// case, so every call the provider answered is an outcome or a charged lost call. A launch whose planning is
// interrupted after its rows were called ends failed ("planning interrupted") with its outcomes and spend, is never
// called again, cannot be resumed, and commits what it spent to its launcher's limit; only a launch that called
// nothing is removed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "./emulator/server";
import { testDataDir } from "./helpers/data-dir";
import { startFof } from "./helpers/service-process";

process.env.FOF_DATA_DIR = testDataDir("fof-paid-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, runSummary, setRunState, sweepInterruptedPlanning, upsertModel, Worker } = await import("./helpers/services");
const { createUser } = await import("../lib/auth/users");
const { committedUsd } = await import("../lib/auth/spending");

let emu: Emulator;
const prisma = () => db();
const PRICED = { priceInputPer1k: 0.01, priceOutputPer1k: 0.03 };

async function register(slug: string, over: Record<string, unknown> = {}) {
  return upsertModel(prisma(), {
    slug,
    label: slug,
    provider: "openai-compatible",
    modelId: slug,
    baseUrl: emu.openaiBaseUrl,
    concurrency: 8,
    ...PRICED,
    ...over,
  });
}
const calls = (slug: string) => emu.stats().byModel[slug] ?? 0;
const sum = (xs: Array<number | null>) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
  await prisma().$disconnect();
});

describe("paid calls", () => {
  it("a worker killed mid-call: every call the provider saw is an outcome or a lost call charged at its worst case", async () => {
    await register("emu-killed", { concurrency: 16 });
    // Slow answers: many calls are in flight when the worker dies.
    emu.setScript("emu-killed", { latencyMs: 400 });
    const config = presetConfig("smoke", {
      tests: ["objective", "subjective"],
      contexts: ["baseline"],
      objectiveRepeats: 2,
      subjectiveRepeats: 2,
      timeoutMs: 30_000,
    });
    const run = await createRun(prisma(), { models: ["emu-killed"], config, seed: 21 });
    const env = { ...process.env, FOF_DATA_DIR: process.env.FOF_DATA_DIR };
    const first = startFof(["worker"], env);
    await first.until(
      "some outcomes written and calls in flight",
      async () => (await prisma().outcome.count({ where: { query: { runId: run.id } } })) >= 20,
      120_000,
      50,
    );
    await first.stop(30_000, "SIGKILL");
    const markedAtKill = await prisma().callMark.count({ where: { runId: run.id } });
    expect(markedAtKill).toBeGreaterThan(0);
    // The dead worker is found by its silence by the next worker, which charges its marks and goes on.
    const second = new Worker(prisma(), { pollMs: 20, flushMs: 20, staleWorkerMs: 3_000 });
    await new Promise((r) => setTimeout(r, 3_500));
    await second.run({ untilDone: true });
    const after = await prisma().run.findUniqueOrThrow({ where: { id: run.id }, include: { models: true, queries: { include: { outcome: true } } } });
    expect(after.status).toBe("completed");
    expect(await prisma().callMark.count({ where: { runId: run.id } })).toBe(0);
    const outcomes = after.queries.map((q) => q.outcome).filter((o) => o !== null);
    expect(outcomes).toHaveLength(after.plannedCount);
    const lost = after.models[0]!;
    expect(lost.lostCalls).toBe(markedAtKill);
    expect(lost.lostCallsUsd).toBeGreaterThan(0);
    // Every call the provider answered was recorded: an outcome (the paid ones, not served from the cache), or a lost call.
    const paidOutcomes = outcomes.filter((o) => !o!.cached).length;
    expect(calls("emu-killed")).toBeLessThanOrEqual(paidOutcomes + lost.lostCalls);
    // The run's spend is exactly what its outcomes cost plus what its lost calls were charged; the run page says so,
    // and the audit log has the charge.
    expect(after.spentUsd).toBeCloseTo(sum(outcomes.map((o) => o!.costUsd)) + lost.lostCallsUsd, 9);
    const summary = await runSummary(prisma(), run.id);
    expect(summary?.lostCalls).toMatchObject({ calls: markedAtKill, models: [{ slug: "emu-killed", calls: markedAtKill }] });
    expect(JSON.parse((await prisma().auditLog.findFirstOrThrow({ where: { action: "run.calls-lost", targetId: run.id } })).detailsJson)).toMatchObject({
      calls: markedAtKill,
    });
  }, 180_000);

  it("an interrupted launch that had called ends failed with its answers and spend, is never called again, and cannot be resumed", async () => {
    await register("emu-planning", { concurrency: 8 });
    emu.setScript("emu-planning", { latencyMs: 20 });
    const runner = await createUser(prisma(), { email: "runner@example.org", name: "Runner", password: "runner-password", role: "runner" });
    await prisma().user.update({ where: { id: runner.id }, data: { spendingLimitUsd: 10 } });
    // `fof run` plans and calls in one process, like the web server's launch: killed while it still writes rows.
    const env = { ...process.env, FOF_DATA_DIR: process.env.FOF_DATA_DIR };
    const cli = startFof(["run", "-m", "emu-planning", "baseline:uniform", "baseline:calibrated:0.5", "-p", "paper", "-s", "5", "--budget", "8"], env);
    const planning = async () => prisma().run.findFirst({ where: { status: "planning" }, select: { id: true } });
    await cli.until(
      "a launch still planning with paid outcomes",
      async () => {
        const r = await planning();
        return !!r && (await prisma().outcome.count({ where: { query: { runId: r.id }, costUsd: { gt: 0 } } })) >= 20;
      },
      120_000,
      20,
    );
    const { id } = (await planning())!;
    await cli.stop(30_000, "SIGKILL");
    await prisma().run.update({ where: { id }, data: { createdById: runner.id } });
    const before = await prisma().run.findUniqueOrThrow({ where: { id } });
    expect(before.status).toBe("planning");
    const rows = await prisma().query.count({ where: { runId: id } });
    // The sweep decides (its heartbeat long silent: here, any silence at all).
    expect(await sweepInterruptedPlanning(prisma(), 0)).toBe(1);
    const swept = await prisma().run.findUniqueOrThrow({ where: { id }, include: { models: true } });
    expect(swept.status).toBe("failed");
    expect(swept.error).toMatch(/^planning interrupted/);
    expect(swept.plannedCount).toBe(rows);
    const outcomes = await prisma().outcome.findMany({ where: { query: { runId: id } }, select: { costUsd: true } });
    expect(outcomes.length).toBeGreaterThanOrEqual(20);
    // What it spent is kept (the calls the killed process had in flight, charged once found) and charged to its launcher.
    const lost = new Worker(prisma(), { staleWorkerMs: 0 });
    await lost.releaseStaleWorkers();
    const charged = await prisma().run.findUniqueOrThrow({ where: { id }, include: { models: true } });
    expect(charged.spentUsd).toBeGreaterThan(0);
    expect(charged.spentUsd).toBeCloseTo(sum(outcomes.map((o) => o.costUsd)) + sum(charged.models.map((m) => m.lostCallsUsd)), 9);
    expect(await committedUsd(prisma(), runner.id)).toBeCloseTo(charged.spentUsd, 9);
    // Nothing calls it again: a worker running for a while makes no call for it.
    const callsBefore = calls("emu-planning");
    const worker = new Worker(prisma(), { pollMs: 20, flushMs: 20 });
    const loop = worker.run();
    await new Promise((r) => setTimeout(r, 1_500));
    worker.stop();
    await loop;
    expect(calls("emu-planning")).toBe(callsBefore);
    expect(await prisma().outcome.count({ where: { query: { runId: id } } })).toBe(outcomes.length);
    await expect(setRunState(prisma(), id, "resume")).rejects.toThrow(/planning was interrupted/);
    // The money is on the record: the sweep's decision and the lost calls' charge are audited.
    const ended = await prisma().auditLog.findFirstOrThrow({ where: { action: "run.interrupted", targetId: id } });
    expect(JSON.parse(ended.detailsJson)).toMatchObject({ outcomes: outcomes.length, plannedCount: rows });
  }, 180_000);

  it("removes an interrupted launch only when it called nothing", async () => {
    const version = await prisma().benchmarkVersion.findFirstOrThrow();
    const old = new Date(Date.now() - 10 * 60_000);
    const quiet = await prisma().run.create({
      data: { name: "quiet", modality: "llm", status: "planning", planning: true, seed: 1, configJson: "{}", benchmarkVersionId: version.id, startedAt: old },
    });
    const marked = await prisma().run.create({
      data: { name: "marked", modality: "llm", status: "planning", planning: true, seed: 1, configJson: "{}", benchmarkVersionId: version.id, startedAt: old },
    });
    const model = await prisma().modelConfig.findFirstOrThrow();
    // A call marked as started, nothing written yet: it may have been paid.
    await prisma().callMark.create({ data: { queryId: 1, runId: marked.id, modelConfigId: model.id, owner: "gone:1:x", worstUsd: 0.02 } });
    expect(await sweepInterruptedPlanning(prisma())).toBe(2);
    expect(await prisma().run.findUnique({ where: { id: quiet.id } })).toBeNull();
    expect((await prisma().run.findUniqueOrThrow({ where: { id: marked.id } })).status).toBe("failed");
    // The database itself refuses to delete a run with a marked call.
    await expect(prisma().run.delete({ where: { id: marked.id } })).rejects.toThrow();
  });
});
