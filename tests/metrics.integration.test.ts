// GET /metrics: Prometheus text to an admin's token or a metrics-only one (a scraper's), 401 without a token, 403 to a
// role that may not read it; after a run its values agree with the database's rows (runs, outcomes, spend per model
// and account) and with the calls this process made (the provider histogram counts each call once); request
// latencies are labelled by route template, never by id; the separate listener (FOF_METRICS_LISTEN) asks the same.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-metrics-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { createRun, presetConfig, Worker } = await import("./helpers/services");
const { instruments, routeTemplate } = await import("../lib/core/metrics");
const { startMetricsListener } = await import("../lib/server/metrics-listener");
const metrics = await import("../app/metrics/route");
const runsApi = await import("../app/api/v1/runs/route");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const get = (handler: Handler, url: string, token?: string) =>
  handler(new Request(`http://127.0.0.1:3000${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { params: Promise.resolve({}) });

/** The value of one series of the text format, e.g. value(text, 'fof_runs{status="completed"}'). */
function value(text: string, series: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

let adminToken = "";
let scraperToken = "";
let viewerToken = "";
let runnerId = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const admin = await createUser(db(), { email: "ops@example.org", name: "Ops", password: "test-password-123", role: "admin" });
  const runner = await createUser(db(), { email: "runner@example.org", name: "Runner", password: "test-password-123", role: "runner" });
  const viewer = await createUser(db(), { email: "viewer@example.org", name: "Viewer", password: "test-password-123", role: "viewer" });
  runnerId = runner.id;
  adminToken = (await createToken(db(), admin.id, { name: "admin" })).secret;
  scraperToken = (await createToken(db(), admin.id, { name: "prometheus", role: "metrics" })).secret;
  viewerToken = (await createToken(db(), viewer.id, { name: "dashboards" })).secret;
});
afterAll(async () => {
  await db().$disconnect();
});

describe("GET /metrics", () => {
  it("answers a scraper's token and an admin's, refuses anonymous (401) and other roles (403)", async () => {
    expect((await get(metrics.GET as Handler, "/metrics")).status).toBe(401);
    expect((await get(metrics.GET as Handler, "/metrics", viewerToken)).status).toBe(403);
    const res = await get(metrics.GET as Handler, "/metrics", scraperToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# HELP fof_runs Runs by status$/m);
    expect(text).toMatch(/^fof_nodejs_eventloop_lag_p99_seconds /m);
    expect((await get(metrics.GET as Handler, "/metrics", adminToken)).status).toBe(200);
    // A metrics token reads metrics and nothing else.
    expect((await get(runsApi.GET as Handler, "/api/v1/runs", scraperToken)).status).toBe(403);
  });

  it("agrees with the database after a run: runs, outcomes and spend per model and account, each call counted once", async () => {
    const run = await createRun(db(), {
      models: ["baseline:uniform", "baseline:calibrated:0.8"],
      config: presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"] }),
      seed: 41,
      createdById: runnerId,
    });
    await new Worker(db(), { runId: run.id, pollMs: 5, flushMs: 10, runCheckMs: 10 }).run({ untilDone: true });
    // The database snapshot is shared for a few seconds: wait it out so this scrape reads after the run.
    await new Promise((r) => setTimeout(r, 5_100));
    const text = await (await get(metrics.GET as Handler, "/metrics", scraperToken)).text();
    for (const status of ["completed", "running", "failed"]) {
      const n = await db().run.count({ where: { status } });
      expect(value(text, `fof_runs{status="${status}"}`) ?? 0, status).toBe(n);
    }
    for (const model of ["baseline:uniform", "baseline:calibrated:0.8"]) {
      const outcomes = await db().outcome.findMany({
        where: { query: { modelConfig: { slug: model } } },
        select: { status: true, cached: true, costUsd: true },
      });
      expect(outcomes.length).toBeGreaterThan(0);
      for (const status of new Set(outcomes.map((o) => o.status)))
        expect(value(text, `fof_outcomes{model="${model}",outcome="${status}"}`), `${model} ${status}`).toBe(
          outcomes.filter((o) => o.status === status).length,
        );
      const calls = outcomes.filter((o) => !o.cached).length;
      expect(value(text, `fof_provider_call_duration_seconds_count{model="${model}",result="ok"}`), model).toBe(calls);
      expect(value(text, `fof_spend_usd{model="${model}"}`)).toBeCloseTo(
        outcomes.reduce((a, o) => a + (o.costUsd ?? 0), 0),
        9,
      );
    }
    const spent = await db().run.aggregate({ where: { createdById: runnerId }, _sum: { spentUsd: true } });
    expect(value(text, `fof_spend_usd_by_account{account="${runnerId}"}`)).toBeCloseTo(spent._sum.spentUsd ?? 0, 9);
    expect(value(text, `fof_queries_open{status="pending"}`)).toBe(await db().query.count({ where: { status: "pending" } }));
  }, 60_000);

  it("labels request latencies by route template, never by id", async () => {
    expect(routeTemplate("/api/runs/cmi2x1abcdefghijklmnopqrs/queries")).toBe("/api/runs/:id/queries");
    expect(routeTemplate("/api/runs/123/images")).toBe("/api/runs/:id/images");
    expect(routeTemplate("/api/v1/runs")).toBe("/api/v1/runs");
    await get(runsApi.GET as Handler, "/api/v1/runs", adminToken);
    const text = await (await get(metrics.GET as Handler, "/metrics", adminToken)).text();
    expect(text).toMatch(/^fof_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/runs",status="200"\} \d+$/m);
    expect(text).toMatch(/fof_http_request_duration_seconds_count\{method="GET",route="\/metrics",status="401"\} \d+/);
  });

  it("keeps its series whatever paths clients send: 10,000 unknown run ids, anonymous and with a token", async () => {
    const runRoute = (await import("../app/api/v1/runs/[id]/route")) as { GET: Handler };
    const series = () => (instruments().http as unknown as { hashMap: Record<string, unknown> }).hashMap;
    const count = () => Object.keys(series()).length;
    // One of each answer first (401 anonymous, 404 with a token), so every series these requests can make exists.
    const ask = (id: string, token?: string) =>
      runRoute.GET(new Request(`http://127.0.0.1:3000/api/v1/runs/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), {
        params: Promise.resolve({ id }),
      });
    expect((await ask("warm-up")).status).toBe(401);
    expect((await ask("warm-up", viewerToken)).status).toBe(404);
    const before = count();
    for (let i = 0; i < 5_000; i++) {
      const id = `${Math.random().toString(36).slice(2)}-${i}`;
      expect((await ask(id)).status).toBe(401);
      expect((await ask(id, viewerToken)).status).toBe(404);
    }
    expect(count()).toBe(before);
    expect(Object.keys(series()).every((k) => !/warm-up|\d-\d/.test(k))).toBe(true);
  }, 120_000);

  it("ships a Grafana dashboard whose every query names a metric this server exports", async () => {
    // Grafana itself is not obtainable here (neither Debian nor npm carries it): its import is untested; what can
    // drift — the metric names, panel ids, the datasource variable — is checked against the live scrape.
    const text = await (await get(metrics.GET as Handler, "/metrics", scraperToken)).text();
    const dashboard = JSON.parse(readFileSync(path.resolve(__dirname, "../deploy/grafana/fof-dashboard.json"), "utf8")) as {
      uid: string;
      title: string;
      schemaVersion: number;
      templating: { list: Array<{ name: string; type: string; query: string }> };
      panels: Array<{
        id: number;
        title: string;
        gridPos: Record<string, number>;
        datasource: { uid: string };
        targets: Array<{ refId: string; expr: string }>;
      }>;
    };
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: "datasource", type: "datasource", query: "prometheus" }));
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    const names = new Set<string>();
    for (const panel of dashboard.panels) {
      expect(panel.datasource.uid, panel.title).toBe("${datasource}");
      expect(Object.keys(panel.gridPos).sort()).toEqual(["h", "w", "x", "y"]);
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const t of panel.targets) for (const m of t.expr.match(/\bfof_[a-z0-9_]+/g) ?? []) names.add(m.replace(/_(bucket|sum|count)$/, ""));
    }
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
  });

  it("answers on its own address with the same token check (FOF_METRICS_LISTEN)", async () => {
    const server = startMetricsListener("127.0.0.1:0");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as { port: number };
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      const ok = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${scraperToken}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/^fof_runs\{/m);
      expect((await fetch(`http://127.0.0.1:${port}/other`, { headers: { authorization: `Bearer ${scraperToken}` } })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
