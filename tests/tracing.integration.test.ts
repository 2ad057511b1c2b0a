// OpenTelemetry traces, exported over OTLP/HTTP to a receiver in this process: a span per provider call (model,
// attempt, outcome, tokens, the run), per route handler (templated route, status, the run it is about), per labelling
// batch and per webhook delivery — and no prompt, answer or key in any of them unless the operator opts in.
import http from "node:http";
import { existsSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values: OtlpValue[] };
}
interface ExportedSpan {
  name: string;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
}

const spans: ExportedSpan[] = [];
const bodies: string[] = [];
const plain = (v: OtlpValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? v.arrayValue?.values.map(plain)));
const receiver = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString("utf8");
  if (req.url === "/v1/traces") {
    bodies.push(body);
    const doc = JSON.parse(body) as {
      resourceSpans: Array<{
        scopeSpans: Array<{ spans: Array<{ name: string; attributes?: Array<{ key: string; value: OtlpValue }>; status?: ExportedSpan["status"] }> }>;
      }>;
    };
    for (const rs of doc.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans)
          spans.push({ name: s.name, status: s.status, attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, plain(a.value)])) });
  }
  res.writeHead(200, { "content-type": "application/json" }).end("{}");
});
await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
const port = (receiver.address() as AddressInfo).port;

const dataDir = testDataDir("fof-tracing-");
process.env.FOF_DATA_DIR = dataDir;
process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
process.env.OPENAI_API_KEY = "sk-tracing-canary-never-in-a-span";

const { db, migrateAndSeed } = await import("../lib/db");
const tracing = await import("../lib/core/tracing");
const engine = await import("./helpers/services");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { createWebhook } = await import("../lib/features/webhooks/hooks");
const { deliverDue } = await import("../lib/features/webhooks/deliver");
const { createNodeLabeller, modelFile } = await import("../lib/faces/node-labeller");
const { labelQueue } = await import("../lib/features/labelling/queue");
const runRoute = await import("../app/api/v1/runs/[id]/route");

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
let adminToken = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const admin = await createUser(db(), { email: "ops@example.org", name: "Ops", password: "test-password-123", role: "admin" });
  adminToken = (await createToken(db(), admin.id, { name: "ci" })).secret;
});
afterAll(async () => {
  await db().$disconnect();
  await new Promise((ok) => receiver.close(ok));
});

const named = (name: string) => spans.filter((s) => s.name === name);

describe("OpenTelemetry traces", () => {
  it("costs nothing when no endpoint is set: no spans, no SDK", async () => {
    expect(tracing.tracingConfigured({})).toBe(false);
    expect(await tracing.startTracing("fof-test", {})).toBe(false);
    let seen: unknown = "unset";
    await tracing.traced("x", {}, async (span) => void (seen = span));
    expect(seen).toBeUndefined();
    expect(tracing.startSpan("x", {})).toBeUndefined();
  });

  it("exports a span per provider call, route and webhook delivery, with the run's id and no content", async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` };
    expect(await tracing.startTracing("fof-test", env)).toBe(true);

    // Provider calls: one span per call, each with the run, the model, the attempt, the outcome and tokens.
    const run = await engine.createRun(db(), {
      models: ["baseline:calibrated:0.8"],
      config: engine.presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"] }),
      seed: 7,
    });
    await createWebhook(db(), { url: `http://127.0.0.1:${port}/hooks/fof?token=secret-in-url`, events: ["run.completed"] }, null);
    await new engine.Worker(db(), { runId: run.id, pollMs: 5, flushMs: 10, webhookPollMs: 3_600_000 }).run({ untilDone: true });
    expect(await deliverDue(db())).toBe(1);
    const res = await runRoute.GET(new Request(`http://127.0.0.1:3000/api/v1/runs/${run.id}`, { headers: { authorization: `Bearer ${adminToken}` } }), {
      params: Promise.resolve({ id: run.id }),
    });
    expect(res.status).toBe(200);
    await tracing.flushTracing();

    const calls = named("provider.chat").filter((s) => s.attributes["fof.run_id"] === run.id);
    const outcomes = await db().outcome.count({ where: { query: { runId: run.id }, cached: false } });
    expect(outcomes).toBeGreaterThan(0);
    expect(calls).toHaveLength(outcomes);
    expect(calls[0]!.attributes).toMatchObject({ "gen_ai.request.model": "baseline:calibrated:0.8", "fof.attempt": 1, "fof.outcome": "ok" });
    expect(typeof calls[0]!.attributes["gen_ai.usage.output_tokens"]).toBe("number");

    const route = named("GET /api/v1/runs/:id").find((s) => s.attributes["fof.run_id"] === run.id);
    expect(route?.attributes).toMatchObject({ "http.route": "/api/v1/runs/:id", "http.response.status_code": 200 });

    const delivery = named("webhook.deliver").find((s) => s.attributes["fof.run_id"] === run.id);
    expect(delivery?.attributes).toMatchObject({ "fof.event": "run.completed", "http.response.status_code": 200, "server.address": `127.0.0.1:${port}` });

    // Nothing a span carries is content or a secret: no prompt, no answer, no key, no webhook URL's token.
    const query = await db().query.findFirstOrThrow({ where: { runId: run.id }, select: { prompt: true, outcome: { select: { rawText: true } } } });
    const exported = bodies.join("\n");
    expect(exported).not.toContain(query.prompt.slice(0, 60));
    if (query.outcome?.rawText) expect(exported).not.toContain(query.outcome.rawText.slice(0, 60));
    expect(exported).not.toContain("sk-tracing-canary");
    expect(exported).not.toContain("secret-in-url");
    expect(exported).not.toContain(adminToken);
    // Prompts and answers only when the operator opts in (FOF_TRACE_CONTENT=on at start).
    expect(tracing.contentAttribute("fof.prompt", query.prompt)).toEqual({});
    const state = (globalThis as unknown as { __fofTracing: { content: boolean } }).__fofTracing;
    state.content = true;
    expect(tracing.contentAttribute("fof.prompt", query.prompt)).toEqual({ "fof.prompt": query.prompt.slice(0, 4096) });
    state.content = false;
  });

  it.skipIf(!hasShared)("exports a span per labelling batch with the run it labelled", async () => {
    const run = await engine.createRun(db(), {
      suite: "dofair",
      models: ["baseline:synthetic-faces"],
      config: { dimensions: ["race"], methods: ["baseline"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 2 },
      preset: "custom",
      seed: 3,
    });
    await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    const labeller = await createNodeLabeller({
      detector: modelFile(path.join(SHARED, "ultraface-version-RFB-320.onnx")),
      classifier: modelFile(path.join(SHARED, "fairface-standin-single18.onnx")),
      threads: 1,
    });
    const deps = { leaseImages: engine.leaseImages, saveLabels: engine.saveLabels, releaseLeases: engine.releaseLeases };
    const done = await labelQueue(db(), deps, labeller, { dataDir, runId: run.id, batch: 8 });
    expect(done.images).toBeGreaterThan(0);
    await tracing.flushTracing();
    const batches = named("label.batch").filter((s) => s.attributes["fof.run_id"] === run.id);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.reduce((n, s) => n + Number(s.attributes["fof.saved"]), 0)).toBe(done.images);
    expect(batches[0]!.attributes).toMatchObject({ "fof.labeller": "faces" });
    const images = named("provider.image").filter((s) => s.attributes["fof.run_id"] === run.id);
    expect(images.length).toBe(await db().image.count({ where: { runId: run.id } }));
  });
});
