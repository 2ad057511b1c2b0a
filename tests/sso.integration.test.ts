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

/** Starts a sign-on, logs in at the provider as `email`, and delivers the callback (changed by `tamper`, if given). */
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
  return { status: res.status, location, error: location.searchParams.get("error"), session };
}

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

  it("joins a sign-on to an invited person's existing account and gives it the groups' role", async () => {
    await users.createUser(db(), { email: "erin@example.org", name: "Erin", password: "erin-password-long", role: "viewer" });
    idp.people.set("erin@example.org", { name: "Erin E.", groups: ["fof-runners"] });
    const r = await signIn("erin@example.org");
    expect(r.session?.user.email).toBe("erin@example.org");
    expect((await userByEmail("erin@example.org"))!.role).toBe("runner");
    expect(await db().user.count({ where: { email: "erin@example.org" } })).toBe(1);
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
