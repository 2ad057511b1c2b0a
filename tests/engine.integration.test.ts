// The run engine against the provider emulator, through the real openai / replicate SDKs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "./emulator/server";
import { testDataDir } from "./helpers/data-dir";
import { startFof } from "./helpers/service-process";

process.env.FOF_DATA_DIR = testDataDir("fof-engine-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, runScores, setRunState, upsertModel, Worker } = await import("./helpers/services");

let emu: Emulator;
const prisma = () => db();
// A generous per-call timeout: on a loaded CI machine a 2 s one timed calls out and retried them, so the emulator
// counted more calls than outcomes (the tests that need a timeout set their own).
const objectiveOnly = (over = {}) => presetConfig("smoke", { tests: ["objective"], maxRetries: 8, timeoutMs: 30_000, ...over });
const fast = { pollMs: 10, flushMs: 10, backoffBaseMs: 20, backoffMaxMs: 100 };

async function register(slug: string, over: Record<string, unknown> = {}) {
  return upsertModel(prisma(), { slug, label: slug, provider: "openai-compatible", modelId: slug, baseUrl: emu.openaiBaseUrl, concurrency: 8, ...over });
}
async function outcomes(runId: string) {
  return prisma().outcome.findMany({ where: { query: { runId } }, include: { query: true } });
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  emu = await startEmulator();
  // The operator binds each credential to its endpoints: Replicate's token to the emulated Replicate API here.
  process.env.FOF_CREDENTIALS = JSON.stringify({ REPLICATE_API_TOKEN: emu.replicateBaseUrl, FOF_ABSENT_KEY: "https://api.openai.com/v1" });
});
afterAll(async () => {
  await emu.close();
  await prisma().$disconnect();
});

describe("run engine", () => {
  it("plans every query as a row before calling, then answers each exactly once", async () => {
    await register("emu-plain");
    const run = await createRun(prisma(), { models: ["emu-plain"], config: objectiveOnly(), seed: 3 });
    expect(await prisma().query.count({ where: { runId: run.id } })).toBe(76);
    expect(emu.stats().byModel["emu-plain"] ?? 0).toBe(0);
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const outs = await outcomes(run.id);
    expect(outs).toHaveLength(76);
    expect(outs.every((o) => o.status === "answered" && o.parsedLetter)).toBe(true);
    expect(emu.stats().byModel["emu-plain"]).toBe(76);
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
  });

  it("lets the launching process work a run while it is still planned, and never completes it before planning ends", async () => {
    await register("emu-overlap");
    const run = await createRun(prisma(), { models: ["emu-overlap"], config: objectiveOnly(), seed: 4 });
    // As if planning were still going on: the rows written so far are pending, the status "planning" — and its
    // planner gone quiet (heartbeat a minute ago): other workers leave it alone.
    await prisma().run.update({ where: { id: run.id }, data: { status: "planning", startedAt: new Date(Date.now() - 60_000) } });
    await new Worker(prisma(), { ...fast }).run({ untilDone: true });
    expect(await outcomes(run.id)).toHaveLength(0);
    // A planner plainly alive (heartbeat now): another worker calls its rows too, and never completes the run.
    await prisma().run.update({ where: { id: run.id }, data: { startedAt: new Date() } });
    const other = new Worker(prisma(), { ...fast, runCheckMs: 10 });
    const otherWorking = other.run();
    for (let i = 0; i < 500 && (await outcomes(run.id)).length < 10; i++) await new Promise((r) => setTimeout(r, 20));
    other.stop();
    await otherWorking;
    expect((await outcomes(run.id)).length).toBeGreaterThanOrEqual(10);
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("planning");
    // The launching process's worker calls its rows, but the run stays "planning" (more rows may come).
    const own = new Worker(prisma(), { runId: run.id, whilePlanning: true, ...fast, runCheckMs: 10 });
    const working = own.run({ untilDone: true });
    for (let i = 0; i < 500 && (await outcomes(run.id)).length < 76; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await outcomes(run.id)).toHaveLength(76);
    await new Promise((r) => setTimeout(r, 100));
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("planning");
    // Planning ends: the same worker completes the run and stops.
    await prisma().run.update({ where: { id: run.id }, data: { status: "running" } });
    await working;
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
    expect(emu.stats().byModel["emu-overlap"]).toBe(76);
  });

  it("retries 500s with backoff and records every attempt", async () => {
    await register("emu-500", { concurrency: 4 });
    emu.setScript("emu-500", { error500Every: 3 });
    // No call hangs here: a generous per-call timeout keeps a busy machine's slow answers from counting as failures
    // (a clean-clone CI beside other work once lost one query to 2 s timeouts).
    const run = await createRun(prisma(), { models: ["emu-500"], config: objectiveOnly({ timeoutMs: 30_000 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const outs = await outcomes(run.id);
    expect(outs.filter((o) => o.status === "answered")).toHaveLength(76);
    const retries = (await prisma().query.aggregate({ where: { runId: run.id }, _sum: { attempts: true } }))._sum.attempts ?? 0;
    expect(retries).toBeGreaterThan(10);
    expect(emu.stats().byModel["emu-500"]).toBe(76 + retries);
  });

  it("honours 429 Retry-After before calling again", async () => {
    await register("emu-429", { concurrency: 2 });
    emu.setScript("emu-429", { rateLimitBurst: { count: 2, retryAfterS: 1 } });
    const run = await createRun(prisma(), { models: ["emu-429"], config: objectiveOnly({ objectiveRepeats: 1 }), seed: 1 });
    const t0 = Date.now();
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    const outs = await outcomes(run.id);
    expect(outs.every((o) => o.status === "answered")).toBe(true);
    const limited = outs.filter((o) => o.attemptsJson.includes("rate_limited"));
    expect(limited.length).toBe(0); // the outcome keeps the final attempt; the retries are on the query
    expect(await prisma().query.count({ where: { runId: run.id, attempts: { gt: 0 } } })).toBe(2);
  });

  it("re-asks an unparseable answer, then records it as refused with the raw text", async () => {
    await register("emu-refuser");
    emu.setScript("emu-refuser", { malformedEvery: 1 });
    const run = await createRun(prisma(), { models: ["emu-refuser"], config: objectiveOnly({ maxReasks: 2 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const outs = await outcomes(run.id);
    expect(outs.every((o) => o.status === "refused" && o.attempts === 3 && o.rawText?.includes("rather not"))).toBe(true);
    expect(outs[0].reason).toMatch(/unparseable after 3 asks/);
    expect(emu.stats().byModel["emu-refuser"]).toBe(76 * 3);
    const scores = await runScores(prisma(), run.id);
    expect(scores[0]).toMatchObject({ refused: scores[0].n, sFact: null });
  });

  it("times out a hung call and retries it", async () => {
    await register("emu-hang", { concurrency: 4 });
    emu.setScript("emu-hang", { hangEvery: 20 });
    const run = await createRun(prisma(), { models: ["emu-hang"], config: objectiveOnly({ timeoutMs: 300 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const outs = await outcomes(run.id);
    expect(outs.filter((o) => o.status === "answered")).toHaveLength(76);
    expect(await prisma().query.count({ where: { runId: run.id, attempts: { gt: 0 } } })).toBeGreaterThan(0);
  });

  it("a run's answers are its own: a second run asks again; another run's answers only when its launch asks, each saying where and when", async () => {
    await register("emu-cache");
    const first = await createRun(prisma(), { models: ["emu-cache"], config: objectiveOnly(), seed: 5 });
    await new Worker(prisma(), { runId: first.id, ...fast }).run({ untilDone: true });
    const afterFirst = emu.stats().byModel["emu-cache"];
    // Same model, same seed — every prompt the same: still two samples, so every answer is asked again.
    const second = await createRun(prisma(), { models: ["emu-cache"], config: objectiveOnly(), seed: 5 });
    await new Worker(prisma(), { runId: second.id, ...fast }).run({ untilDone: true });
    expect(emu.stats().byModel["emu-cache"]).toBe(afterFirst + 76);
    const secondOuts = await outcomes(second.id);
    expect(secondOuts.every((o) => !o.cached && o.reusedFromRunId === null)).toBe(true);
    // Asked for: the first run's answers, none paid again, each naming the run and when it was obtained.
    const third = await createRun(prisma(), { models: ["emu-cache"], config: objectiveOnly(), seed: 5, reuseAnswers: { fromRun: first.id } });
    await new Worker(prisma(), { runId: third.id, ...fast }).run({ untilDone: true });
    expect(emu.stats().byModel["emu-cache"]).toBe(afterFirst + 76);
    const firstOuts = new Map(
      (await outcomes(first.id)).map((o) => [`${o.query.statisticId}|${o.query.level}|${o.query.attribute}|${o.query.repeatIndex}`, o]),
    );
    const thirdOuts = await outcomes(third.id);
    expect(thirdOuts).toHaveLength(76);
    for (const o of thirdOuts) {
      const mine = firstOuts.get(`${o.query.statisticId}|${o.query.level}|${o.query.attribute}|${o.query.repeatIndex}`)!;
      expect(o).toMatchObject({ cached: true, costUsd: 0, reusedFromRunId: first.id, rawText: mine.rawText });
      // obtained when the first run's call came back (its cache entry), not when this run recorded it
      expect(o.reusedAt!.getTime()).toBeLessThanOrEqual(mine.createdAt.getTime());
      expect(JSON.parse(o.attemptsJson)[0]).toMatchObject({ cached: true, reusedFrom: first.id });
    }
    expect(await runScores(prisma(), third.id)).toEqual(await runScores(prisma(), first.id));
  });

  it("stops cleanly at the budget and resumes when it is raised", async () => {
    await register("emu-priced", { priceInputPer1k: 1, priceOutputPer1k: 1, concurrency: 2 });
    emu.setScript("emu-priced", { usage: { prompt: 100, completion: 0 } }); // $0.10 a call
    // $0.10 a call actually; a call's worst case (longest prompt + max_tokens, every re-ask) is about $2.
    const run = await createRun(prisma(), { models: ["emu-priced"], config: objectiveOnly(), seed: 1, budgetUsd: 3 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(r.status).toBe("budget_exhausted");
    // Each call's worst case was reserved before it was made: the budget is never passed, and the run stops only
    // when what is left cannot cover one more call's worst case.
    expect(r.spentUsd).toBeLessThanOrEqual(3 + 1e-9);
    expect(r.spentUsd).toBeGreaterThan(0);
    expect(r.error).toMatch(/less than the next call may cost/);
    const done = await prisma().outcome.count({ where: { query: { runId: run.id } } });
    expect(done).toBeLessThan(76);
    expect(await prisma().query.count({ where: { runId: run.id, status: "pending" } })).toBe(76 - done);
    await expect(setRunState(prisma(), run.id, "resume")).rejects.toThrow(/raise it/);
    await setRunState(prisma(), run.id, "resume", { budgetUsd: 100 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    expect(await prisma().outcome.count({ where: { query: { runId: run.id } } })).toBe(76);
  });

  it("never passes a budget with many calls in flight across two workers: worst cases are reserved before calling", async () => {
    await register("emu-budget-wide", { priceInputPer1k: 0.2, priceOutputPer1k: 0.2, concurrency: 32 });
    // $0.02 a call, 80 ms each: without reservations 32 calls start before the first bill arrives.
    emu.setScript("emu-budget-wide", { usage: { prompt: 100, completion: 0 }, latencyMs: 80 });
    const run = await createRun(prisma(), {
      models: ["emu-budget-wide"],
      config: presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"], maxRetries: 2, timeoutMs: 5_000 }),
      seed: 9,
      budgetUsd: 0.5,
    });
    const workers = [new Worker(prisma(), { runId: run.id, ...fast }), new Worker(prisma(), { runId: run.id, ...fast })];
    let peak = 0;
    const watch = setInterval(async () => {
      const r = await prisma().run.findUnique({ where: { id: run.id }, select: { spentUsd: true } });
      peak = Math.max(peak, r?.spentUsd ?? 0);
    });
    await Promise.all(workers.map((w) => w.run({ untilDone: true })));
    clearInterval(watch);
    const r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    const calls = emu.stats().byModel["emu-budget-wide"] ?? 0;
    expect(r.status).toBe("budget_exhausted");
    expect(r.spentUsd).toBeLessThanOrEqual(0.5 + 1e-9);
    expect(peak).toBeLessThanOrEqual(0.5 + 1e-9);
    // What the provider was paid for is what the run recorded: nothing called and left uncounted.
    expect(r.spentUsd).toBeCloseTo(calls * 0.02, 9);
    expect(calls).toBeGreaterThan(0);
    // No reservation outlives the run's leases.
    expect(await prisma().query.count({ where: { runId: run.id, status: "leased" } })).toBe(0);
  });

  it("cancels a run: in-flight calls finish, the rest stay unrun and visible", async () => {
    await register("emu-slow", { concurrency: 2 });
    emu.setScript("emu-slow", { latencyMs: 50 });
    const run = await createRun(prisma(), { models: ["emu-slow"], config: objectiveOnly(), seed: 1 });
    const worker = new Worker(prisma(), { runId: run.id, ...fast });
    const working = worker.run({ untilDone: true });
    await new Promise((r) => setTimeout(r, 300));
    await setRunState(prisma(), run.id, "cancel");
    await working;
    const r = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(r.status).toBe("cancelled");
    const done = await prisma().outcome.count({ where: { query: { runId: run.id } } });
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(76);
    expect(await prisma().query.count({ where: { runId: run.id, status: "leased" } })).toBe(0);
  });

  it("talks to Replicate predictions through the replicate SDK", async () => {
    process.env.REPLICATE_API_TOKEN = "r8_emulator_token";
    await upsertModel(prisma(), {
      slug: "emu-llama",
      label: "Llama (emulated)",
      provider: "replicate",
      modelId: "meta/llama-emu",
      baseUrl: emu.replicateBaseUrl,
      concurrency: 4,
    });
    emu.setScript("meta/llama-emu", { answers: { prefer: "Black" } });
    const run = await createRun(prisma(), { models: ["emu-llama"], config: objectiveOnly(), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const outs = await outcomes(run.id);
    expect(outs.every((o) => o.status === "answered")).toBe(true);
    // The stereotyped script always names Black when it is offered.
    expect(outs.filter((o) => o.query.attribute === "race").every((o) => o.race === "Black")).toBe(true);
  });

  it("fails a query fast and clearly when a key is missing, without leaking anything", async () => {
    await upsertModel(prisma(), { slug: "needs-key", label: "needs key", provider: "openai", modelId: "gpt-4o", apiKeyEnv: "FOF_ABSENT_KEY" });
    const run = await createRun(prisma(), { models: ["needs-key"], config: objectiveOnly({ objectiveRepeats: 1 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const outs = await outcomes(run.id);
    expect(outs.every((o) => o.status === "failed" && /FOF_ABSENT_KEY is not set/.test(o.reason ?? ""))).toBe(true);
  });
});

describe("fair share", () => {
  it("gives a second run on the same model a share of its concurrency instead of queueing it behind the first", async () => {
    await register("emu-shared", { concurrency: 4 });
    emu.setScript("emu-shared", { latencyMs: 30 });
    const big = await createRun(prisma(), { models: ["emu-shared"], config: presetConfig("smoke", { tests: ["objective"], objectiveRepeats: 6 }), seed: 1 });
    const worker = new Worker(prisma(), fast);
    const loop = worker.run();
    // Let the first run fill the model's slots, then launch a small second one.
    for (let i = 0; i < 100 && (await prisma().outcome.count({ where: { query: { runId: big.id } } })) < 8; i++) await new Promise((r) => setTimeout(r, 20));
    const small = await createRun(prisma(), { models: ["emu-shared"], config: presetConfig("smoke", { tests: ["objective"], objectiveRepeats: 1 }), seed: 2 });
    let smallDoneAt = 0;
    let bigDoneAt = 0;
    for (let i = 0; i < 1000 && !(smallDoneAt && bigDoneAt); i++) {
      const [s, b] = await Promise.all([
        prisma().run.findUniqueOrThrow({ where: { id: small.id } }),
        prisma().run.findUniqueOrThrow({ where: { id: big.id } }),
      ]);
      if (s.status === "completed" && !smallDoneAt) smallDoneAt = Date.now();
      if (b.status === "completed" && !bigDoneAt) bigDoneAt = Date.now();
      await new Promise((r) => setTimeout(r, 20));
    }
    worker.stop();
    await loop;
    // 76 queries of the small run against 456 of the big one: with a fair share it finishes well before the big one.
    expect(smallDoneAt).toBeGreaterThan(0);
    expect(bigDoneAt).toBeGreaterThan(0);
    expect(smallDoneAt).toBeLessThan(bigDoneAt);
  });
});

describe("finishing", () => {
  it("ends a run when its last outcome lands, while another run keeps the same worker busy", async () => {
    await register("emu-busy", { concurrency: 2 });
    emu.setScript("emu-busy", { latencyMs: 60 });
    await register("emu-quick", { concurrency: 8 });
    // A large run on a slow model keeps the worker claiming every pass; a small one beside it on another model.
    const big = await createRun(prisma(), { models: ["emu-busy"], config: presetConfig("smoke", { tests: ["objective"], objectiveRepeats: 6 }), seed: 11 });
    const small = await createRun(prisma(), { models: ["emu-quick"], config: objectiveOnly(), seed: 12 });
    const worker = new Worker(prisma(), { pollMs: 10, flushMs: 10 });
    const loop = worker.run();
    let ended = null as null | { finishedAt: Date | null; status: string };
    for (let i = 0; i < 6000 && !ended; i++) {
      const r = await prisma().run.findUniqueOrThrow({ where: { id: small.id }, select: { status: true, finishedAt: true } });
      if (r.status === "completed") ended = r;
      else await new Promise((res) => setTimeout(res, 20));
    }
    const bigOpen = await prisma().query.count({ where: { runId: big.id, status: { in: ["pending", "leased"] } } });
    worker.stop();
    await loop;
    expect(ended?.status).toBe("completed");
    // It ended while the big run was still being worked, not after it…
    expect(bigOpen).toBeGreaterThan(0);
    // …and within 2 s of its last outcome (the worker checks a run that had nothing to claim every 500 ms).
    const last = await prisma().outcome.aggregate({ where: { query: { runId: small.id } }, _max: { createdAt: true } });
    expect(ended!.finishedAt!.getTime() - last._max.createdAt!.getTime()).toBeLessThanOrEqual(2_000);
  });
});

describe("crash safety", () => {
  it("resumes after kill -9 with exactly one outcome per query and at most one duplicate call per in-flight query", async () => {
    const concurrency = 8;
    await register("emu-crash", { concurrency });
    emu.setScript("emu-crash", { latencyMs: 15 });
    const config = presetConfig("smoke", { tests: ["objective", "subjective"], contexts: ["baseline"], objectiveRepeats: 2, subjectiveRepeats: 2 });
    const run = await createRun(prisma(), { models: ["emu-crash"], config, seed: 9 });
    const planned = run.plannedCount;
    const env = { ...process.env, FOF_DATA_DIR: process.env.FOF_DATA_DIR };
    // node --import tsx (not the tsx wrapper, which would leave its child running after SIGKILL)
    const first = startFof(["worker"], env);
    // Let it get well into the run (a third of the outcomes written: a loaded machine may take a while to start
    // the process, so this waits on the state, not on a clock), then kill it without warning.
    const outcomes = () => prisma().outcome.count({ where: { query: { runId: run.id } } });
    await first.until("a third of the outcomes written", async () => (await outcomes()) >= planned / 3, 120_000, 50);
    await first.stop(30_000, "SIGKILL");
    const doneAtKill = await prisma().outcome.count({ where: { query: { runId: run.id } } });
    // The dead worker's in-flight queries: still leased (called, or answered but not yet written).
    const inFlightAtKill = await prisma().query.count({ where: { runId: run.id, status: "leased" } });
    expect(doneAtKill).toBeGreaterThan(0);
    expect(doneAtKill).toBeLessThan(planned);

    const second = startFof(["worker"], env);
    const completed = async () => (await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status === "completed";
    await second.until("the run completed by a second worker", completed, 60_000);
    await second.stop();

    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
    const outs = await prisma().outcome.findMany({ where: { query: { runId: run.id } }, select: { queryId: true } });
    expect(outs).toHaveLength(planned);
    expect(new Set(outs.map((o) => o.queryId)).size).toBe(planned);
    const calls = emu.stats().byModel["emu-crash"];
    // Only the queries in flight at the kill may have been called twice.
    expect(calls).toBeGreaterThanOrEqual(planned);
    expect(calls).toBeLessThanOrEqual(planned + inFlightAtKill);
  });
});
