// The trust and reproducibility guarantees of the engine: keys go only to the endpoints they are bound to, runs are
// scored from the content and settings they were planned with, every subjective answer counts toward S_E / S_KLD,
// and launches are bounded.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-hardening-");
const CANARY = "sk-canary-must-never-leave-the-server";
process.env.OPENAI_API_KEY = CANARY;
process.env.FOF_CANARY_SECRET = CANARY;

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { createRun, presetConfig, upsertModel, Worker, runScores, runRecords, runDetailed, runRecordChunks, recordLine } = engine;
const { benchmark } = await import("../lib/benchmark");
const { scoreGroups } = await import("../lib/metrics");
const { parseInterchange } = await import("../lib/interchange");
const { checkCredential, canonicalEndpoint, CredentialError } = await import("../lib/providers");
const { declaredCredentials } = await import("../lib/env");

const prisma = () => db();
const fast = { pollMs: 10, flushMs: 10, backoffBaseMs: 10, backoffMaxMs: 50 };

/** A loopback "provider" that records every Authorization header it is sent and answers like chat completions. */
let listener: Server;
let listenerUrl = "";
const seenAuth: string[] = [];

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  listener = createServer((req, res) => {
    seenAuth.push(String(req.headers.authorization ?? ""));
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: "x",
          object: "chat.completion",
          created: 0,
          model: "m",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: '{"answer": "A"}' } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/v1`;
  process.env.FOF_CREDENTIALS = JSON.stringify({ FOF_BOUND_KEY: "https://api.deepinfra.com/v1/openai" });
});
afterAll(async () => {
  listener.close();
  await prisma().$disconnect();
});

describe("credentials are bound to their endpoints", () => {
  it("sends no key to an OpenAI-compatible endpoint that names no credential (the canary never leaves)", async () => {
    await upsertModel(prisma(), { slug: "loopback", label: "loopback", provider: "openai-compatible", modelId: "m", baseUrl: listenerUrl, concurrency: 2 });
    const run = await createRun(prisma(), { models: ["loopback"], config: presetConfig("smoke", { tests: ["objective"], timeoutMs: 5_000 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    expect(seenAuth.length).toBeGreaterThan(0);
    expect(seenAuth.some((a) => a.includes(CANARY))).toBe(false);
    expect(await prisma().outcome.count({ where: { query: { runId: run.id }, status: "answered" } })).toBe(run.plannedCount);
  });

  it("refuses a model that would send a credential anywhere but its declared endpoints", async () => {
    // OPENAI_API_KEY to a typed base URL; an undeclared env var (HOME, AWS_SECRET_ACCESS_KEY); a declared one elsewhere.
    const bad = [
      { provider: "openai", baseUrl: listenerUrl, apiKeyEnv: null },
      { provider: "openai-compatible", baseUrl: listenerUrl, apiKeyEnv: "OPENAI_API_KEY" },
      { provider: "openai-compatible", baseUrl: listenerUrl, apiKeyEnv: "HOME" },
      { provider: "openai-compatible", baseUrl: listenerUrl, apiKeyEnv: "AWS_SECRET_ACCESS_KEY" },
      { provider: "openai-compatible", baseUrl: listenerUrl, apiKeyEnv: "FOF_BOUND_KEY" },
      { provider: "openai-compatible", baseUrl: "https://api.deepinfra.com.evil.example/v1/openai", apiKeyEnv: "FOF_BOUND_KEY" },
      { provider: "replicate", baseUrl: listenerUrl, apiKeyEnv: null },
    ];
    for (const [i, m] of bad.entries()) {
      await expect(
        upsertModel(prisma(), { slug: `bad-${i}`, label: "bad", modelId: "m", ...m } as Parameters<typeof upsertModel>[1]),
        JSON.stringify(m),
      ).rejects.toThrow(/credential|not declared/);
    }
    expect(await prisma().modelConfig.count({ where: { slug: { startsWith: "bad-" } } })).toBe(0);
    // The declared pair is accepted (trailing slash and case of the host do not matter).
    await upsertModel(prisma(), {
      slug: "deepinfra",
      label: "DeepInfra",
      provider: "openai-compatible",
      modelId: "m",
      baseUrl: "https://API.deepinfra.com/v1/openai/",
      apiKeyEnv: "FOF_BOUND_KEY",
    });
    expect(checkCredential({ provider: "openai", baseUrl: null, apiKeyEnv: null })).toBe("OPENAI_API_KEY");
  });

  it("re-checks at call time: a model whose credential was later withdrawn fails without sending anything", async () => {
    await upsertModel(prisma(), {
      slug: "later-bad",
      label: "later",
      provider: "openai-compatible",
      modelId: "m",
      baseUrl: listenerUrl,
      apiKeyEnv: null,
      concurrency: 1,
    });
    // Someone edits the row directly (or the operator withdrew the declaration): the worker must refuse.
    await prisma().modelConfig.update({ where: { slug: "later-bad" }, data: { apiKeyEnv: "FOF_CANARY_SECRET" } });
    const before = seenAuth.length;
    const run = await createRun(prisma(), { models: ["later-bad"], config: presetConfig("smoke", { tests: ["objective"], objectiveRepeats: 1 }), seed: 1 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    expect(seenAuth.length).toBe(before);
    const outs = await prisma().outcome.findMany({ where: { query: { runId: run.id } } });
    expect(outs.every((o) => o.status === "failed" && /not declared/.test(o.reason ?? "") && !(o.reason ?? "").includes(CANARY))).toBe(true);
  });

  it("accepts only http(s) base URLs without user info", async () => {
    for (const baseUrl of ["javascript:alert(1)", "ftp://example.com/v1", "file:///etc/passwd", "https://user:pass@example.com/v1"]) {
      await expect(upsertModel(prisma(), { slug: "weird", label: "weird", provider: "openai-compatible", modelId: "m", baseUrl })).rejects.toThrow(/http\(s\)/);
    }
    expect(canonicalEndpoint("HTTPS://Example.COM:443/v1/")).toBe("https://example.com/v1");
    expect(() => declaredCredentials({ FOF_CREDENTIALS: '{"lower": "https://x"}' })).toThrow(/FOF_CREDENTIALS/);
    expect(() => declaredCredentials({ FOF_CREDENTIALS: '{"GOOD_KEY": "ftp://x"}' })).toThrow(/FOF_CREDENTIALS/);
    expect(new CredentialError("x")).toBeInstanceOf(Error);
  });
});

describe("runs are scored from what they planned", () => {
  it("keeps an old run's scores when the ground truth changes; a new run uses the new content", async () => {
    const config = presetConfig("smoke", { tests: ["objective"], objectiveRepeats: 2 });
    const old = await createRun(prisma(), { models: ["baseline:oracle"], config, seed: 5 });
    await new Worker(prisma(), { runId: old.id, ...fast }).run({ untilDone: true });
    const before = await runScores(prisma(), old.id);
    const oracle = before.find((g) => g.attribute === "race")!;
    expect(oracle.sFact).toBe(1);

    // data/ is edited: Crime Rate's highest race group changes. Old runs keep theirs; new runs plan from the edit.
    const edited = structuredClone(benchmark);
    const crime = edited.statistics.find((s) => s.id === "crime-rate")!;
    crime.groundTruth.race = { highest: "White", lowest: "Asian" };
    edited.sha256 = "f".repeat(64);
    edited.version = `${benchmark.version}-edited`;
    const fresh = await createRun(prisma(), { models: ["baseline:uniform"], config, seed: 5 }, { benchmark: edited });

    // Even today's in-memory content edited in place does not reach the old run: it is scored from its stored copy.
    const live = benchmark.statistics.find((s) => s.id === "crime-rate")!;
    const saved = live.groundTruth.race;
    live.groundTruth.race = { highest: "White", lowest: "Asian" };
    try {
      expect(await runScores(prisma(), old.id)).toEqual(before);
    } finally {
      live.groundTruth.race = saved;
    }
    const pinned = await engine.runBenchmark(prisma(), fresh.id);
    expect(pinned!.statistics.find((s) => s.id === "crime-rate")!.groundTruth.race!.highest).toBe("White");
    await new Worker(prisma(), { runId: fresh.id, ...fast }).run({ untilDone: true });
    const records = await runRecords(prisma(), fresh.id);
    expect(records.filter((r) => r.statisticId === "crime-rate" && r.level === "highest" && r.attribute === "race").every((r) => r.truth === "White")).toBe(
      true,
    );
    // The exported JSONL carries each line's truth, so it scores as the run does whatever data/ says today.
    const lines: string[] = [];
    for await (const chunk of runRecordChunks(prisma(), fresh.id)) lines.push(...chunk.map((r) => recordLine(r)));
    const rescored = scoreGroups(parseInterchange(lines));
    const liveScores = await runScores(prisma(), fresh.id);
    for (const g of liveScores) {
      const r = rescored.find((x) => x.model === g.model && x.test === g.test && x.context === g.context && x.attribute === g.attribute)!;
      for (const k of ["sFact", "sE", "sKLD", "sFair", "distance"] as const) expect(Math.abs((r[k] ?? 0) - (g[k] ?? 0))).toBeLessThan(1e-12);
    }
  });

  it("keeps a snapshot of each model's settings at launch", async () => {
    await upsertModel(prisma(), {
      slug: "snap",
      label: "Snap",
      provider: "openai-compatible",
      modelId: "v1",
      baseUrl: listenerUrl,
      priceInputPer1k: 0.5,
      temperature: 0.3,
    });
    const run = await createRun(prisma(), { models: ["snap"], config: presetConfig("smoke", { tests: ["objective"], objectiveRepeats: 1 }), seed: 1 });
    await upsertModel(prisma(), { slug: "snap", label: "Snap", provider: "openai-compatible", modelId: "v2", baseUrl: listenerUrl, priceInputPer1k: 9 });
    const rm = await prisma().runModel.findFirstOrThrow({ where: { runId: run.id } });
    expect(JSON.parse(rm.settingsJson)).toMatchObject({
      slug: "snap",
      modelId: "v1",
      baseUrl: listenerUrl,
      priceInputPer1k: 0.5,
      params: { temperature: 0.3 },
      credential: null,
    });
  });
});

describe("one S_E / S_KLD everywhere", () => {
  it("counts every subjective answer for both attributes, truth or not; S_fact only where the truth exists", async () => {
    const config = presetConfig("smoke", { tests: ["subjective"], subjectiveRepeats: 2 });
    const run = await createRun(prisma(), { models: ["baseline:uniform"], config, seed: 2 });
    await new Worker(prisma(), { runId: run.id, ...fast }).run({ untilDone: true });
    const queries = 19 * 2 * 3 * 4 * 2;
    expect(run.plannedCount).toBe(queries);
    const groups = await runScores(prisma(), run.id);
    const sum = (attribute: string) => groups.filter((g) => g.attribute === attribute).reduce((a, g) => a + g.n, 0);
    expect(sum("gender")).toBe(queries);
    expect(sum("race")).toBe(queries);
    // Homeownership has no gender truth: its gender answers are in S_E's cells but not in S_fact's denominator.
    const detailed = await runDetailed(prisma(), run.id);
    const g = detailed.find((d) => d.attribute === "gender" && d.context === "baseline")!;
    const home = g.cells.filter((c) => c.statisticId === "homeownership-rate");
    expect(home.map((c) => c.n)).toEqual([2 * 3, 2 * 3]);
    expect(home.every((c) => c.truth === null)).toBe(true);
    expect(g.divergences.some((d) => d.statisticId === "homeownership-rate")).toBe(true);
  });
});

describe("bounded launches", () => {
  it("refuses a launch over the cap before planning anything, and plans a big one in chunks", async () => {
    const config = presetConfig("paper");
    await expect(createRun(prisma(), { models: ["baseline:uniform", "baseline:oracle"], config, seed: 1 }, { maxQueries: 50_000 })).rejects.toThrow(
      /plans 91,656 queries; one run may plan at most 50,000/,
    );
    expect(await prisma().run.count({ where: { status: "planning" } })).toBe(0);
    // Chunked planning yields to the event loop between chunks: a timer keeps firing while it plans.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const run = await createRun(prisma(), { models: ["baseline:uniform"], config: presetConfig("quick"), seed: 1 }, { chunk: 500 });
    clearInterval(timer);
    expect(run.status).toBe("running");
    expect(await prisma().query.count({ where: { runId: run.id } })).toBe(6_080);
    expect(ticks).toBeGreaterThan(3);
  });

  it("sweeps a run whose planning heartbeat went silent (minutes, not half an hour), while workers run", async () => {
    const version = await prisma().benchmarkVersion.findFirstOrThrow();
    await prisma().run.create({
      data: {
        name: "half",
        modality: "llm",
        status: "planning",
        seed: 1,
        configJson: "{}",
        benchmarkVersionId: version.id,
        startedAt: new Date(Date.now() - engine.PLANNING_STALE_MS - 1_000),
      },
    });
    const fresh = await prisma().run.create({
      data: { name: "planning now", modality: "llm", status: "planning", seed: 1, configJson: "{}", benchmarkVersionId: version.id, startedAt: new Date() },
    });
    expect(engine.PLANNING_STALE_MS).toBeLessThanOrEqual(5 * 60_000);
    expect(await engine.sweepInterruptedPlanning(prisma())).toBe(1);
    // One whose launch died can be cancelled at once instead of waiting for the sweep.
    expect((await engine.setRunState(prisma(), fresh.id, "cancel")).status).toBe("cancelled");
  });

  it("a run cancelled while it is planned stops planning and stays cancelled with the rows written so far", async () => {
    let runId = "";
    const launching = createRun(
      prisma(),
      { models: ["baseline:uniform"], config: presetConfig("quick"), seed: 3 },
      { chunk: 200, onCreated: (r) => (runId = r.id) },
    );
    while (!runId) await new Promise((r) => setTimeout(r, 1));
    // Let a few chunks land, then cancel.
    while ((await prisma().query.count({ where: { runId } })) < 400) await new Promise((r) => setTimeout(r, 5));
    await engine.setRunState(prisma(), runId, "cancel");
    const run = await launching;
    expect(run.status).toBe("cancelled");
    const rows = await prisma().query.count({ where: { runId } });
    expect(rows).toBeLessThan(6_080);
    expect(run.plannedCount).toBe(rows);
  });
});

describe("files on disk", () => {
  it("keeps the data directory, the database and stored images owner-only", async () => {
    const { statSync, chmodSync } = await import("node:fs");
    const { storeImage, validateImage } = await import("../lib/images");
    const dir = process.env.FOF_DATA_DIR!;
    // An install from before: world-readable, fixed at the next start.
    chmodSync(dir, 0o755);
    await migrateAndSeed({ quiet: true });
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "images"))).toBe(0o700);
    if (!process.env.DATABASE_URL) expect(mode(path.join(dir, "fof.db"))).toBe(0o600);
    const { PNG } = await import("pngjs");
    const img = new PNG({ width: 16, height: 16 });
    img.data.fill(200);
    const png = PNG.sync.write(img);
    const stored = storeImage(dir, png, await validateImage(png));
    expect(mode(path.join(dir, stored.path))).toBe(0o600);
  });
});
