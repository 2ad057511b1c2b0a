// The HTTP API of content sets behind the one boundary: a runner's token imports (a dry run shows the diff first; a bad
// file answers 400 naming file, row and field and stores nothing), a viewer reads but may not import, only an admin
// approves or retires, and a launch on the set through POST /api/v1/runs is refused until it is approved.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-content-api-");
const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const sets = await import("../app/api/v1/content-sets/route");
const one = await import("../app/api/v1/content-sets/[ref]/route");
const approve = await import("../app/api/v1/content-sets/[ref]/approve/route");
const retire = await import("../app/api/v1/content-sets/[ref]/retire/route");
const runs = await import("../app/api/v1/runs/route");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
function call(handler: Handler, url: string, token: string, opts: { body?: unknown; params?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  return handler(
    new Request(`http://127.0.0.1:3000${url}`, {
      method: opts.body === undefined ? "GET" : "POST",
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    }),
    { params: Promise.resolve(opts.params ?? {}) },
  );
}

const DIR = path.join(__dirname, "fixtures/content/de-synthetic");
const FILES = Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(DIR, f), "utf8")]));
const REF = "de-synthetic@1.0.0";
const tokens = { admin: "", runner: "", viewer: "" };

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  for (const role of ["admin", "runner", "viewer"] as const) {
    const u = await createUser(db(), { email: `${role}@example.org`, name: role, password: "test-password-123", role });
    tokens[role] = (await createToken(db(), u.id, { name: `${role}-token` })).secret;
  }
});

describe("/api/v1/content-sets", () => {
  it("refuses a bad file with every problem by file, row and field, and stores nothing", async () => {
    const bad = { ...FILES, "statistics.csv": FILES["statistics.csv"].replace("https://example.org/b", "not-a-url") };
    const res = await call(sets.POST as Handler, "/api/v1/content-sets", tokens.runner, { body: { files: bad } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("invalid");
    expect(body.problems).toEqual([expect.objectContaining({ name: expect.stringMatching(/^statistics\.csv:\d+ source_url$/) })]);
    expect(await db().contentSetVersion.count()).toBe(0);
    const unknown = await call(sets.POST as Handler, "/api/v1/content-sets", tokens.runner, { body: { files: { ...FILES, "evil.js": "x" } } });
    expect(unknown.status).toBe(400);
  });

  it("imports as a runner, not as a viewer; a dry run stores nothing", async () => {
    expect((await call(sets.POST as Handler, "/api/v1/content-sets", tokens.viewer, { body: { files: FILES } })).status).toBe(403);
    const dry = await call(sets.POST as Handler, "/api/v1/content-sets", tokens.runner, { body: { files: FILES, dryRun: true } });
    expect(await dry.json()).toMatchObject({ version: null, created: false, diff: null, against: null });
    const res = await call(sets.POST as Handler, "/api/v1/content-sets", tokens.runner, { body: { files: FILES } });
    expect(res.status).toBe(200);
    expect((await res.json()).version).toMatchObject({ setId: "de-synthetic", version: "1.0.0", status: "draft", createdBy: "runner@example.org" });
    const list = await (await call(sets.GET as Handler, "/api/v1/content-sets", tokens.viewer)).json();
    expect(list.versions.map((v: { setId: string; version: string }) => `${v.setId}@${v.version}`)).toEqual([REF]);
  });

  it("reads a version with the prompts it sends for a seed and its plan", async () => {
    const res = await call(one.GET as Handler, `/api/v1/content-sets/${REF}?seed=3&preset=quick&limit=5`, tokens.viewer, { params: { ref: REF } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.prompts).toMatchObject({ seed: 3, shown: 5 });
    expect(body.prompts.total).toBeGreaterThan(5);
    expect(body.prompts.items[0].prompt).toMatch(/Antworte/);
    expect(body.plan.queries.total).toBeGreaterThan(0);
    expect(body.plan.attributes.map((a: { attribute: string; k: number }) => [a.attribute, a.k])).toEqual([
      ["altersgruppe", 3],
      ["geschlecht", 2],
    ]);
    expect((await call(one.GET as Handler, "/api/v1/content-sets/x@1.0.0", tokens.viewer, { params: { ref: "x@1.0.0" } })).status).toBe(404);
  });

  it("launches only once an admin has approved it, and not after it is retired", async () => {
    const launch = { suite: "fof-own", models: ["baseline:uniform"], preset: "smoke", contentVersion: REF, seed: 2 };
    const draft = await call(runs.POST as Handler, "/api/v1/runs", tokens.runner, { body: launch });
    expect(draft.status).toBe(403);
    expect((await draft.json()).error).toMatch(/is a draft: an admin must approve it/);
    expect((await call(approve.POST as Handler, `/api/v1/content-sets/${REF}/approve`, tokens.runner, { body: {}, params: { ref: REF } })).status).toBe(403);
    const ok = await call(approve.POST as Handler, `/api/v1/content-sets/${REF}/approve`, tokens.admin, { body: {}, params: { ref: REF } });
    expect((await ok.json()).version).toMatchObject({ status: "approved", approvedBy: "admin@example.org" });
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "content-set.approve" } });
    expect(audit.targetId).toBe(REF);
    const launched = await call(runs.POST as Handler, "/api/v1/runs", tokens.runner, { body: launch });
    expect(launched.status).toBe(202);
    expect((await launched.json()).run).toMatchObject({ suite: "fof-own" });
    // the content version alone names its suite (the remote CLI's `fof run --content` sends no --suite)
    const { suite: _suite, ...bare } = launch;
    const named = await call(runs.POST as Handler, "/api/v1/runs", tokens.runner, { body: bare });
    expect(named.status).toBe(202);
    expect((await named.json()).run).toMatchObject({ suite: "fof-own" });
    await call(retire.POST as Handler, `/api/v1/content-sets/${REF}/retire`, tokens.admin, { body: {}, params: { ref: REF } });
    const after = await call(runs.POST as Handler, "/api/v1/runs", tokens.runner, { body: launch });
    expect(after.status).toBe(403);
    expect((await after.json()).error).toMatch(/is retired/);
  });
});
