// Single sign-on settings and decisions without a provider: how the environment reads, which groups count, which
// role several groups give, which domains pass, what each refusal says on the sign-in page.
import { describe, expect, it } from "vitest";
import { parseEnv } from "../lib/env";
import { decide, domainAllowed, groupsOf, roleFor, ssoConfigFrom } from "../lib/auth/sso-config";
import { SSO_MESSAGES, ssoErrorMessage } from "../lib/auth/sso-messages";

const base = { FOF_OIDC_ISSUER: "https://id.example.org/realms/lab/", FOF_OIDC_CLIENT_ID: "fof" };
const config = (extra: Record<string, string> = {}) => ssoConfigFrom(parseEnv({ ...base, ...extra }), "secret")!;

describe("single sign-on settings", () => {
  it("is off without an issuer, and reads a configured one with its defaults", () => {
    expect(ssoConfigFrom(parseEnv({}), undefined)).toBeNull();
    const c = config();
    expect(c.discoveryUrl).toBe("https://id.example.org/realms/lab/.well-known/openid-configuration");
    expect(c.scopes).toEqual(["openid", "email", "profile"]);
    expect(c.defaultRole).toBeNull();
    expect(c.jit).toBe(true);
    expect(c.passwordSignIn).toBe(true);
    expect(c.groupsClaim).toBe("groups");
    // Joins by a verified address are allowed, and accounts with a password keep their role, unless the operator says otherwise.
    expect(c.linking).toBe(true);
    expect(c.remapPasswordAccounts).toBe(false);
    expect(config({ FOF_OIDC_LINKING: "off", FOF_OIDC_REMAP_PASSWORD_ACCOUNTS: "on" })).toMatchObject({ linking: false, remapPasswordAccounts: true });
    expect(config({ FOF_OIDC_SCOPES: "email, groups", FOF_OIDC_DEFAULT_ROLE: "viewer", FOF_OIDC_JIT: "off" })).toMatchObject({
      scopes: ["openid", "email", "groups"],
      defaultRole: "viewer",
      jit: false,
    });
  });

  it("refuses a half-configured provider, naming the variable", () => {
    expect(() => ssoConfigFrom(parseEnv({ FOF_OIDC_ISSUER: base.FOF_OIDC_ISSUER }), undefined)).toThrow(/FOF_OIDC_CLIENT_ID is required/);
    expect(() => config({ FOF_OIDC_ROLE_MAP: "admins=admin" })).toThrow(/FOF_OIDC_ROLE_MAP must be a JSON object/);
    expect(() => config({ FOF_OIDC_ROLE_MAP: '{"admins":"root"}' })).toThrow(/FOF_OIDC_ROLE_MAP admins: a role/);
    expect(() => config({ FOF_OIDC_DEFAULT_ROLE: "superuser" })).toThrow(/FOF_OIDC_DEFAULT_ROLE must be "none" or a role/);
    expect(() => config({ FOF_OIDC_GROUPS_CLAIM: "a..b" })).toThrow(/FOF_OIDC_GROUPS_CLAIM/);
    expect(() => parseEnv({ ...base, FOF_OIDC_ISSUER: "ftp://id.example.org" })).toThrow(/FOF_OIDC_ISSUER/);
    expect(() => parseEnv({ ...base, FOF_OIDC_JIT: "maybe" })).toThrow(/FOF_OIDC_JIT/);
    expect(() => parseEnv({ ...base, FOF_OIDC_LINKING: "trusted" })).toThrow(/FOF_OIDC_LINKING/);
  });
});

describe("single sign-on decisions", () => {
  const c = config({
    FOF_OIDC_ALLOWED_DOMAINS: "example.org, @Lab.Example.org",
    FOF_OIDC_ROLE_MAP: JSON.stringify({ "cn=ml,ou=groups,dc=example,dc=org": "runner", readers: "viewer", admins: "admin", scrapers: "metrics" }),
  });

  it("reads groups from a claim or a dotted path, as a list or one string, ignoring what is not a group", () => {
    expect(groupsOf({ groups: ["a", "b"] }, "groups")).toEqual(["a", "b"]);
    expect(groupsOf({ groups: "a" }, "groups")).toEqual(["a"]);
    expect(groupsOf({ realm_access: { roles: ["x", 3, null, "", "y"] } }, "realm_access.roles")).toEqual(["x", "y"]);
    expect(groupsOf({ realm_access: ["x"] }, "realm_access.roles")).toEqual([]);
    expect(groupsOf({}, "groups")).toEqual([]);
    // Only own properties: a claim path cannot reach the prototype.
    expect(groupsOf({}, "constructor.name")).toEqual([]);
    expect(groupsOf({ groups: Array.from({ length: 5000 }, (_, i) => `g${i}`) }, "groups")).toHaveLength(1000);
  });

  it("gives the first role in the role table that any group maps to, else the default", () => {
    expect(roleFor(["readers", "cn=ml,ou=groups,dc=example,dc=org"], c)).toBe("runner");
    expect(roleFor(["readers", "admins"], c)).toBe("admin");
    expect(roleFor(["scrapers"], c)).toBe("metrics");
    expect(roleFor(["unknown"], c)).toBeNull();
    expect(roleFor(["unknown"], { ...c, defaultRole: "viewer" })).toBe("viewer");
    // Group names match exactly (no case folding: providers' group ids are case-sensitive).
    expect(roleFor(["Admins"], c)).toBeNull();
  });

  it("allows exactly the listed domains (any when none is listed)", () => {
    expect(domainAllowed("a@example.org", c)).toBe(true);
    expect(domainAllowed("a@LAB.example.org", c)).toBe(true);
    expect(domainAllowed("a@evil-example.org", c)).toBe(false);
    expect(domainAllowed("a@sub.example.org", c)).toBe(false);
    expect(domainAllowed("a@example.org@evil.test", c)).toBe(false);
    expect(domainAllowed("no-at-sign", c)).toBe(false);
    expect(domainAllowed("a@anything.test", config())).toBe(true);
  });

  it("decides in order: an email, verified by the provider, the domain, an account (just-in-time), a join (linking), a role", () => {
    const v = (email: string | undefined, emailVerified = true) => ({ email, emailVerified });
    expect(decide({ groups: ["admins"] }, v(undefined), "create-user", c)).toMatchObject({ ok: false, code: "sso_no_email" });
    // An address the provider does not vouch for is refused whatever else holds: for a new account, a join and a sign-in alike.
    for (const action of ["create-user", "link-account", "sign-in"] as const)
      expect(decide({ groups: ["admins"] }, v("admin@example.org", false), action, c)).toMatchObject({ ok: false, code: "sso_email_unverified" });
    expect(decide({ groups: ["admins"] }, v("x@evil.test"), "sign-in", c)).toMatchObject({ ok: false, code: "sso_domain_refused" });
    expect(decide({ groups: ["admins"] }, v("x@example.org"), "create-user", { ...c, jit: false })).toMatchObject({ ok: false, code: "sso_no_account" });
    expect(decide({ groups: ["admins"] }, v("x@example.org"), "sign-in", { ...c, jit: false })).toMatchObject({ ok: true, role: "admin" });
    expect(decide({ groups: ["admins"] }, v("x@example.org"), "link-account", { ...c, linking: false })).toMatchObject({ ok: false, code: "sso_link_off" });
    expect(decide({ groups: ["admins"] }, v("x@example.org"), "link-account", c)).toMatchObject({ ok: true, role: "admin" });
    expect(decide({ groups: ["other"] }, v("x@example.org"), "create-user", c)).toMatchObject({ ok: false, code: "sso_no_role", groups: ["other"] });
    expect(decide({ groups: ["readers"] }, v("x@example.org"), "create-user", c)).toEqual({ ok: true, role: "viewer", groups: ["readers"] });
  });

  it("words every refusal with our own sentences, never a link's", () => {
    for (const code of Object.keys(SSO_MESSAGES)) expect(ssoErrorMessage(code)).toBe(SSO_MESSAGES[code as keyof typeof SSO_MESSAGES]);
    expect(ssoErrorMessage("state_mismatch")).toMatch(/Start again/);
    expect(ssoErrorMessage("issuer_mismatch")).toMatch(/another identity provider/);
    expect(ssoErrorMessage("something_new")).toBe("Single sign-on failed (something_new). Try again, or tell an admin.");
    expect(ssoErrorMessage("Call +1 555 0100 to restore access")).toBe("Single sign-on failed. Try again, or tell an admin.");
    expect(ssoErrorMessage("constructor")).toBe("Single sign-on failed (constructor). Try again, or tell an admin.");
    expect(ssoErrorMessage(undefined)).toBeNull();
  });
});
