// A personal access token limited to a role lower than its owner's acts with that role everywhere — every route, every
// server action, the steering rule — never with its owner's. The hostile test's case: an admin's token limited to
// runner resumed (and re-budgeted, charging the admin) another runner's run and cancelled runs through the API and
// through a server action called with `Authorization: Bearer`. This file enumerates every route file under app/api and
// every exported server action, calls each with a token an admin limited to viewer, and checks that whatever the
// viewer role may not do is refused as the token's limit; then it checks steering and the audit rows by hand.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-token-scope-");

// Server actions read the request's headers through next/headers: each call here runs as a request carrying `bearer`.
let bearer = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ authorization: `Bearer ${bearer}`, host: "127.0.0.1:3000" }),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { permissionsOf } = await import("../lib/auth/roles");
const { createRun, presetConfig } = await import("./helpers/services");

const ROOT = process.cwd();
const BASE = "http://127.0.0.1:3000";

function filesNamed(dir: string, name: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) filesNamed(p, name, out);
    else if (f === name) out.push(p);
  }
  return out;
}

/** The access each method of a route file declares (jsonRead / jsonWrite / streamWrite's first argument), following re-exports. */
function routeAccess(file: string): Record<string, string> {
  const text = readFileSync(file, "utf8");
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = (?:jsonRead|jsonWrite|streamWrite)(?:<[^>]+>)?\(\s*"([a-z.-]+)"/g))
    out[m[1]] = m[2];
  for (const m of text.matchAll(/export \{([^}]*)\} from "@\/(app\/api\/[^"]+\/route)"/g)) {
    const target = routeAccess(path.join(ROOT, `${m[2]}.ts`));
    for (const method of m[1].split(",").map((x) => x.trim())) if (target[method]) out[method] = target[method];
  }
  return out;
}

let adminId = "";
let otherRunId = "";
let ownRunId = "";
let viewerLimited = "";
let runnerLimited = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const admin = await createUser(db(), { email: "boss@example.org", name: "Boss", password: "test-password-123", role: "admin" });
  const runner = await createUser(db(), { email: "other@example.org", name: "Other", password: "test-password-123", role: "runner" });
  adminId = admin.id;
  const config = presetConfig("smoke", { tests: ["objective"] });
  otherRunId = (await createRun(db(), { models: ["baseline:uniform"], config, seed: 1, budgetUsd: 3, createdById: runner.id })).id;
  ownRunId = (await createRun(db(), { models: ["baseline:uniform"], config, seed: 2, budgetUsd: 3, createdById: admin.id })).id;
  viewerLimited = (await createToken(db(), admin.id, { name: "dashboards", role: "viewer" })).secret;
  runnerLimited = (await createToken(db(), admin.id, { name: "ci", role: "runner" })).secret;
});
afterAll(async () => {
  await db().$disconnect();
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe("a token limited to a lower role", () => {
  it("is refused, as its limit, by every route whose permission that role lacks", async () => {
    const viewerMay = permissionsOf("viewer");
    const routes = filesNamed(path.join(ROOT, "app", "api"), "route.ts");
    expect(routes.length).toBeGreaterThan(20);
    let refused = 0;
    for (const file of routes) {
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      if (rel.startsWith("app/api/auth/")) continue;
      const access = routeAccess(file); // better-auth's sign-in: a password, not a token
      const mod = (await import(file)) as Record<string, Handler>;
      // Every dynamic segment gets the other runner's run id (or a plausible value): the refusal must come first.
      const url = rel
        .replace(/^app/, "")
        .replace(/\/route\.ts$/, "")
        .replace(/\[\.\.\.\w+\]/g, "x")
        .replace(/\[(\w+)\]/g, (_m, name) => (name === "id" ? otherRunId : name === "suiteId" ? "dofair" : name === "kind" ? "detector" : "x"));
      const params: Record<string, string> = {};
      for (const m of rel.matchAll(/\[(\w+)\]/g))
        params[m[1]] = m[1] === "id" ? otherRunId : m[1] === "suiteId" ? "dofair" : m[1] === "kind" ? "detector" : "x";
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
        const handler = mod[method];
        if (!handler) continue;
        const perm = access[method];
        expect(perm, `${rel} ${method} declares its access`).toBeDefined();
        const res = await handler(
          new Request(`${BASE}${url}`, {
            method,
            headers: { authorization: `Bearer ${viewerLimited}`, "content-type": "application/json" },
            body: method === "GET" ? undefined : "{}",
          }),
          { params: Promise.resolve(params) },
        );
        const mayPass = perm === "public" || perm === "signed-in" || viewerMay.has(perm as never);
        if (mayPass) {
          expect(res.status, `${rel} ${method}`).not.toBe(401);
          continue;
        }
        expect(res.status, `${rel} ${method} (${perm})`).toBe(403);
        expect((await res.json()).error, `${rel} ${method}`).toMatch(/token "dashboards" is limited to viewer|a token never manages/);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(15);
  });

  it("is refused, as its limit, by every server action whose permission that role lacks", async () => {
    const viewerMay = permissionsOf("viewer");
    bearer = viewerLimited;
    let refused = 0;
    for (const file of filesNamed(path.join(ROOT, "app"), "actions.ts")) {
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      const text = readFileSync(file, "utf8");
      const mod = (await import(file)) as Record<string, (...a: unknown[]) => Promise<unknown>>;
      for (const m of text.matchAll(/export async function (\w+)\s*\(/g)) {
        const name = m[1];
        const head = text.slice(m.index!, m.index! + 1200);
        const guard = /await actionGuard\("([a-z.-]+)"\)/.exec(head);
        if (!guard) continue; // the public ones (setup, one-time links): tests/actions-guard.test.ts lists them
        const perm = guard[1];
        const args = head.slice(0, guard.index);
        if (perm !== "signed-in" && viewerMay.has(perm as never)) continue;
        // Form actions take (previous state, form data); the others one input object.
        const out = (await (args.includes("FormData") ? mod[name](undefined, new FormData()) : mod[name]({}))) as Record<string, unknown>;
        const message = String(out?.message ?? out?.error ?? "");
        expect(message, `${rel}#${name} (${perm})`).toMatch(/token "dashboards" is limited to viewer|a token never manages/);
        refused++;
      }
    }
    expect(refused).toBeGreaterThanOrEqual(14);
  });

  it("steers only its owner's runs when limited to runner, through the API and through the server action, and the audit row names it", async () => {
    const resume = (await import("../app/api/v1/runs/[id]/resume/route")) as unknown as Record<string, Handler>;
    const cancel = (await import("../app/api/v1/runs/[id]/cancel/route")) as unknown as Record<string, Handler>;
    const post = (h: Handler, id: string, body: unknown) =>
      h(
        new Request(`${BASE}/api/v1/runs/${id}/x`, {
          method: "POST",
          headers: { authorization: `Bearer ${runnerLimited}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        {
          params: Promise.resolve({ id }),
        },
      );
    // Another runner's run: a runner may not steer it, whoever owns the token.
    const r = await post(resume.POST, otherRunId, { budgetUsd: 50 });
    expect(r.status).toBe(403);
    expect((await post(cancel.POST, otherRunId, {})).status).toBe(403);
    const other = await db().run.findUniqueOrThrow({ where: { id: otherRunId } });
    expect(other.budgetUsd).toBe(3);
    expect(other.status).not.toBe("cancelled");
    expect(await db().budgetGrant.count({ where: { userId: adminId } })).toBe(0);
    // Through the server action with the same token: refused the same way.
    bearer = runnerLimited;
    const { changeRunState } = await import("../app/runs/[id]/actions");
    expect(await changeRunState({ runId: otherRunId, action: "resume", budgetUsd: 50 })).toMatchObject({ ok: false, error: expect.stringMatching(/owner/) });
    expect(await changeRunState({ runId: otherRunId, action: "cancel" })).toMatchObject({ ok: false });
    expect((await db().run.findUniqueOrThrow({ where: { id: otherRunId } })).status).not.toBe("cancelled");
    // Its owner's own run: a runner steers its own, and the audit row names the token.
    expect((await post(cancel.POST, ownRunId, {})).status).toBe(200);
    const row = await db().auditLog.findFirstOrThrow({ where: { action: "run.cancel", targetId: ownRunId } });
    expect(row.userId).toBe(adminId);
    expect(row.tokenId).not.toBeNull();
    expect(JSON.parse(row.detailsJson)).toMatchObject({ token: "ci" });
  });

  it("is refused altogether once its role is no longer within its owner's (the owner was demoted)", async () => {
    const { setRole } = await import("../lib/auth/users");
    const { viewerFrom } = await import("../lib/auth/guard");
    const lead = await createUser(db(), { email: "lead@example.org", name: "Lead", password: "test-password-123", role: "admin" });
    const t = (await createToken(db(), lead.id, { name: "reviews", role: "reviewer" })).secret;
    expect((await viewerFrom(new Headers({ authorization: `Bearer ${t}` })))?.role).toBe("reviewer");
    await setRole(db(), null, lead.id, "runner");
    expect(await viewerFrom(new Headers({ authorization: `Bearer ${t}` }))).toBeNull();
  });

  it("limits failed token lookups per client: a flood of guesses is answered 429, a valid token from there still works", async () => {
    const { viewerFrom } = await import("../lib/auth/guard");
    const { TOKEN_MAX_FAILURES } = await import("../lib/auth/token-limit");
    const guess = () => viewerFrom(new Headers({ authorization: `Bearer fof_${"x".repeat(43)}` }));
    for (let i = 0; i < TOKEN_MAX_FAILURES; i++) expect(await guess()).toBeNull();
    await expect(guess()).rejects.toMatchObject({ status: 429 });
    await expect(viewerFrom(new Headers({ authorization: "Bearer not-even-a-token" }))).rejects.toMatchObject({ status: 429 });
    // The scraper or CI job behind the same address is not locked out by someone guessing there.
    expect((await viewerFrom(new Headers({ authorization: `Bearer ${viewerLimited}` })))?.role).toBe("viewer");
    await expect(guess()).rejects.toMatchObject({ status: 429 });
    await db().rateLimit.deleteMany({ where: { key: { startsWith: "token-failures:" } } });
    expect(await guess()).toBeNull();
  });
});
