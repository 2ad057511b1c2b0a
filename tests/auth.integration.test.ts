// Accounts through better-auth on our database: sign-in with hashed passwords, sessions, closed sign-up, no user
// enumeration, rate-limited sign-in, disabled accounts, one-time invitations and reset links, audit rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-auth-");
process.env.PORT = "3555";

const { db, migrateAndSeed } = await import("../lib/db");
const { auth } = await import("../lib/auth/server");
const users = await import("../lib/auth/users");
const invitations = await import("../lib/auth/invitations");
const { can, permissionsOf, ROLES } = await import("../lib/auth/roles");

const base = "http://127.0.0.1:3555/api/auth";
let ip = 1;
/** Each call from its own client address unless told otherwise (the rate limit is per client). */
const post = (route: string, body: unknown, from = `10.0.0.${ip++}`) =>
  auth().handler(
    new Request(`${base}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://127.0.0.1:3555", "x-forwarded-for": from },
      body: JSON.stringify(body),
    }),
  );

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("roles", () => {
  it("grants each role exactly its permissions", () => {
    expect(can("admin", "users.manage")).toBe(true);
    expect(can("runner", "runs.manage")).toBe(true);
    expect(can("runner", "users.manage")).toBe(false);
    expect(can("reviewer", "runs.manage")).toBe(false);
    expect(can("reviewer", "data.export")).toBe(true);
    expect(can("annotator", "faces.label")).toBe(true);
    expect(can("annotator", "data.export")).toBe(false);
    expect(can("annotator", "results.read")).toBe(false);
    expect(can("viewer", "results.read")).toBe(true);
    expect(can("viewer", "faces.review")).toBe(false);
    expect(can("root", "results.read")).toBe(false);
    expect(can(null, "results.read")).toBe(false);
    for (const r of ROLES) expect(permissionsOf(r).size).toBeGreaterThan(0);
  });
});

describe("accounts", () => {
  it("creates the first admin from the environment once, and signs in with a session cookie", async () => {
    expect(await users.ensureAdminFromEnv(db(), "Admin@Example.org", "correct horse battery")).toBe(true);
    expect(await users.ensureAdminFromEnv(db(), "second@example.org", "correct horse battery")).toBe(false);
    const res = await post("/sign-in/email", { email: "admin@example.org", password: "correct horse battery" });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/fof\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const session = await auth().api.getSession({ headers: new Headers({ cookie: cookie.split(";")[0] }) });
    expect(session?.user.email).toBe("admin@example.org");
    expect((session?.user as { role?: string }).role).toBe("admin");
    const stored = await db().account.findFirstOrThrow({ where: { userId: session!.user.id } });
    expect(stored.password).not.toContain("correct horse");
  });

  it("refuses sign-up, and answers a wrong password and an unknown email alike", async () => {
    const signUp = await post("/sign-up/email", { email: "new@example.org", password: "whatever-long", name: "x" });
    expect(signUp.status).toBeGreaterThanOrEqual(400);
    expect(await db().user.count({ where: { email: "new@example.org" } })).toBe(0);
    const wrong = await post("/sign-in/email", { email: "admin@example.org", password: "not the password" });
    const unknown = await post("/sign-in/email", { email: "nobody@example.org", password: "not the password" });
    expect(wrong.status).toBe(unknown.status);
    expect(await wrong.text()).toBe(await unknown.text());
  });

  it("rate-limits sign-in per client", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await post("/sign-in/email", { email: "admin@example.org", password: "guess-guess-guess" }, "10.9.9.9")).status);
    expect(statuses.slice(-1)[0]).toBe(429);
  });

  it("keeps a disabled account out, sessions included", async () => {
    const admin = await users.findUserByEmail(db(), "admin@example.org");
    const viewer = await users.createUser(
      db(),
      { email: "viewer@example.org", name: "Vi", password: "viewer-password", role: "viewer" },
      { userId: admin!.id },
    );
    const ok = await post("/sign-in/email", { email: "viewer@example.org", password: "viewer-password" });
    expect(ok.status).toBe(200);
    await users.setDisabled(db(), admin!.id, viewer.id, true);
    expect(await db().session.count({ where: { userId: viewer.id } })).toBe(0);
    const refused = await post("/sign-in/email", { email: "viewer@example.org", password: "viewer-password" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    await expect(users.setDisabled(db(), admin!.id, admin!.id, true)).rejects.toThrow(/last admin/);
    await expect(users.setRole(db(), admin!.id, admin!.id, "viewer")).rejects.toThrow(/last admin/);
  });

  it("invites with a role through a one-time, expiring link; resets a password through another", async () => {
    const admin = (await users.findUserByEmail(db(), "admin@example.org"))!;
    const inv = await invitations.createInvitation(db(), admin.id, { role: "annotator", email: "ann@example.org" });
    expect(await invitations.inspectLink(db(), inv.token)).toMatchObject({ kind: "invite", role: "annotator" });
    await expect(invitations.acceptInvitation(db(), { token: inv.token, email: "other@example.org", name: "Ann", password: "annotator-pw" })).rejects.toThrow(
      /another email/,
    );
    const ann = await invitations.acceptInvitation(db(), { token: inv.token, email: "ann@example.org", name: "Ann", password: "annotator-pw" });
    expect(ann.role).toBe("annotator");
    await expect(invitations.acceptInvitation(db(), { token: inv.token, email: "ann@example.org", name: "Ann", password: "annotator-pw" })).rejects.toThrow(
      /not valid/,
    );
    expect((await post("/sign-in/email", { email: "ann@example.org", password: "annotator-pw" })).status).toBe(200);

    const reset = await invitations.createResetLink(db(), admin.id, ann.id);
    await invitations.resetPassword(db(), { token: reset.token, password: "a-new-password" });
    expect((await post("/sign-in/email", { email: "ann@example.org", password: "annotator-pw" })).status).toBeGreaterThanOrEqual(400);
    expect((await post("/sign-in/email", { email: "ann@example.org", password: "a-new-password" })).status).toBe(200);
    await expect(invitations.resetPassword(db(), { token: reset.token, password: "again-again" })).rejects.toThrow(/not valid/);

    const actions = (await db().auditLog.findMany({ orderBy: { id: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(["user.setup", "user.create", "user.disable", "user.invite", "user.join", "user.reset-link", "user.password-reset"]),
    );
  });

  it("keeps a runner's launches within the spending limit an admin set", async () => {
    const { budgetWithinLimit, committedUsd } = await import("../lib/auth/spending");
    const { createRun, presetConfig } = await import("./helpers/services");
    const admin = (await users.findUserByEmail(db(), "admin@example.org"))!;
    const runner = await users.createUser(
      db(),
      { email: "runner@example.org", name: "Run", password: "runner-password", role: "runner" },
      { userId: admin.id },
    );
    // No limit: the budget is the runner's choice.
    expect(await budgetWithinLimit(db(), { id: runner.id, spendingLimitUsd: null }, null)).toBeNull();
    await users.setSpendingLimit(db(), admin.id, runner.id, 5);
    const limited = { id: runner.id, spendingLimitUsd: 5 };
    const config = presetConfig("smoke", { tests: ["objective"] });
    const first = await createRun(db(), {
      models: ["baseline:uniform"],
      config,
      seed: 1,
      budgetUsd: await budgetWithinLimit(db(), limited, 3),
      createdById: runner.id,
    });
    expect(first.budgetUsd).toBe(3);
    expect(await committedUsd(db(), runner.id)).toBe(3);
    await expect(budgetWithinLimit(db(), limited, 3)).rejects.toThrow(/over what your spending limit leaves \(\$2\.00 of \$5\.00\)/);
    // Without a budget, a limited runner's run gets what is left, so the engine's budget stop holds the limit.
    expect(await budgetWithinLimit(db(), limited, null)).toBe(2);
    await createRun(db(), { models: ["baseline:uniform"], config, seed: 2, budgetUsd: 2, createdById: runner.id });
    await expect(budgetWithinLimit(db(), limited, null)).rejects.toThrow(/used up/);
    // Raising one run's budget counts against the rest only.
    expect(await budgetWithinLimit(db(), limited, 3, first.id)).toBe(3);
    expect((await db().auditLog.findFirstOrThrow({ where: { action: "user.limit", targetId: runner.id } })).detailsJson).toContain('"to":5');
  });

  it("lets only a run's owner or an admin steer it, and charges a budget raise to whoever raises it", async () => {
    const { committedUsd, splitCommitment } = await import("../lib/auth/spending");
    const { steerRun } = await import("../lib/features/runs/steer");
    const { createRun, presetConfig } = await import("./helpers/services");
    const admin = (await users.findUserByEmail(db(), "admin@example.org"))!;
    const steerer = await users.createUser(
      db(),
      { email: "steerer@example.org", name: "Steer", password: "steerer-password", role: "runner" },
      { userId: admin.id },
    );
    await users.setSpendingLimit(db(), admin.id, steerer.id, 10);
    const limited = { id: steerer.id, role: "runner" as const, spendingLimitUsd: 10 };
    const config = presetConfig("smoke", { tests: ["objective"] });
    const adminRun = await createRun(db(), { models: ["baseline:uniform"], config, seed: 21, budgetUsd: 1, createdById: admin.id });
    await db().run.update({ where: { id: adminRun.id }, data: { status: "paused" } });
    // Another account's run: refused, nothing changed, nothing charged.
    await expect(steerRun(db(), limited, adminRun.id, "resume", 10)).rejects.toMatchObject({ status: 403 });
    await expect(steerRun(db(), limited, adminRun.id, "cancel")).rejects.toMatchObject({ status: 403 });
    expect(await db().run.findUniqueOrThrow({ where: { id: adminRun.id } })).toMatchObject({ status: "paused", budgetUsd: 1 });
    expect(await db().budgetGrant.count()).toBe(0);
    // Their own run: allowed, within their own limit.
    const own = await createRun(db(), { models: ["baseline:uniform"], config, seed: 22, budgetUsd: 4, createdById: steerer.id });
    await db().run.update({ where: { id: own.id }, data: { status: "paused" } });
    await expect(steerRun(db(), limited, own.id, "resume", 11)).rejects.toThrow(/over what your spending limit leaves/);
    await steerRun(db(), limited, own.id, "resume", 6);
    expect(await committedUsd(db(), steerer.id)).toBe(6);
    // An admin raising the runner's run pays for the raise: the runner's commitment stays 6, the admin's grows by 3.
    await db().run.update({ where: { id: own.id }, data: { status: "paused" } });
    const adminBefore = await committedUsd(db(), admin.id);
    await steerRun(db(), { id: admin.id, role: "admin", spendingLimitUsd: null }, own.id, "resume", 9);
    expect(await committedUsd(db(), steerer.id)).toBe(6);
    expect(await committedUsd(db(), admin.id)).toBeCloseTo(adminBefore + 3, 9);
    const row = await db().auditLog.findFirstOrThrow({ where: { action: "run.resume", targetId: own.id, userId: admin.id } });
    expect(JSON.parse(row.detailsJson)).toMatchObject({ budgetUsd: 9, previousBudgetUsd: 6, owner: steerer.id, chargedTo: admin.id, chargedUsd: 3 });
    // A finished run: the owner pays up to their own part first, the granter the rest.
    expect(splitCommitment({ status: "completed", budgetUsd: 9, spentUsd: 7, createdById: "o", grants: [{ userId: "a", usd: 3 }] })).toEqual(
      new Map([
        ["o", 6],
        ["a", 1],
      ]),
    );
    expect(splitCommitment({ status: "completed", budgetUsd: 9, spentUsd: 4, createdById: "o", grants: [{ userId: "a", usd: 3 }] })).toEqual(
      new Map([
        ["o", 4],
        ["a", 0],
      ]),
    );
  });

  it("limits sign-in per account too: rotating client addresses buys no more guesses; failures and sign-outs are audited", async () => {
    const { ACCOUNT_MAX_FAILURES } = await import("../lib/auth/sign-in-limit");
    const admin = (await users.findUserByEmail(db(), "admin@example.org"))!;
    const target = await users.createUser(
      db(),
      { email: "guessed@example.org", name: "Guessed", password: "guessed-password", role: "viewer" },
      { userId: admin.id },
    );
    // Each attempt from a fresh address: the per-client limit never triggers, the per-account one does.
    for (let i = 0; i < ACCOUNT_MAX_FAILURES; i++)
      expect((await post("/sign-in/email", { email: "guessed@example.org", password: `wrong-${i}-password` })).status).toBe(401);
    const locked = await post("/sign-in/email", { email: "guessed@example.org", password: "guessed-password" });
    expect(locked.status).toBe(429);
    const failed = await db().auditLog.findMany({ where: { action: "user.sign-in-failed", userId: target.id } });
    expect(failed).toHaveLength(ACCOUNT_MAX_FAILURES);
    expect(failed[0].ip).toMatch(/^10\.0\.0\./);
    expect(JSON.parse(failed[0].detailsJson)).toEqual({ email: "guessed@example.org" });
    // Another account is not affected; its sign-out is audited.
    const ok = await post("/sign-in/email", { email: "admin@example.org", password: "correct horse battery" });
    expect(ok.status).toBe(200);
    const cookie = (ok.headers.get("set-cookie") ?? "").split(";")[0];
    const out = await auth().handler(
      new Request(`${base}/sign-out`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://127.0.0.1:3555", cookie, "x-forwarded-for": "10.9.9.9" },
        body: "{}",
      }),
    );
    expect(out.status).toBe(200);
    expect(await db().auditLog.findFirst({ where: { action: "user.sign-out", userId: admin.id, ip: "10.9.9.9" } })).not.toBeNull();
  });

  it("serves only the better-auth endpoints the app uses: update-user and friends answer 404", async () => {
    const route = await import("../app/api/auth/[...all]/route");
    const ok = await post("/sign-in/email", { email: "admin@example.org", password: "correct horse battery" });
    const cookie = (ok.headers.get("set-cookie") ?? "").split(";")[0];
    const call = (p: string, body: unknown) =>
      route.POST(
        new Request(`${base}${p}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://127.0.0.1:3555", cookie },
          body: JSON.stringify(body),
        }),
      );
    const before = await db().user.findUniqueOrThrow({ where: { email: "admin@example.org" } });
    for (const p of ["/update-user", "/change-email", "/change-password", "/delete-user", "/sign-up/email", "/revoke-sessions"])
      expect((await call(p, { name: "Administrator", image: "javascript:alert(1)" })).status).toBe(404);
    expect((await call("/update-user", { name: "x".repeat(200_030) })).status).toBe(404);
    expect(await db().user.findUniqueOrThrow({ where: { email: "admin@example.org" } })).toMatchObject({ name: before.name, image: before.image });
    expect((await route.GET(new Request(`${base}/get-session`, { headers: { cookie } }))).status).toBe(200);
  });

  it("records who registered a model and who last changed it", async () => {
    const { upsertModel } = await import("./helpers/services");
    const admin = (await users.findUserByEmail(db(), "admin@example.org"))!;
    const runner = (await users.findUserByEmail(db(), "runner@example.org"))!;
    await upsertModel(db(), { slug: "owned", label: "Owned", modality: "t2i", provider: "import" }, admin.id);
    await upsertModel(db(), { slug: "owned", label: "Owned again", modality: "t2i", provider: "import" }, runner.id);
    const m = await db().modelConfig.findUniqueOrThrow({ where: { slug: "owned" } });
    expect(m).toMatchObject({ createdById: admin.id, updatedById: runner.id, label: "Owned again" });
  });
});
