// Single sign-on against a real OpenID Connect provider on loopback (tests/helpers/oidc-provider.ts), through the
// app's own auth route: the authorization-code flow with PKCE, state and nonce, walked redirect by redirect. A
// person of an allowed domain gets an account with their groups' role; every refusal is checked with its audit row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import { CookieJar, startOidcProvider, TEST_CLIENT, type TestProvider } from "./helpers/oidc-provider";

const PORT = 3556;
const APP = `http://127.0.0.1:${PORT}`;
const idp: TestProvider = await startOidcProvider({ redirectUris: [`${APP}/api/auth/callback/oidc`] });

process.env.FOF_DATA_DIR = testDataDir("fof-sso-");
process.env.PORT = String(PORT);
process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
process.env.FOF_OIDC_ISSUER = idp.issuer;
process.env.FOF_OIDC_CLIENT_ID = TEST_CLIENT.id;
process.env.FOF_OIDC_CLIENT_SECRET = TEST_CLIENT.secret;
process.env.FOF_OIDC_SCOPES = "openid email profile groups";
process.env.FOF_OIDC_ALLOWED_DOMAINS = "example.org";
process.env.FOF_OIDC_ROLE_MAP = JSON.stringify({ "fof-admins": "admin", "fof-runners": "runner", "fof-viewers": "viewer" });

const { db, migrateAndSeed } = await import("../lib/db");
const { prepareSso, checkIssuer } = await import("../lib/auth/sso");
const { ssoConfigFrom } = await import("../lib/auth/sso-config");
const { parseEnv } = await import("../lib/env");
const users = await import("../lib/auth/users");
const tokens = await import("../lib/auth/tokens");
const route = await import("../app/api/auth/[...all]/route");
const { auth } = await import("../lib/auth/server");

let client = 1;
async function app(method: "GET" | "POST", path: string, jar: CookieJar, body?: unknown) {
  const url = APP + path;
  const headers: Record<string, string> = { cookie: jar.header(url), origin: APP, "x-forwarded-for": `10.9.0.${client}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await route[method](new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  jar.take(url, res);
  return res;
}

/** Starts a sign-on, logs in at the provider as `email` (its login), and delivers the callback (changed by `tamper`, if given). */
async function signIn(email: string, tamper?: (callback: URL) => void) {
  client++;
  const jar = new CookieJar();
  const start = await app("POST", "/api/auth/sign-in/social", jar, { provider: "oidc", callbackURL: "/runs", errorCallbackURL: "/sign-in" });
  expect(start.status).toBe(200);
  let url = ((await start.json()) as { url: string }).url;
  expect(url.startsWith(idp.issuer)).toBe(true);
  const asked = new URL(url).searchParams;
  expect(asked.get("code_challenge_method")).toBe("S256");
  expect(asked.get("state")).toBeTruthy();
  expect(asked.get("nonce")).toBeTruthy();
  for (let hop = 0; hop < 12 && !url.startsWith(APP); hop++) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header(url) } });
    jar.take(url, res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url).href;
      continue;
    }
    const action = (await res.text()).match(/<form[^>]*action="([^"]+)"/)?.[1];
    expect(action, `a login form at ${url}`).toBeTruthy();
    const submit = new URL(action!, url).href;
    const posted = await fetch(submit, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(submit), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login: email, password: "anything" }).toString(),
    });
    jar.take(submit, posted);
    url = new URL(posted.headers.get("location")!, submit).href;
  }
  const callback = new URL(url);
  expect(callback.pathname).toBe("/api/auth/callback/oidc");
  tamper?.(callback);
  const res = await app("GET", callback.pathname + callback.search, jar);
  const location = new URL(res.headers.get("location") ?? "", APP);
  const session = await auth().api.getSession({ headers: new Headers({ cookie: jar.header(APP) }) });
  return { status: res.status, location, error: location.searchParams.get("error"), session, jar };
}

/** The session a browser's cookies hold now (null once it ended). */
const sessionOf = (jar: CookieJar) => auth().api.getSession({ headers: new Headers({ cookie: jar.header(APP) }) });

const userByEmail = (email: string) => db().user.findUnique({ where: { email } });
const auditOf = (action: string) => db().auditLog.findMany({ where: { action }, orderBy: { at: "asc" } });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  await users.createUser(db(), { email: "root@example.org", name: "Root", password: "root-password-long", role: "admin" });
  expect((await prepareSso()).status).toBe("ready");
});
afterAll(async () => {
  await db().$disconnect();
  await idp.close();
});

describe("single sign-on", () => {
  it("creates a person's account at first sign-in with the role their groups map to, and audits it", async () => {
    idp.people.set("alice@example.org", { name: "Alice", groups: ["fof-runners", "unrelated"] });
    const r = await signIn("alice@example.org");
    expect(r.status).toBe(302);
    expect(r.location.pathname).toBe("/runs");
    expect(r.session?.user.email).toBe("alice@example.org");
    const alice = await userByEmail("alice@example.org");
    expect(alice?.role).toBe("runner");
    expect(alice?.name).toBe("Alice");
    const created = (await auditOf("user.sso-create")).find((a) => a.userId === alice!.id);
    expect(JSON.parse(created!.detailsJson)).toMatchObject({ role: "runner", groups: ["fof-runners", "unrelated"] });
    const signedIn = (await auditOf("user.sign-in")).filter((a) => a.userId === alice!.id);
    expect(JSON.parse(signedIn.at(-1)!.detailsJson)).toMatchObject({ via: "sso" });
    // The provider's tokens are kept encrypted, never as issued.
    const account = await db().account.findFirstOrThrow({ where: { userId: alice!.id, providerId: "oidc" } });
    expect(account.accessToken ?? "").toMatch(/^[0-9a-f]{100,}$/);
  });

  it("refuses a domain not allowed, and groups that give no role, before any account is made", async () => {
    idp.people.set("mallory@elsewhere.example", { name: "Mallory", groups: ["fof-admins"] });
    const foreign = await signIn("mallory@elsewhere.example");
    expect(foreign.error).toBe("sso_domain_refused");
    expect(foreign.location.pathname).toBe("/sign-in");
    expect(foreign.session).toBeNull();
    expect(await userByEmail("mallory@elsewhere.example")).toBeNull();
    idp.people.set("bob@example.org", { name: "Bob", groups: ["marketing"] });
    const roleless = await signIn("bob@example.org");
    expect(roleless.error).toBe("sso_no_role");
    expect(await userByEmail("bob@example.org")).toBeNull();
    const refused = (await auditOf("user.sign-in-refused")).map((a) => JSON.parse(a.detailsJson) as { reason: string; email: string });
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: "sso_domain_refused", email: "mallory@elsewhere.example" }),
        expect.objectContaining({ reason: "sso_no_role", email: "bob@example.org" }),
      ]),
    );
  });

  it("re-maps the role at every sign-in: removed from a group, a person loses its role and their tokens are cut to the new one", async () => {
    idp.people.set("carol@example.org", { name: "Carol", groups: ["fof-admins"] });
    expect((await signIn("carol@example.org")).session?.user.email).toBe("carol@example.org");
    const carol = (await userByEmail("carol@example.org"))!;
    expect(carol.role).toBe("admin");
    const runnerToken = await tokens.createToken(db(), carol.id, { name: "ci", role: "runner" });
    const ownToken = await tokens.createToken(db(), carol.id, { name: "mine" });
    idp.people.set("carol@example.org", { name: "Carol", groups: ["fof-viewers"] });
    const again = await signIn("carol@example.org");
    expect(again.session?.user.email).toBe("carol@example.org");
    expect((await userByEmail("carol@example.org"))!.role).toBe("viewer");
    const cut = await db().apiToken.findUniqueOrThrow({ where: { id: runnerToken.token.id } });
    expect(cut.role).toBe("viewer");
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: ownToken.token.id } })).role).toBeNull();
    expect((await tokens.tokenOwner(db(), ownToken.secret))?.user.role).toBe("viewer");
    const change = (await auditOf("user.role")).find((a) => a.targetId === carol.id);
    expect(JSON.parse(change!.detailsJson)).toMatchObject({ from: "admin", to: "viewer", via: "sso" });
    expect((await auditOf("token.narrow")).some((a) => a.targetId === runnerToken.token.id)).toBe(true);
  });

  it("keeps a disabled account disabled whatever the provider says", async () => {
    idp.people.set("dave@example.org", { name: "Dave", groups: ["fof-runners"] });
    await signIn("dave@example.org");
    const dave = (await userByEmail("dave@example.org"))!;
    await users.setDisabled(db(), null, dave.id, true);
    idp.people.set("dave@example.org", { name: "Dave", groups: ["fof-admins"] });
    const r = await signIn("dave@example.org");
    expect(r.error).toBe("sso_account_disabled");
    expect(r.session).toBeNull();
    const after = (await userByEmail("dave@example.org"))!;
    expect(after.disabled).toBe(true);
    expect(after.role).toBe("runner");
  });

  it("joins a sign-on to an invited person's existing account by a verified address; a password account keeps its role unless the operator opts in", async () => {
    await users.createUser(db(), { email: "erin@example.org", name: "Erin", password: "erin-password-long", role: "viewer" });
    idp.people.set("erin@example.org", { name: "Erin E.", groups: ["fof-runners"] });
    const r = await signIn("erin@example.org");
    expect(r.session?.user.email).toBe("erin@example.org");
    expect((await userByEmail("erin@example.org"))!.role).toBe("viewer");
    expect(await db().user.count({ where: { email: "erin@example.org" } })).toBe(1);
    const state = (globalThis as unknown as { __fofSso: { config: { remapPasswordAccounts: boolean } } }).__fofSso;
    state.config.remapPasswordAccounts = true;
    try {
      await signIn("erin@example.org");
      expect((await userByEmail("erin@example.org"))!.role).toBe("runner");
    } finally {
      state.config.remapPasswordAccounts = false;
    }
  });

  it("never joins an address the provider does not say is verified: no session, no link, no role or token change, audited", async () => {
    const boss = await users.createUser(db(), { email: "boss@example.org", name: "Boss", password: "boss-password-long", role: "admin" });
    const ci = await tokens.createToken(db(), boss.id, { name: "ci", role: "runner" });
    // The attacker's own identity at the provider claims the admin's address, unverified, in a group mapped to viewer.
    idp.people.set("mallory", { name: "Mallory", email: "boss@example.org", emailVerified: false, groups: ["fof-viewers"] });
    const r = await signIn("mallory");
    expect(r.error).toBe("sso_email_unverified");
    expect(r.session).toBeNull();
    expect(await db().account.count({ where: { providerId: "oidc", accountId: "mallory" } })).toBe(0);
    expect((await userByEmail("boss@example.org"))!.role).toBe("admin");
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: ci.token.id } })).role).toBe("runner");
    const refused = (await auditOf("user.sign-in-refused")).map((a) => ({ userId: a.userId, ...(JSON.parse(a.detailsJson) as Record<string, unknown>) }));
    expect(refused).toContainEqual(
      expect.objectContaining({
        userId: boss.id,
        reason: "sso_email_unverified",
        emailVerified: false,
        subject: "mallory",
        issuer: idp.issuer,
        email: "boss@example.org",
      }),
    );
    // Nor may an unverified address make a new account (its domain is what the allowed-domain list trusts).
    idp.people.set("mallory2", { name: "Mallory", email: "newcomer@example.org", emailVerified: false, groups: ["fof-admins"] });
    expect((await signIn("mallory2")).error).toBe("sso_email_unverified");
    expect(await userByEmail("newcomer@example.org")).toBeNull();
  });

  it("takes an address and its verification from one answer: a verified ID-token address never vouches for another address in userinfo", async () => {
    const boss = (await userByEmail("boss@example.org"))!;
    // The attacker's own address is verified in the ID token; the userinfo answer names the admin's.
    idp.people.set("eve", { name: "Eve", email: "eve@example.org", emailVerified: true, groups: ["fof-runners"], userinfo: { email: "boss@example.org" } });
    const mixed = await signIn("eve");
    expect(mixed.error).toBe("sso_email_unverified");
    expect(mixed.session).toBeNull();
    expect(await db().account.count({ where: { providerId: "oidc", accountId: "eve" } })).toBe(0);
    // …nor makes a new account of an address only userinfo names.
    idp.people.set("eve2", {
      name: "Eve",
      email: "eve2@example.org",
      emailVerified: true,
      groups: ["fof-admins"],
      userinfo: { email: "victim-new@example.org" },
    });
    expect((await signIn("eve2")).error).toBe("sso_email_unverified");
    expect(await userByEmail("victim-new@example.org")).toBeNull();
    // The ID token names the admin's address unverified, userinfo another address verified: neither is vouched for.
    idp.people.set("eve3", {
      name: "Eve",
      email: "boss@example.org",
      emailVerified: false,
      groups: ["fof-viewers"],
      userinfo: { email: "other@example.org", email_verified: true },
    });
    expect((await signIn("eve3")).error).toBe("sso_email_unverified");
    expect((await userByEmail("boss@example.org"))!.role).toBe("admin");
    expect(await db().account.count({ where: { userId: boss.id, providerId: "oidc" } })).toBe(0);
    // Both answers naming one address, one of them saying it is verified (a provider that puts email_verified in
    // the ID token only): that address is verified.
    idp.people.set("frieda@example.org", { name: "Frieda", groups: ["fof-runners"], userinfo: { email: "frieda@example.org" } });
    expect((await signIn("frieda@example.org")).session?.user.email).toBe("frieda@example.org");
  });

  it("joins a verified address, audited with issuer and subject; the break-glass admin keeps its role and tokens", async () => {
    const boss = (await userByEmail("boss@example.org"))!;
    idp.people.set("boss-at-idp", { name: "Boss", email: "boss@example.org", emailVerified: true, groups: ["fof-viewers"] });
    const r = await signIn("boss-at-idp");
    expect(r.session?.user.id).toBe(boss.id);
    const link = await db().account.findFirstOrThrow({ where: { providerId: "oidc", accountId: "boss-at-idp" } });
    expect(link.userId).toBe(boss.id);
    expect(link.linkedAt).not.toBeNull();
    const linked = (await auditOf("user.sso-link")).find((a) => a.targetId === boss.id);
    expect(JSON.parse(linked!.detailsJson)).toMatchObject({ issuer: idp.issuer, subject: "boss-at-idp", email: "boss@example.org", emailVerified: true });
    // The groups say viewer; the account with a password (made by /setup, FOF_ADMIN_EMAIL, an invitation) stays admin.
    expect((await userByEmail("boss@example.org"))!.role).toBe("admin");
    expect((await auditOf("token.narrow")).filter((a) => a.userId === boss.id)).toEqual([]);
    const signedIn = (await auditOf("user.sign-in")).filter((a) => a.userId === boss.id).at(-1)!;
    expect(JSON.parse(signedIn.detailsJson)).toMatchObject({ via: "sso", subject: "boss-at-idp", roleKept: "admin", groupsRole: "viewer" });
    // The session is bound to the identity it came through.
    expect((await db().session.findFirstOrThrow({ where: { userId: boss.id, ssoAccountId: link.id } })).ssoAccountId).toBe(link.id);
  });

  it("undoes a join when the address stops being verified between sign-ins, and ends the sessions opened through it", async () => {
    const boss = (await userByEmail("boss@example.org"))!;
    const first = await signIn("boss-at-idp");
    expect((await sessionOf(first.jar))?.user.id).toBe(boss.id);
    // A password session of the same account is not opened through the identity: it stays.
    const password = new CookieJar();
    client++;
    expect((await app("POST", "/api/auth/sign-in/email", password, { email: "boss@example.org", password: "boss-password-long" })).status).toBe(200);
    idp.people.set("boss-at-idp", { name: "Boss", email: "boss@example.org", emailVerified: false, groups: ["fof-admins"] });
    const again = await signIn("boss-at-idp");
    expect(again.error).toBe("sso_link_changed");
    expect(again.session).toBeNull();
    expect(await db().account.count({ where: { providerId: "oidc", accountId: "boss-at-idp" } })).toBe(0);
    expect(await sessionOf(first.jar)).toBeNull();
    expect((await sessionOf(password))?.user.id).toBe(boss.id);
    const unlinked = (await auditOf("user.sso-unlink")).find((a) => a.targetId === boss.id);
    expect(JSON.parse(unlinked!.detailsJson)).toMatchObject({ subject: "boss-at-idp", reason: "email_unverified", joined: true, issuer: idp.issuer });
    expect(JSON.parse(unlinked!.detailsJson).sessionsEnded).toBeGreaterThanOrEqual(1);
    expect((await userByEmail("boss@example.org"))!.role).toBe("admin");
    // Verified again: a new join, audited again.
    idp.people.set("boss-at-idp", { name: "Boss", email: "boss@example.org", emailVerified: true, groups: ["fof-admins"] });
    expect((await signIn("boss-at-idp")).session?.user.id).toBe(boss.id);
    expect((await auditOf("user.sso-link")).filter((a) => a.targetId === boss.id)).toHaveLength(2);
  });

  it("undoes a join whose address changed at the provider, and lets an admin remove one (its sessions end)", async () => {
    const boss = (await userByEmail("boss@example.org"))!;
    idp.people.set("boss-at-idp", { name: "Boss", email: "someone-else@example.org", emailVerified: true, groups: ["fof-admins"] });
    const moved = await signIn("boss-at-idp");
    expect(moved.error).toBe("sso_link_changed");
    expect(await db().account.count({ where: { providerId: "oidc", accountId: "boss-at-idp" } })).toBe(0);
    expect(JSON.parse((await auditOf("user.sso-unlink")).at(-1)!.detailsJson)).toMatchObject({ reason: "email_changed" });
    idp.people.set("boss-at-idp", { name: "Boss", email: "boss@example.org", emailVerified: true, groups: ["fof-admins"] });
    const back = await signIn("boss-at-idp");
    expect((await sessionOf(back.jar))?.user.id).toBe(boss.id);
    const { unlinkSso } = await import("../lib/auth/sso-links");
    expect(await unlinkSso(db(), null, boss.id)).toEqual({ identities: 1, sessions: 1 });
    expect(await sessionOf(back.jar)).toBeNull();
    expect(JSON.parse((await auditOf("user.sso-unlink")).at(-1)!.detailsJson)).toMatchObject({ reason: "admin", subject: "boss-at-idp" });
  });

  it("joins nothing while the operator forbids linking", async () => {
    await users.createUser(db(), { email: "hal@example.org", name: "Hal", password: "hal-password-long", role: "viewer" });
    const state = (globalThis as unknown as { __fofSso: { config: { linking: boolean } } }).__fofSso;
    state.config.linking = false;
    try {
      idp.people.set("hal@example.org", { name: "Hal", groups: ["fof-runners"] });
      const r = await signIn("hal@example.org");
      expect(r.error).toBe("sso_link_off");
      expect(r.session).toBeNull();
      expect(await db().account.count({ where: { providerId: "oidc", accountId: "hal@example.org" } })).toBe(0);
      // People whose account single sign-on made still sign in.
      expect((await signIn("alice@example.org")).session?.user.email).toBe("alice@example.org");
    } finally {
      state.config.linking = true;
    }
  });

  it("refuses new people while just-in-time accounts are off", async () => {
    const state = (globalThis as unknown as { __fofSso: { config: { jit: boolean } } }).__fofSso;
    state.config.jit = false;
    try {
      idp.people.set("frank@example.org", { name: "Frank", groups: ["fof-runners"] });
      expect((await signIn("frank@example.org")).error).toBe("sso_no_account");
      expect(await userByEmail("frank@example.org")).toBeNull();
      // People with an account still sign in.
      expect((await signIn("alice@example.org")).session?.user.email).toBe("alice@example.org");
    } finally {
      state.config.jit = true;
    }
  });

  it("refuses a forged state, a callback from another browser and an answer naming another issuer", async () => {
    idp.people.set("grace@example.org", { name: "Grace", groups: ["fof-runners"] });
    const forged = await signIn("grace@example.org", (cb) => cb.searchParams.set("state", "forged-state-value"));
    expect(forged.session).toBeNull();
    expect(forged.error).toMatch(/^state_/);
    const otherIssuer = await signIn("grace@example.org", (cb) => cb.searchParams.set("iss", "http://127.0.0.1:1/"));
    expect(otherIssuer.session).toBeNull();
    expect(otherIssuer.error).toBe("issuer_mismatch");
    expect(await userByEmail("grace@example.org")).toBeNull();
    // The provider's answer replayed from a browser that did not start the sign-in (no state cookie).
    let stolen = "";
    await signIn("grace@example.org", (cb) => {
      stolen = cb.pathname + cb.search;
      cb.searchParams.set("code", "spent");
    });
    const elsewhere = await app("GET", stolen, new CookieJar());
    expect(new URL(elsewhere.headers.get("location")!, APP).searchParams.get("error")).toMatch(/^state_/);
  });

  it("takes only the configured provider's code flow at the start", async () => {
    const jar = new CookieJar();
    client += 10; // a fresh client: sign-in starts are rate-limited per client
    expect((await app("POST", "/api/auth/sign-in/social", jar, { provider: "google", callbackURL: "/" })).status).toBe(400);
    expect((await app("POST", "/api/auth/sign-in/social", jar, { provider: "oidc", idToken: { token: "x" } })).status).toBe(400);
    expect((await app("POST", "/api/auth/sign-in/social", jar, { provider: "oidc", scopes: ["admin"] })).status).toBe(400);
  });

  it("offers no issuer whose discovery names another issuer, nor one on a private address the operator did not allow", async () => {
    const impostor = await startOidcProvider({ redirectUris: [`${APP}/api/auth/callback/oidc`], issuerHost: "localhost" });
    try {
      const base = { FOF_OIDC_CLIENT_ID: TEST_CLIENT.id, FOF_DATA_DIR: process.env.FOF_DATA_DIR };
      const mismatched = await checkIssuer(ssoConfigFrom(parseEnv({ ...base, FOF_OIDC_ISSUER: `http://127.0.0.1:${impostor.port}` }), undefined)!);
      expect(mismatched.status).toBe("refused");
      expect(mismatched.status === "refused" && mismatched.message).toMatch(/names the issuer http:\/\/localhost:\d+/);
      const allowed = process.env.FOF_ALLOWED_ENDPOINTS;
      delete process.env.FOF_ALLOWED_ENDPOINTS;
      try {
        const privateIssuer = await checkIssuer(ssoConfigFrom(parseEnv({ ...base, FOF_OIDC_ISSUER: idp.issuer }), undefined)!);
        expect(privateIssuer.status).toBe("refused");
        expect(privateIssuer.status === "refused" && privateIssuer.message).toMatch(/FOF_ALLOWED_ENDPOINTS/);
      } finally {
        process.env.FOF_ALLOWED_ENDPOINTS = allowed;
      }
    } finally {
      await impostor.close();
    }
  });
});
