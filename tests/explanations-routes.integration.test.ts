// The explanation review API (issue #67) as an attacker meets it: each route behind its permission, the reviewer
// always the signed-in account (a body naming someone else changes nothing), a queue only of one's own items and
// blind to others' readings, hostile readings refused, raw explanations only to roles that may read raw output, and
// the export naming reviewers by pseudonym only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import { publicUrl } from "../lib/core/public-url";

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
const { plantedIn } = await import("../lib/providers/explainer");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const origin = publicUrl();
function call(h: unknown, path: string, opts: { cookie?: string; method?: string; body?: unknown; params?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  return (h as Handler)(
    new Request(`${origin}${path}`, { method: opts.method ?? "GET", headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
    {
      params: Promise.resolve(opts.params ?? {}),
    },
  );
}

let runId = "";
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const config = engine.presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"] });
  runId = (await engine.createRun(db(), { models: ["baseline:explainer"], config: { ...config, cot: true }, seed: 2 })).id;
  await new engine.Worker(db(), { runId, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  for (const role of ["admin", "reviewer", "annotator", "viewer", "runner"] as const) {
    cookies[role] = await sessionCookie(role);
    ids[role] = (await db().user.findFirstOrThrow({ where: { role }, orderBy: { createdAt: "desc" } })).id;
  }
  const second = await sessionCookie("annotator");
  cookies.annotator2 = second;
  ids.annotator2 = (await db().user.findFirstOrThrow({ where: { role: "annotator" }, orderBy: { createdAt: "desc" } })).id;
}, 120_000);
afterAll(async () => {
  await db().$disconnect();
});

describe("explanation review routes", () => {
  it("deal samples only to accounts that may review explanations, and only for review managers", async () => {
    const params = { id: runId };
    expect(
      (
        await call(samples.POST, `/api/v1/runs/${runId}/explanations/samples`, {
          cookie: cookies.annotator,
          method: "POST",
          body: { name: "x", annotators: [ids.annotator] },
          params,
        })
      ).status,
    ).toBe(403);
    const refused = await call(samples.POST, `/api/v1/runs/${runId}/explanations/samples`, {
      cookie: cookies.reviewer,
      method: "POST",
      body: { name: "x", annotators: [ids.viewer] },
      params,
    });
    expect(refused.status, await refused.clone().text()).toBe(400);
    const ok = await call(samples.POST, `/api/v1/runs/${runId}/explanations/samples`, {
      cookie: cookies.reviewer,
      method: "POST",
      body: { name: "pair", annotators: [ids.annotator, ids.annotator2], halfWidth: 0.25, overlap: 2 },
      params,
    });
    expect(ok.status).toBe(201);
    const listed = await (await call(samples.GET, `/api/v1/runs/${runId}/explanations/samples?halfWidth=0.25`, { cookie: cookies.reviewer, params })).json();
    expect(listed.samples[0].reviewers.map((r: { name: string }) => r.name).sort()).toEqual([ids.annotator, ids.annotator2].sort());
    expect(listed.suggestion[0].sample).toBe(listed.samples[0].explanations);
  });

  it("read and save as the signed-in reviewer only, blind, and refuse hostile readings", async () => {
    const assignment = (await db().assignment.findFirstOrThrow({ where: { kind: "explanations" } })).id;
    expect((await call(queue.GET, `/api/v1/explanations/queue?assignmentId=${assignment}`, { cookie: cookies.viewer })).status).toBe(403);
    const page = await (await call(queue.GET, `/api/v1/explanations/queue?assignmentId=${assignment}&pageSize=50`, { cookie: cookies.annotator })).json();
    expect(page.items.length).toBeGreaterThan(0);
    const item = page.items[0];
    const tags = plantedIn(item.explanation).map((p) => ({ tag: p.error, start: p.start, end: p.end }));
    // a body naming another reviewer is not a way to write as them
    const saved = await call(readings.POST, "/api/v1/explanations/readings", {
      cookie: cookies.annotator,
      method: "POST",
      body: { outcomeId: item.outcomeId, reading: { tags } },
    });
    expect(saved.status).toBe(201);
    const spoof = await call(readings.POST, "/api/v1/explanations/readings", {
      cookie: cookies.annotator,
      method: "POST",
      body: { outcomeId: item.outcomeId, annotator: ids.annotator2, reading: { tags } },
    });
    expect(spoof.status).toBe(400);
    expect(await db().explanationReading.count({ where: { annotator: ids.annotator2 } })).toBe(0);
    // the other reviewer's queue does not show the first one's reading
    const theirs = await (await call(queue.GET, `/api/v1/explanations/queue?assignmentId=${assignment}&pageSize=50`, { cookie: cookies.annotator2 })).json();
    const same = theirs.items.find((i: { outcomeId: number }) => i.outcomeId === item.outcomeId);
    expect(same.mine).toBeNull();
    for (const bad of [
      { outcomeId: item.outcomeId, reading: { tags: [{ tag: "group", start: 0, end: 10_000_000 }] } },
      { outcomeId: item.outcomeId, reading: { tags: [{ tag: "group", start: -1, end: 3 }] } },
      { outcomeId: item.outcomeId, reading: { tags: [{ tag: "__proto__", start: 0, end: 3 }] } },
      { outcomeId: 999_999_999, reading: { tags: [] } },
      { outcomeId: item.outcomeId, reading: { tags: [], note: "x".repeat(5000) } },
    ]) {
      const r = await call(readings.POST, "/api/v1/explanations/readings", { cookie: cookies.annotator, method: "POST", body: bad });
      expect([400, 404, 413]).toContain(r.status);
    }
    // an objective answer of a plain run is not an explanation
    const other = await db()
      .outcome.findFirstOrThrow({ where: { query: { runId: { not: runId } } } })
      .catch(() => null);
    if (other)
      expect(
        (
          await call(readings.POST, "/api/v1/explanations/readings", {
            cookie: cookies.annotator,
            method: "POST",
            body: { outcomeId: other.id, reading: { tags: [] } },
          })
        ).status,
      ).toBe(404);
  });

  it("start the judge only for who may spend, and show raw explanations only to who may read raw output", async () => {
    const params = { id: runId };
    expect(
      (
        await call(judge.POST, `/api/v1/runs/${runId}/explanations/judge`, {
          cookie: cookies.viewer,
          method: "POST",
          body: { judge: "baseline:judge" },
          params,
        })
      ).status,
    ).toBe(403);
    const bad = await call(judge.POST, `/api/v1/runs/${runId}/explanations/judge`, {
      cookie: cookies.runner,
      method: "POST",
      body: { judge: "baseline:explainer" },
      params,
    });
    expect(bad.status).toBe(400);
    const started = await call(judge.POST, `/api/v1/runs/${runId}/explanations/judge`, {
      cookie: cookies.runner,
      method: "POST",
      body: { judge: "baseline:judge" },
      params,
    });
    expect(started.status).toBe(202);
    expect((await call(items.GET, `/api/v1/runs/${runId}/explanations/items`, { cookie: cookies.viewer, params })).status).toBe(403);
    expect((await call(items.GET, `/api/v1/runs/${runId}/explanations/items?tag=evil`, { cookie: cookies.reviewer, params })).status).toBe(400);
    const r = await call(results.GET, `/api/v1/runs/${runId}/explanations`, { cookie: cookies.viewer, params });
    expect(r.status).toBe(200);
    expect((await r.json()).sample.reviewed).toBe(1);
  });

  it("export readings with reviewers as pseudonyms and the judge by name", async () => {
    const res = await call(exportRoute.GET, `/api/v1/runs/${runId}/explanations/export?format=jsonl`, { cookie: cookies.reviewer, params: { id: runId } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(ids.annotator);
    const rows = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.some((r) => r.source === "reviewer" && r.reader === "R1")).toBe(true);
    const csv = await (
      await call(exportRoute.GET, `/api/v1/runs/${runId}/explanations/export?format=csv`, { cookie: cookies.reviewer, params: { id: runId } })
    ).text();
    expect(csv.split("\n")[0]).toBe("outcomeId,model,statisticId,context,chosen,source,reader,excluded,tags,spans,note,at");
  });
});
