// Route handlers answer clearly: an unknown run is 404 on every run route, a bad enum value 400 (never silently
// defaulted), interval options limited to a few values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-routes-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, Worker } = await import("./helpers/services");
const summary = await import("../app/api/runs/[id]/route");
const queries = await import("../app/api/runs/[id]/queries/route");
const images = await import("../app/api/runs/[id]/images/route");
const intervals = await import("../app/api/runs/[id]/intervals/route");
const exportRoute = await import("../app/api/runs/[id]/export/route");
const scores = await import("../app/api/results/scores/route");
const { sessionCookie } = await import("./helpers/session");

let runId = "";
let cookie = "";
type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
const call = (handler: Handler, id: string, query = "", as = cookie) =>
  handler(new Request(`http://127.0.0.1/api/runs/${id}${query}`, { headers: as ? { cookie: as } : {} }), { params: Promise.resolve({ id }) });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const run = await createRun(db(), { models: ["baseline:uniform"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 1 });
  runId = run.id;
  await new Worker(db(), { runId, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  cookie = await sessionCookie("admin");
});
afterAll(async () => {
  await db().$disconnect();
});

describe("run routes", () => {
  it("answer 404 for an unknown run on every route", async () => {
    for (const h of [summary.GET, queries.GET, images.GET, intervals.GET, exportRoute.GET]) {
      const res = await call(h, "nope");
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatch(/run not found/);
    }
    const r = await scores.GET(new Request(`http://127.0.0.1/api/results/scores?runs=nope`, { headers: { cookie } }), { params: Promise.resolve({}) });
    expect(r.status).toBe(404);
  });

  it("refuses a scores export mixing suites (their scores are not comparable)", async () => {
    const other = await createRun(db(), {
      suite: "dofair",
      models: ["baseline:synthetic-faces"],
      config: { dimensions: ["race"], methods: ["baseline"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 1 },
      preset: "custom",
      seed: 1,
    });
    const r = await scores.GET(new Request(`http://127.0.0.1/api/results/scores?runs=${runId},${other.id}`, { headers: { cookie } }), {
      params: Promise.resolve({}),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toMatch(/runs of one suite at a time/);
  });

  it("answer 400 for bad enum values and unknown parameters instead of defaulting", async () => {
    for (const [h, q] of [
      [summary.GET, "?labels=everything"],
      [summary.GET, "?raceMapping=mine"],
      [queries.GET, "?status=weird"],
      [queries.GET, "?pageSize=100000"],
      [queries.GET, `?group=${"x".repeat(200)}`],
      [queries.GET, `?reason=${"r".repeat(2000)}`],
      [queries.GET, "?itemsPage=2"],
      [queries.GET, "?page=2"], // pages are by cursor (after / before), never by offset
      [queries.GET, "?after=-1"],
      [images.GET, "?labelStatus=x"],
      [images.GET, "?page=2"], // images page by cursor too
      [images.GET, "?after=../x"],
      [images.GET, "?after=a&before=b"],
      [exportRoute.GET, "?format=xml"],
      [intervals.GET, "?level=0.5"],
      [intervals.GET, "?resamples=1000000"],
      [intervals.GET, "?profile=mine"],
      [summary.GET, "?profile=mine"],
      [exportRoute.GET, "?format=json&profile=mine"],
      [queries.GET, "?sneaky=1"],
    ] as const) {
      const res = await call(h, runId, q);
      expect(res.status, q).toBe(400);
    }
    expect((await call(queries.GET, runId, "?status=answered&pageSize=5")).status).toBe(200);
    expect((await call(intervals.GET, runId, "?level=0.9")).status).toBe(200);
    // the profile is accepted and reported back
    const json = await call(exportRoute.GET, runId, "?format=json&profile=paper-text");
    expect(json.status).toBe(200);
    expect((await json.json()).profile).toBe("paper-text");
    expect((await (await call(intervals.GET, runId, "?profile=paper-text")).json()).profile).toBe("paper-text");
  });

  it("refuse anonymous callers (401) and roles without the permission (403), and serve those with it", async () => {
    const anonymous = await call(summary.GET, runId, "", "");
    expect(anonymous.status).toBe(401);
    const annotator = await sessionCookie("annotator");
    const viewer = await sessionCookie("viewer");
    expect((await call(summary.GET, runId, "", annotator)).status).toBe(403);
    expect((await call(summary.GET, runId, "", viewer)).status).toBe(200);
    // Raw answers and exports are not for viewers or annotators; reviewers may.
    expect((await call(queries.GET, runId, "", viewer)).status).toBe(403);
    expect((await call(exportRoute.GET, runId, "", annotator)).status).toBe(403);
    expect((await (await call(exportRoute.GET, runId, "", viewer)).json()).error).toMatch(/your role \(viewer\) may not read or export raw data/);
    // One rule for downloads: scores (CSV, JSON) are results a viewer may read, as on the Results page; raw lines are not.
    expect((await call(exportRoute.GET, runId, "?format=csv", viewer)).status).toBe(200);
    expect((await call(exportRoute.GET, runId, "?format=json", viewer)).status).toBe(200);
    expect((await call(exportRoute.GET, runId, "?format=jsonl", viewer)).status).toBe(403);
    expect((await call(queries.GET, runId, "", await sessionCookie("reviewer"))).status).toBe(200);
  });
});

describe("item pages", () => {
  it("page by cursor, forwards and back, every item once, at any depth", async () => {
    type Page = { total: number; next: number | null; prev: number | null; rows: Array<{ id: number }> };
    const get = async (q: string) => (await (await call(queries.GET, runId, `/queries?pageSize=10${q}`)).json()) as Page;
    const forward: number[] = [];
    let page = await get("");
    expect(page.prev).toBeNull();
    for (;;) {
      forward.push(...page.rows.map((r) => r.id));
      if (page.next === null) break;
      page = await get(`&after=${page.next}`);
    }
    expect(page.total).toBe(76);
    expect(forward).toHaveLength(76);
    expect([...forward].sort((a, b) => a - b)).toEqual(forward);
    // Back from the last page: the same items, page by page.
    const back: number[] = [...page.rows.map((r) => r.id)];
    while (page.prev !== null) {
      page = await get(`&before=${page.prev}`);
      expect(page.rows.length).toBe(10);
      back.unshift(...page.rows.map((r) => r.id));
    }
    expect(back).toEqual(forward);
  });
});

describe("health and request ids", () => {
  it("/api/health needs no session, says what it checked, and carries a request id", async () => {
    const health = await import("../app/api/health/route");
    // A worker that finished above left no live heartbeat: the database is fine, runs would wait.
    const res = await health.GET(new Request("http://127.0.0.1/api/health"));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "degraded", database: { reachable: true }, migrations: { current: true, pending: 0 }, workers: { alive: 0 } });
    expect(["sqlite", "postgresql"]).toContain(body.database.provider);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // A live worker's heartbeat makes it ok; a proxy's request id is kept.
    await db().workerStatus.create({ data: { owner: "h:1:x", host: "h", pid: 1 } });
    const ok = await health.GET(new Request("http://127.0.0.1/api/health", { headers: { "x-request-id": "proxy-req-12345" } }));
    expect((await ok.json()).status).toBe("ok");
    expect(ok.headers.get("x-request-id")).toBe("proxy-req-12345");
    await db().workerStatus.delete({ where: { owner: "h:1:x" } });
  });

  it("every API answer carries a request id, errors included", async () => {
    const res = await call(summary.GET, "nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("audit of reads", () => {
  it("records raw-output reads once per stretch of paging, and every scores export", async () => {
    // A reviewer who has not read this run yet: three pages, one row naming them.
    const reviewer = await sessionCookie("reviewer");
    const before = await db().auditLog.count({ where: { action: "data.read", targetId: runId } });
    for (const after of [0, 10, 20]) expect((await call(queries.GET as Handler, runId, `/queries?pageSize=10&after=${after}`, reviewer)).status).toBe(200);
    expect((await db().auditLog.count({ where: { action: "data.read", targetId: runId } })) - before).toBe(1);
    const res = await scores.GET(new Request(`http://127.0.0.1/api/results/scores?runs=${runId}&format=csv`, { headers: { cookie } }), {
      params: Promise.resolve({}),
    } as never);
    expect(res.status).toBe(200);
    const row = await db().auditLog.findFirst({ where: { action: "export", targetType: "scores" }, orderBy: { id: "desc" } });
    expect(row?.targetId).toBe(runId);
    expect(JSON.parse(row!.detailsJson)).toMatchObject({ runs: 1, format: "csv" });
  });

  it("the CLIP readings route and the model files: guarded, same-origin only, bounded, validated", async () => {
    const readings = await import("../app/api/label/readings/route");
    const models = await import("../app/api/face-models/[kind]/route");
    const post = (body: string, headers: Record<string, string>) =>
      readings.POST(new Request("http://127.0.0.1/api/label/readings", { method: "POST", body, headers: { "content-type": "application/json", ...headers } }), {
        params: Promise.resolve({}),
      });
    const ok = { "sec-fetch-site": "same-origin", cookie };
    expect((await post("{}", { "sec-fetch-site": "same-origin" })).status).toBe(401);
    expect((await post("{}", { ...ok, cookie: await sessionCookie("viewer") })).status).toBe(403);
    expect((await post("{}", { ...ok, "sec-fetch-site": "cross-site" })).status).toBe(403);
    const bad = await post(JSON.stringify({ lease: "x", results: [] }), ok);
    expect(bad.status).toBe(400);
    expect((await post("x".repeat(600 * 1024), ok)).status).toBe(413);
    // A lease nobody holds: nothing stored, the image reported as refused.
    const held = await post(
      JSON.stringify({
        lease: "a".repeat(32),
        model: { model: "x", sha256: "1".repeat(64) },
        texts: { sha256: "2".repeat(64), weightsSha256: "3".repeat(64) },
        runtime: "node-cpu",
        results: [{ imageId: "img-nope", groups: { person: [0.5, 0.5] } }],
      }),
      ok,
    );
    expect(await held.json()).toEqual({ saved: 0, refused: ["img-nope"] });
    const get = (kind: string) =>
      models.GET(new Request(`http://127.0.0.1/api/face-models/${kind}`, { headers: { cookie } }), { params: Promise.resolve({ kind }) });
    expect((await get("../../etc/passwd")).status).toBe(404);
    const clip = await get("clipVision");
    expect(clip.status).toBe(404);
    expect((await clip.json()).error).toMatch(/CLIP is not installed on this server/);
  });
});
