// A real OpenID Connect provider (panva's oidc-provider, certified) on loopback for the single sign-on tests: its
// development login form signs anyone in by the login typed (an email of `people`), consent is granted without a
// page, and a person's groups come back in the userinfo answer. Tests change a person's groups between sign-ins.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

interface Person {
  name: string;
  groups: string[];
  /** the address the provider claims (default: the login) */
  email?: string;
  /** whether the provider says the address is verified (default: true) */
  emailVerified?: boolean;
  /** claims the userinfo answer alone says differently (the ID token keeps the others) */
  userinfo?: { email?: string; email_verified?: boolean | string };
}

export interface TestProvider {
  issuer: string;
  port: number;
  people: Map<string, Person>;
  close(): Promise<void>;
}

export const TEST_CLIENT = { id: "fof-workbench", secret: "a-test-client-secret-of-some-length" };

/** Starts the provider; `redirectUris` are the app's callbacks (…/api/auth/callback/oidc). `issuerHost` names it. */
export async function startOidcProvider(opts: { port?: number; redirectUris: string[]; issuerHost?: string }): Promise<TestProvider> {
  const people = new Map<string, Person>();
  // Requests that arrive while the keys are made wait for the provider rather than hang unanswered: the server
  // listens first (the issuer names its port), and a readiness probe (Playwright's webServer) may be that early.
  let ready!: (handle: http.RequestListener) => void;
  const handler = new Promise<http.RequestListener>((resolve) => (ready = resolve));
  const server = http.createServer((req, res) => void handler.then((handle) => handle(req, res)));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${opts.issuerHost ?? "127.0.0.1"}:${port}`;
  // Its own signing key, as a real provider has (the library's built-in development key is for quick starts).
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const config: Configuration = {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" }] as NonNullable<Configuration["jwks"]>["keys"] },
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: opts.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    scopes: ["openid", "email", "profile", "groups"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    cookies: { keys: ["test-cookie-key-one", "test-cookie-key-two"] },
    features: { devInteractions: { enabled: true } },
    // The ID token carries the scopes' claims too (as Keycloak's and Entra's do), so a test can make it and the
    // userinfo answer disagree.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      if (!people.has(id)) return undefined;
      return {
        accountId: id,
        async claims(use: string) {
          const p = people.get(id)!;
          const base = { sub: id, email: p.email ?? id, email_verified: p.emailVerified ?? true, name: p.name, groups: [...p.groups] };
          // userinfo with its own address: only what it is given (an address without a word on its verification)
          return use === "userinfo" && p.userinfo ? { sub: id, name: p.name, groups: [...p.groups], ...p.userinfo } : base;
        },
      };
    },
    // Consent is not what these tests are about: every scope asked is granted.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const clientId = ctx.oidc.client!.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope("openid email profile groups");
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, config);
  // Quiet: the development keys and interactions warn once on every start.
  provider.on("server_error", (_ctx, err) => console.error("[oidc-provider]", err));
  const handle = provider.callback();
  ready((req, res) => {
    // A browser journey's test (another process) sets a person's groups here: PUT /__test/people/<email> {name, groups}.
    const control = req.url?.match(/^\/__test\/people\/([^/?]+)$/);
    if (!control || req.method !== "PUT") return void handle(req, res);
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const p = JSON.parse(body) as Person;
      people.set(decodeURIComponent(control[1]!), { name: p.name, groups: p.groups, email: p.email, emailVerified: p.emailVerified, userinfo: p.userinfo });
      res.writeHead(204).end();
    });
  });
  return {
    issuer,
    port,
    people,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cookies per origin, enough to walk a redirect chain by hand. */
export class CookieJar {
  private jars = new Map<string, Map<string, string>>();
  header(url: string): string {
    const jar = this.jars.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join("; ") : "";
  }
  take(url: string, res: Response) {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(c) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(host, jar);
  }
}
