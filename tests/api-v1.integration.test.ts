// Personal access tokens and /api/v1: a token from `fof token create` reads runs and launches one; a viewer's token is
// refused a launch (403), no token and a revoked or expired one are 401; a token never manages accounts; the OpenAPI
// document lists every route file under app/api/v1 and nothing else.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-api-v1-");
process.env.FOF_DATA_DIR = dataDir;
const exec = promisify(execFile);
const fof = (args: string[]) => exec("npm", ["run", "--silent", "fof", "--", ...args], { env: { ...process.env, FOF_DATA_DIR: dataDir } });

const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken, tokenPage, allTokens, revokeToken } = await import("../lib/auth/tokens");
const { authorize } = await import("../lib/auth/guard");
const { plansSettled } = await import("../lib/features/runs/planning");
const { openApiDocument, API_ROUTES } = await import("../lib/server/api/openapi");
const runs = await import("../app/api/v1/runs/route");
const run = await import("../app/api/v1/runs/[id]/route");
const scores = await import("../app/api/v1/runs/[id]/scores/route");
const cancel = await import("../app/api/v1/runs/[id]/cancel/route");
const models = await import("../app/api/v1/models/route");
const suites = await import("../app/api/v1/suites/route");
const openapi = await import("../app/api/v1/openapi.json/route");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const BASE = "http://127.0.0.1:3000";
function call(handler: Handler, url: string, opts: { token?: string; body?: unknown; params?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  return handler(
    new Request(`${BASE}${url}`, {
      method: opts.body === undefined ? "GET" : "POST",
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    }),
    { params: Promise.resolve(opts.params ?? {}) },
  );
}
const LAUNCH = { suite: "fact-or-fair", models: ["baseline:uniform"], preset: "smoke", config: { tests: ["objective"] }, seed: 3 };

let runnerToken = "";
let viewerToken = "";
let runnerId = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const runner = await createUser(db(), { email: "ci@example.org", name: "CI", password: "test-password-123", role: "runner" });
  runnerId = runner.id;
  const viewer = await createUser(db(), { email: "watcher@example.org", name: "Watcher", password: "test-password-123", role: "viewer" });
  const { stdout, stderr } = await fof(["token", "create", "--email", "ci@example.org", "--name", "release-ci", "--expires-days", "30"]);
  runnerToken = stdout.trim().split("\n").at(-1)!;
  expect(stderr).toMatch(/shown once/);
  viewerToken = (await createToken(db(), viewer.id, { name: "dashboards" })).secret;
});
afterAll(async () => {
  await db().$disconnect();
});

describe("personal access tokens", () => {
  it("are printed alone on the last line, stored only as a hash, listed with their state", async () => {
    expect(runnerToken).toMatch(/^fof_[A-Za-z0-9_-]{43}$/);
    const rows = await db().apiToken.findMany({ where: { userId: runnerId } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(runnerToken);
    const { stdout } = await fof(["token", "list", "--email", "ci@example.org"]);
    expect(stdout).toMatch(/^release-ci\tfof_\S+…\trunner\tlive\texpires \d{4}-\d\d-\d\d/);
  });

  it("read runs and launch one through /api/v1; a viewer's token may read but not launch", async () => {
    const launched = await call(runs.POST as Handler, "/api/v1/runs", { token: runnerToken, body: LAUNCH });
    // Answered at once, the run in "planning" with its size; its queries are written in the background.
    expect(launched.status).toBe(202);
    const { run: created } = await launched.json();
    expect(created).toMatchObject({ suite: "fact-or-fair", status: "planning", plannedCount: 76, models: ["baseline:uniform"] });
    await plansSettled();
    expect(await db().run.findUniqueOrThrow({ where: { id: created.id }, select: { status: true } })).toEqual({ status: "running" });
    expect(await db().query.count({ where: { runId: created.id } })).toBe(76);
    const launch = await db().auditLog.findFirst({ where: { action: "run.launch", targetId: created.id } });
    expect(JSON.parse(launch!.detailsJson ?? "{}")).toMatchObject({ token: "release-ci" });

    const list = await call(runs.GET as Handler, "/api/v1/runs?suite=fact-or-fair", { token: viewerToken });
    expect(list.status).toBe(200);
    expect((await list.json()).runs.map((r: { id: string }) => r.id)).toContain(created.id);
    // Paged by key: following `next` one run at a time walks the whole list newest first, no run twice, none missed.
    for (let i = 0; i < 3; i++) await call(runs.POST as Handler, "/api/v1/runs", { token: runnerToken, body: LAUNCH });
    await plansSettled();
    const all = (await (await call(runs.GET as Handler, "/api/v1/runs?limit=100", { token: viewerToken })).json()) as {
      runs: Array<{ id: string }>;
      next: string | null;
    };
    expect(all.runs.length).toBeGreaterThanOrEqual(4);
    expect(all.next).toBeNull();
    const walked: string[] = [];
    let before: string | null = null;
    do {
      const page = (await (await call(runs.GET as Handler, `/api/v1/runs?limit=1${before ? `&before=${before}` : ""}`, { token: viewerToken })).json()) as {
        runs: Array<{ id: string }>;
        next: string | null;
      };
      walked.push(...page.runs.map((r) => r.id));
      before = page.next;
    } while (before && walked.length <= all.runs.length);
    expect(walked).toEqual(all.runs.map((r) => r.id));
    const unknown = await call(runs.GET as Handler, "/api/v1/runs?before=no-such-run", { token: viewerToken });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatch(/before: no run "no-such-run"/);
    const one = await call(run.GET as Handler, `/api/v1/runs/${created.id}`, { token: viewerToken, params: { id: created.id } });
    expect((await one.json()).id).toBe(created.id);
    const s = await call(scores.GET as Handler, `/api/v1/runs/${created.id}/scores`, { token: viewerToken, params: { id: created.id } });
    expect(s.status).toBe(200);

    const refused = await call(runs.POST as Handler, "/api/v1/runs", { token: viewerToken, body: LAUNCH });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "forbidden", error: expect.stringMatching(/viewer\) may not launch/) });

    // The owner steers it with the same token; another account's token may not.
    const stopped = await call(cancel.POST as Handler, `/api/v1/runs/${created.id}/cancel`, { token: runnerToken, body: {}, params: { id: created.id } });
    expect(stopped.status).toBe(200);
    expect((await stopped.json()).run.status).toBe("cancelled");
  });

  it("refuse what is not theirs to decide: a bad launch names the field, unknown presets list the choices", async () => {
    const bad = await call(runs.POST as Handler, "/api/v1/runs", { token: runnerToken, body: { ...LAUNCH, preset: "huge" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/no preset "huge": one of .*smoke/);
    const extra = await call(runs.POST as Handler, "/api/v1/runs", { token: runnerToken, body: { ...LAUNCH, owner: "someone-else" } });
    expect(extra.status).toBe(400);
    // Adaptive targets are read at the boundary: one it cannot read names the field, and nothing is created.
    const before = await db().run.count();
    const until = await call(runs.POST as Handler, "/api/v1/runs", { token: runnerToken, body: { ...LAUNCH, until: "halfwidth<0.05" } });
    expect(until.status).toBe(400);
    expect(JSON.stringify(await until.json())).toContain('cannot read \\"halfwidth<0.05\\"');
    const decided = await call(runs.POST as Handler, "/api/v1/runs", {
      token: runnerToken,
      body: { ...LAUNCH, config: { tests: ["subjective"], contexts: ["baseline"] }, until: { kind: "decided", metrics: ["sFact"] } },
    });
    expect(decided.status).toBe(400);
    expect((await decided.json()).error).toMatch(/at least two models/);
    const objective = await call(runs.POST as Handler, "/api/v1/runs", { token: runnerToken, body: { ...LAUNCH, until: "halfwidth<=0.05" } });
    expect((await objective.json()).error).toMatch(/include the subjective test/);
    expect(await db().run.count()).toBe(before);
  });

  it("launch an adaptive run: the target travels with the run, and its verdict comes back with it", async () => {
    const launched = await call(runs.POST as Handler, "/api/v1/runs", {
      token: runnerToken,
      body: { ...LAUNCH, config: { tests: ["subjective"], contexts: ["baseline"] }, until: "halfwidth<=0.45" },
    });
    expect(launched.status).toBe(202);
    const { run: created } = await launched.json();
    expect(created.adaptive).toMatchObject({ until: "halfwidth<=0.45", outcome: null });
    await plansSettled();
    const row = await db().run.findUniqueOrThrow({ where: { id: created.id }, select: { wavesReleased: true, adaptiveJson: true } });
    expect(row.wavesReleased).toBe(1);
    expect(JSON.parse(row.adaptiveJson!)).toMatchObject({ target: { kind: "halfwidth", halfwidth: { sE: 0.45 } }, intervalTarget: "population" });
    await call(cancel.POST as Handler, `/api/v1/runs/${created.id}/cancel`, { token: runnerToken, body: {}, params: { id: created.id } });
  });

  it("an adaptive paper-preset launch through the API ends with its target met on a quarter of its items, and GET says so", async () => {
    // Issue #36's done-when, through the API (the browser's is e2e/runs.spec.ts, the CLI's bench:adaptive): the
    // paper preset's baseline context is the cap (19 × 2 × 3 × 100 subjective + 228 objective = 11,628 items).
    const { registerLooks } = await import("../lib/features/results/adaptive-looks");
    const { Worker } = await import("./helpers/services");
    registerLooks();
    const launched = await call(runs.POST as Handler, "/api/v1/runs", {
      token: runnerToken,
      body: {
        suite: "fact-or-fair",
        models: ["baseline:calibrated:0.8"],
        preset: "paper",
        config: { contexts: ["baseline"] },
        seed: 11,
        until: "halfwidth<=0.05",
      },
    });
    expect(launched.status).toBe(202);
    const { run: created } = await launched.json();
    await plansSettled();
    await new Worker(db(), { runId: created.id, pollMs: 5, flushMs: 10, runCheckMs: 10 }).run({ untilDone: true });
    const got = await call(run.GET as Handler, `/api/v1/runs/${created.id}`, { token: runnerToken, params: { id: created.id } });
    expect(got.status).toBe(200);
    const body = (await got.json()) as {
      status: string;
      adaptive: { outcome: { kind: string; items: number; planned: number }; summary: string; looks: Array<{ rows: Array<{ lo: number; hi: number }> }> };
    };
    expect(body.status).toBe("completed");
    expect(body.adaptive.outcome).toMatchObject({ kind: "met", planned: 11_628 });
    expect(body.adaptive.outcome.items).toBeLessThanOrEqual(11_628 / 4);
    expect(body.adaptive.summary).toMatch(/^target met at [\d,]+ of 11,628 items: halfwidth<=0\.05/);
    // Every interval the stopping look reported is within ±0.05.
    const last = body.adaptive.looks.at(-1)!;
    expect(last.rows.length).toBeGreaterThan(0);
    for (const r of last.rows) expect((r.hi - r.lo) / 2).toBeLessThanOrEqual(0.05 + 1e-12);
  }, 240_000);

  it("lists models a page at a time by key, archived apart, or one by its slug", async () => {
    const all = await db().modelConfig.findMany({ where: { archived: false }, orderBy: { slug: "asc" }, select: { slug: true } });
    expect(all.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const res = await call(models.GET as Handler, `/api/v1/models?limit=2${after ? `&after=${encodeURIComponent(after)}` : ""}`, { token: runnerToken });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { models: Array<{ slug: string; archived: boolean }>; next: string | null };
      expect(page.models.length).toBeLessThanOrEqual(2);
      expect(page.models.every((m) => !m.archived)).toBe(true);
      seen.push(...page.models.map((m) => m.slug));
      after = page.next;
    } while (after);
    expect(seen).toEqual(all.map((m) => m.slug));
    const one = (await (await call(models.GET as Handler, `/api/v1/models?slug=${encodeURIComponent(all[1]!.slug)}`, { token: runnerToken })).json()) as {
      models: Array<{ slug: string }>;
    };
    expect(one.models.map((m) => m.slug)).toEqual([all[1]!.slug]);
    expect((await call(models.GET as Handler, "/api/v1/models?limit=0", { token: runnerToken })).status).toBe(400);
    expect((await call(models.GET as Handler, "/api/v1/models?page=2", { token: runnerToken })).status).toBe(400);
  });

  it("no token, a malformed one, a revoked one and an expired one are 401", async () => {
    expect((await call(runs.GET as Handler, "/api/v1/runs")).status).toBe(401);
    expect((await call(runs.GET as Handler, "/api/v1/runs", { token: "fof_not-a-real-token" })).status).toBe(401);
    const { secret } = await createToken(db(), runnerId, { name: "short-lived" });
    expect((await call(models.GET as Handler, "/api/v1/models", { token: secret })).status).toBe(200);
    await revokeToken(db(), runnerId, { name: "short-lived" });
    const revoked = await call(models.GET as Handler, "/api/v1/models", { token: secret });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).code).toBe("unauthenticated");
    const old = await createToken(db(), runnerId, { name: "expired" });
    await db().apiToken.update({ where: { id: old.token.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(models.GET as Handler, "/api/v1/models", { token: old.secret })).status).toBe(401);
    const names: string[] = [];
    for await (const t of allTokens(db(), runnerId)) names.push(t.name);
    expect(names).toEqual(expect.arrayContaining(["release-ci", "short-lived", "expired"]));
    // Newest first, a page by key: two pages of one walk the same tokens as the whole list.
    const first = await tokenPage(db(), runnerId, { pageSize: 2 });
    expect(first.rows.map((t) => t.name)).toEqual(names.slice(0, 2));
    const second = await tokenPage(db(), runnerId, { pageSize: 2, before: first.older! });
    expect(second.rows.map((t) => t.name)).toEqual(names.slice(2, 4));
    expect(names[0]).toBe("expired");
  });

  it("carry a lower role when asked, never a higher one, never manage accounts; each use is audited once a day", async () => {
    await expect(createToken(db(), runnerId, { name: "too-much", role: "admin" })).rejects.toMatchObject({ status: 403 });
    const limited = await createToken(db(), runnerId, { name: "read-only", role: "viewer" });
    const r = await call(runs.POST as Handler, "/api/v1/runs", { token: limited.secret, body: LAUNCH });
    expect(r.status).toBe(403);
    expect((await r.json()).error).toMatch(/limited to viewer/);
    const viewer = {
      id: runnerId,
      email: "ci@example.org",
      name: "CI",
      role: "admin" as const,
      accountRole: "admin" as const,
      spendingLimitUsd: null,
      token: { id: "t", name: "x", role: null },
    };
    expect(() => authorize(viewer, "users.manage")).toThrow(/never manages accounts or tokens/);
    await call(models.GET as Handler, "/api/v1/models", { token: limited.secret });
    await call(models.GET as Handler, "/api/v1/models", { token: limited.secret });
    expect(await db().auditLog.count({ where: { action: "token.use", targetId: limited.token.id } })).toBe(1);
    expect(await db().auditLog.count({ where: { action: "token.create", targetId: limited.token.id } })).toBe(1);
  });

  it("are revoked from the CLI by name", async () => {
    await fof(["token", "revoke", "--email", "ci@example.org", "--name", "release-ci"]);
    expect((await call(runs.GET as Handler, "/api/v1/runs", { token: runnerToken })).status).toBe(401);
    expect(await db().auditLog.count({ where: { action: "token.revoke" } })).toBeGreaterThanOrEqual(2);
  });
});

describe("/api/v1 document", () => {
  it("is OpenAPI 3.1, served publicly, and lists the suites' launch forms route", async () => {
    const res = await call(openapi.GET as Handler, "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const launch = doc.paths["/api/v1/runs"].post.requestBody.content["application/json"].schema;
    expect(launch.required).toEqual(expect.arrayContaining(["models", "preset"]));
    // the suite may be left to the content version it runs (a team's content set)
    expect(launch.properties.suite.description).toMatch(/omitted: the suite that runs contentVersion/);
    expect(doc.paths["/api/v1/runs/{id}"].get.parameters.map((p: { name: string }) => p.name)).toEqual(["id", "raceMapping", "labels", "profile"]);
    const listed = await call(suites.GET as Handler, "/api/v1/suites", { token: viewerToken });
    expect((await listed.json()).suites.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(["fact-or-fair", "dofair", "faintbench"]));
  });

  it("lists every route file under app/api/v1 with each method it exports, and nothing else", () => {
    const found: string[] = [];
    const root = path.join(process.cwd(), "app", "api", "v1");
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = path.join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (f === "route.ts") {
          const route =
            "/api/v1/" +
            path
              .relative(root, dir)
              .split(path.sep)
              .join("/")
              .replace(/\[(\w+)\]/g, "{$1}");
          const text = readFileSync(p, "utf8");
          for (const m of ["GET", "POST", "PUT", "PATCH", "DELETE"])
            if (new RegExp(`export (const|function|async function) ${m}\\b|export \\{[^}]*\\b${m}\\b`).test(text)) found.push(`${m.toLowerCase()} ${route}`);
        }
      }
    };
    walk(root);
    const documented = Object.entries(openApiDocument().paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(found.sort()).toEqual(documented.sort());
    expect(API_ROUTES.length).toBe(documented.length);
  });
});
