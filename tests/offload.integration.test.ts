// Reads whose work grows with a run or a plan run on read threads (lib/server/offload.ts), cached by their inputs and
// limited per account: a viewer asking for content plans for many seeds at once gets two computations and a 429 for
// the rest (another viewer is not held back by it); identical requests share one computation; a repeat is served
// from the cache; the answers are exactly what the same code computes in this thread; a run's scores and summary
// come from the thread too, and the event loop keeps answering while a plan is computed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-offload-");
const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { importContentSet, setContentSetStatus } = await import("../lib/features/content/content-sets");
const { offloadStats } = await import("../lib/server/offload");
const { promptPage } = await import("../lib/content/preview");
const { planContent } = await import("../lib/content/plan");
const { PRESETS } = await import("../lib/suites/fact-or-fair/presets");
const { createRun, presetConfig, runScores, Worker } = await import("./helpers/services");
const one = await import("../app/api/v1/content-sets/[ref]/route");
const scores = await import("../app/api/v1/runs/[id]/scores/route");
const summary = await import("../app/api/runs/[id]/route");
const explanations = await import("../app/api/v1/runs/[id]/explanations/route");
const { explanationResults } = await import("../lib/features/explanations/results");
const { publicResults } = await import("../lib/features/explanations/access");
const { startJudgePass, workJudgePassesUntilDone } = await import("../lib/features/explanations/judge-pass");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const get = (handler: Handler, url: string, token: string, params: Record<string, string>) =>
  handler(new Request(`http://127.0.0.1:3000${url}`, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve(params) });

const DIR = path.join(__dirname, "fixtures/content/de-synthetic");
const FILES = Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(DIR, f), "utf8")]));
const REF = "de-synthetic@1.0.0";
const tokens = { a: "", b: "" };

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const admin = await createUser(db(), { email: "admin@example.org", name: "admin", password: "test-password-123", role: "admin" });
  const actor = { id: admin.id, email: admin.email, role: "admin" as const, token: null, address: null };
  await importContentSet(db(), actor, FILES);
  await setContentSetStatus(db(), actor, REF, "approve");
  for (const who of ["a", "b"] as const) {
    const u = await createUser(db(), { email: `viewer-${who}@example.org`, name: who, password: "test-password-123", role: "viewer" });
    tokens[who] = (await createToken(db(), u.id, { name: "t" })).secret;
  }
});

const plan = (seed: number, token: string) => get(one.GET as Handler, `/api/v1/content-sets/${REF}?seed=${seed}&preset=paper&limit=50`, token, { ref: REF });

describe("reads off the event loop", () => {
  it("limits each account's computations, not another's; shares identical ones; serves repeats from the cache", async () => {
    const before = offloadStats();
    // One viewer asks for twelve seeds at once: prompts of each and the plan (shared by every seed) are computations,
    // two of its own at a time, eight more waiting their turn, the rest refused with Retry-After.
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => plan(i + 1, tokens.a)));
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(burst.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(8);
    expect(refused[0]!.headers.get("retry-after")).toBeTruthy();
    expect((await refused[0]!.json()).code).toBe("rate_limited");
    // Another viewer meanwhile is answered — also for a seed the first was refused: a refusal is not remembered as
    // the answer to that request (it once was, for every later asker of the same key).
    expect((await plan(9, tokens.b)).status).toBe(200);
    const refusedSeed = burst.findIndex((r) => r.status === 429) + 1;
    expect((await plan(refusedSeed, tokens.b)).status).toBe(200);
    expect((await plan(refusedSeed, tokens.a)).status).toBe(200);
    // The same request twice at once: one computation.
    const dispatched = offloadStats().dispatched;
    const [x, y] = await Promise.all([plan(70, tokens.a), plan(70, tokens.b)]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(offloadStats().dispatched - dispatched).toBe(1); // the prompts for seed 70; the paper plan was cached
    // A repeat: from the cache, nothing computed.
    const again = offloadStats();
    const body = await (await plan(70, tokens.a)).json();
    expect(offloadStats().dispatched).toBe(again.dispatched);
    expect(offloadStats().cacheHits).toBeGreaterThan(again.cacheHits);
    expect(offloadStats().threads).toBeGreaterThan(0);
    expect(offloadStats().refused).toBeGreaterThan(before.refused);
    // What the thread computed is what this thread computes.
    const { getContentSet } = await import("../lib/features/content/content-sets");
    const { set } = await getContentSet(db(), REF);
    expect(body.prompts).toEqual(JSON.parse(JSON.stringify(promptPage(set, 70, 50))));
    expect(body.plan.queries).toEqual(planContent(set, PRESETS.paper, { runs: 8 }).queries);
  }, 120_000);

  it("keeps the event loop free while a plan is computed", async () => {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const t0 = performance.now();
    // A fresh plan (another preset: not cached), computed on a thread.
    const res = await get(one.GET as Handler, `/api/v1/content-sets/${REF}?seed=11&preset=quick&limit=2000`, tokens.b, { ref: REF });
    const took = performance.now() - t0;
    loop.disable();
    expect(res.status).toBe(200);
    // The loop was never held for anything like the computation itself (generous: a busy CI machine).
    expect(loop.max / 1e6).toBeLessThan(Math.max(250, took / 2));
  }, 120_000);

  it("computes a run's scores and summary on a thread, equal to the same computation here", async () => {
    const run = await createRun(db(), { models: ["baseline:calibrated:0.8"], config: presetConfig("smoke"), seed: 4 });
    await new Worker(db(), { runId: run.id, pollMs: 5, flushMs: 10, runCheckMs: 10 }).run({ untilDone: true });
    const dispatched = offloadStats().dispatched;
    const res = await get(scores.GET as Handler, `/api/v1/runs/${run.id}/scores`, tokens.a, { id: run.id });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results).toEqual(JSON.parse(JSON.stringify(await runScores(db(), run.id, { profile: body.profile }))));
    const s = await (await get(summary.GET as Handler, `/api/runs/${run.id}`, tokens.a, { id: run.id })).json();
    expect(s).toMatchObject({ id: run.id, status: "completed", done: run.plannedCount });
    expect(offloadStats().dispatched - dispatched).toBe(2);
    expect((await get(summary.GET as Handler, `/api/runs/nope`, tokens.a, { id: "nope" })).status).toBe(404);
  }, 120_000);

  it("computes a reasoning run's explanation results on a thread (they read every explanation), equal to the same here", async () => {
    const config = { ...presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline", "ingroup"] }), cot: true };
    const run = await createRun(db(), { models: ["baseline:explainer"], config, seed: 4 });
    await new Worker(db(), { runId: run.id, pollMs: 5, flushMs: 10, runCheckMs: 10 }).run({ untilDone: true });
    await startJudgePass(db(), { id: "starter", role: "admin", spendingLimitUsd: null }, { runId: run.id, judge: "baseline:judge" });
    await workJudgePassesUntilDone(db());
    const dispatched = offloadStats().dispatched;
    const res = await get(explanations.GET as Handler, `/api/v1/runs/${run.id}/explanations`, tokens.a, { id: run.id });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.judge.model).toBe("baseline:judge");
    expect(body).toEqual(JSON.parse(JSON.stringify(publicResults(await explanationResults(db(), run.id)))));
    expect(offloadStats().dispatched - dispatched).toBe(1);
    // a run that did not reason: the thread's refusal reaches the client as the same 4xx
    const plain = await createRun(db(), { models: ["baseline:uniform"], config: presetConfig("smoke"), seed: 5 });
    expect((await get(explanations.GET as Handler, `/api/v1/runs/${plain.id}/explanations`, tokens.a, { id: plain.id })).status).toBeGreaterThanOrEqual(400);
  }, 120_000);
});
