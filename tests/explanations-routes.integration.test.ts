// The explanation review API (issue #67) as an attacker meets it (the hostile re-test of 2026-12-07 included): each
// route behind its permission; the reviewer always the signed-in account, reading only what was dealt to them; queues
// blind, gold dealt among the rest; nobody picks a sample's seed; a reviewer who still owes readings of a run sees
// none of its readings; the judge started and cancelled only by who may steer the run, with a budget that is a number;
// raw explanations only to roles that may read raw output; reviewers by pseudonym everywhere outside management.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("explanation-routes-");
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { sessionCookie } = await import("./helpers/session");
const results = await import("../app/api/v1/runs/[id]/explanations/route");
const items = await import("../app/api/v1/runs/[id]/explanations/items/route");
const samples = await import("../app/api/v1/runs/[id]/explanations/samples/route");
const judge = await import("../app/api/v1/runs/[id]/explanations/judge/route");
const exportRoute = await import("../app/api/v1/runs/[id]/explanations/export/route");
const queue = await import("../app/api/v1/explanations/queue/route");
const readings = await import("../app/api/v1/explanations/readings/route");
const bundle = await import("../app/api/v1/runs/[id]/bundle/route");
const { plantedIn } = await import("../lib/providers/explainer");
const { sampleSeed } = await import("../lib/features/explanations/sample");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
function call(h: unknown, path: string, opts: { cookie?: string; method?: string; body?: unknown; params?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  return (h as Handler)(
    new Request(`http://127.0.0.1${path}`, { method: opts.method ?? "GET", headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
    {
      params: Promise.resolve(opts.params ?? {}),
    },
  );
}
const post = (h: unknown, path: string, cookie: string, body: unknown, params: Record<string, string> = {}) =>
  call(h, path, { cookie, method: "POST", body, params });

let runId = "";
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const ROLES = {
  admin: "admin",
  reviewer: "reviewer",
  ann1: "annotator",
  ann2: "annotator",
  ann3: "annotator",
  viewer: "viewer",
  runner: "runner",
  runner2: "runner",
} as const;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  for (const [name, role] of Object.entries(ROLES)) {
    cookies[name] = await sessionCookie(role);
    ids[name] = (await db().user.findFirstOrThrow({ where: { role }, orderBy: { createdAt: "desc" } })).id;
  }
  const config = engine.presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"] });
  runId = (await engine.createRun(db(), { models: ["baseline:explainer"], config: { ...config, cot: true }, seed: 2, createdById: ids.runner })).id;
  await new engine.Worker(db(), { runId, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
}, 120_000);
afterAll(async () => {
  await db().$disconnect();
});

describe("explanation review routes", () => {
  it("deal samples only to accounts that may review explanations, with a seed nobody picks", async () => {
    const path = `/api/v1/runs/${runId}/explanations/samples`;
    const params = { id: runId };
    expect((await post(samples.POST, path, cookies.ann1, { name: "x", annotators: [ids.ann1] }, params)).status).toBe(403);
    expect((await post(samples.POST, path, cookies.reviewer, { name: "x", annotators: [ids.viewer] }, params)).status).toBe(400);
    // a seed is not the drawer's to choose
    expect((await post(samples.POST, path, cookies.reviewer, { name: "x", annotators: [ids.ann1], seed: 2296 }, params)).status).toBe(400);
    const ok = await post(samples.POST, path, cookies.reviewer, { name: "pair", annotators: [ids.ann1, ids.ann2], halfWidth: 0.25, overlap: 2 }, params);
    expect(ok.status).toBe(201);
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect((await db().assignment.findFirstOrThrow({ where: { kind: "explanations" } })).seed).toBe(sampleSeed(run, 0));
    const listed = await (await call(samples.GET, `${path}?halfWidth=0.25`, { cookie: cookies.reviewer, params })).json();
    expect(listed.samples[0].reviewers.map((r: { name: string }) => r.name).sort()).toEqual([ids.ann1, ids.ann2].sort());
    expect(listed.suggestion[0].sample).toBe(listed.samples[0].explanations);
  });

  it("take readings only of what was dealt, as the signed-in reviewer, blind, and refuse hostile ones", async () => {
    const assignment = (await db().assignment.findFirstOrThrow({ where: { kind: "explanations" } })).id;
    expect((await call(queue.GET, `/api/v1/explanations/queue?assignmentId=${assignment}`, { cookie: cookies.viewer })).status).toBe(403);
    const page = await (await call(queue.GET, `/api/v1/explanations/queue?assignmentId=${assignment}&pageSize=10`, { cookie: cookies.ann1 })).json();
    expect(page.items.length).toBe(10);
    const item = page.items[0];
    const tags = plantedIn(item.explanation).map((p) => ({ tag: p.error, start: p.start, end: p.end }));
    expect((await post(readings.POST, "/api/v1/explanations/readings", cookies.ann1, { outcomeId: item.outcomeId, reading: { tags } })).status).toBe(201);
    // someone with no assignment cannot read it (nor learn its length from a refusal): the same answer as for nothing
    const outsider = await post(readings.POST, "/api/v1/explanations/readings", cookies.ann3, {
      outcomeId: item.outcomeId,
      reading: { tags: [{ tag: "group", start: 0, end: 99_999 }] },
    });
    expect(outsider.status).toBe(404);
    expect(await outsider.text()).not.toMatch(/characters/);
    // a body naming another reviewer, or an id that is not a number
    for (const body of [
      { outcomeId: item.outcomeId, annotator: ids.ann2, reading: { tags } },
      { outcomeId: true, reading: { tags: [] } },
      { outcomeId: [item.outcomeId], reading: { tags: [] } },
      { outcomeId: `0x${item.outcomeId.toString(16)}`, reading: { tags: [] } },
    ])
      expect((await post(readings.POST, "/api/v1/explanations/readings", cookies.ann1, body)).status).toBe(400);
    expect(await db().explanationReading.count({ where: { annotator: { not: ids.ann1 } } })).toBe(0);
    const theirs = await (
      await call(queue.GET, `/api/v1/explanations/queue?assignmentId=${assignment}&pageSize=50&state=all`, { cookie: cookies.ann2 })
    ).json();
    expect(theirs.items.find((i: { outcomeId: number }) => i.outcomeId === item.outcomeId).mine).toBeNull();
    for (const bad of [
      { outcomeId: item.outcomeId, reading: { tags: [{ tag: "group", start: 0, end: 10_000_000 }] } },
      { outcomeId: item.outcomeId, reading: { tags: [{ tag: "group", start: -1, end: 3 }] } },
      { outcomeId: item.outcomeId, reading: { tags: [{ tag: "__proto__", start: 0, end: 3 }] } },
      { outcomeId: item.outcomeId, reading: { tags: [], note: "x".repeat(5000) } },
    ])
      expect([400, 413]).toContain((await post(readings.POST, "/api/v1/explanations/readings", cookies.ann1, bad)).status);
  });

  it("keep a reviewer who still owes readings of the run blind to its readings", async () => {
    const params = { id: runId };
    const made = await post(
      samples.POST,
      `/api/v1/runs/${runId}/explanations/samples`,
      cookies.admin,
      { name: "mine too", annotators: [ids.reviewer], halfWidth: 0.45, overlap: 1 },
      params,
    );
    expect(made.status).toBe(201);
    for (const [h, path] of [
      [bundle.GET, `/api/v1/runs/${runId}/bundle`],
      [results.GET, `/api/v1/runs/${runId}/explanations`],
      [items.GET, `/api/v1/runs/${runId}/explanations/items?tag=representativeness`],
      [exportRoute.GET, `/api/v1/runs/${runId}/explanations/export`],
    ] as const) {
      const r = await call(h, path, { cookie: cookies.reviewer, params });
      expect(r.status, path).toBe(403);
      expect((await r.json()).error).toMatch(/left to review/);
    }
  });

  it("start and cancel the judge only as who may steer the run, on a numeric budget", async () => {
    const path = `/api/v1/runs/${runId}/explanations/judge`;
    const params = { id: runId };
    expect((await post(judge.POST, path, cookies.viewer, { judge: "baseline:judge" }, params)).status).toBe(403);
    // another runner's run
    expect((await post(judge.POST, path, cookies.runner2, { judge: "baseline:judge", budgetUsd: 0.1 }, params)).status).toBe(403);
    expect((await post(judge.POST, path, cookies.runner, { judge: "baseline:explainer" }, params)).status).toBe(400);
    expect((await post(judge.POST, path, cookies.runner, { judge: "baseline:judge", budgetUsd: null }, params)).status).toBe(400);
    expect((await post(judge.POST, path, cookies.runner, { judge: "baseline:judge", budgetUsd: "" }, params)).status).toBe(400);
    const started = await post(judge.POST, path, cookies.runner, { judge: "baseline:judge" }, params);
    expect(started.status).toBe(202);
    const { id: passId } = await started.json();
    expect((await call(judge.PUT, `${path}?passId=${passId}`, { cookie: cookies.runner2, method: "PUT", body: {}, params })).status).toBe(403);
    expect((await call(judge.PUT, `${path}?passId=${passId}`, { cookie: cookies.runner, method: "PUT", body: {}, params })).status).toBe(200);
    expect((await call(items.GET, `/api/v1/runs/${runId}/explanations/items`, { cookie: cookies.viewer, params })).status).toBe(403);
    expect((await call(items.GET, `/api/v1/runs/${runId}/explanations/items?tag=evil`, { cookie: cookies.admin, params })).status).toBe(400);
  });

  it("name reviewers by pseudonym in results, the explanations behind a number and the export", async () => {
    const params = { id: runId };
    const r = await (await call(results.GET, `/api/v1/runs/${runId}/explanations`, { cookie: cookies.viewer, params })).json();
    expect(r.sample.reviewed).toBe(1);
    expect(r.reviewers.length).toBeGreaterThan(0);
    expect(r.reviewers.every((q: { annotator: string }) => /^person-[0-9a-f]{12}$/.test(q.annotator))).toBe(true);
    const behind = await (await call(items.GET, `/api/v1/runs/${runId}/explanations/items`, { cookie: cookies.admin, params })).json();
    const names = behind.items.flatMap((i: { readings: Array<{ annotator: string }> }) => i.readings.map((x) => x.annotator));
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n: string) => n.startsWith("person-"))).toBe(true);
    const res = await call(exportRoute.GET, `/api/v1/runs/${runId}/explanations/export?format=jsonl`, { cookie: cookies.admin, params });
    const text = await res.text();
    for (const id of Object.values(ids)) expect(text).not.toContain(id);
    const rows = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.filter((x) => x.source === "reviewer").map((x) => x.reader)).toEqual([names[0]]);
    const csv = await (await call(exportRoute.GET, `/api/v1/runs/${runId}/explanations/export?format=csv`, { cookie: cookies.admin, params })).text();
    expect(csv.split("\n")[0]).toBe("outcomeId,model,statisticId,context,chosen,source,reader,excluded,tags,spans,note,at");
  });
});
