// Typed server environment, read nowhere else. Validation errors name the variable and the rule it breaks,
// never its value, so a mistyped key cannot leak into logs or error pages. Nothing here reaches the client:
// no variable is NEXT_PUBLIC_, and secrets are read on demand through readSecret().
import path from "node:path";
import { z } from "zod";

const optionalUrl = z.url({ message: "must be an absolute URL" }).optional();
const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** a host:port to listen on (a metrics listener's) */
const listenAddress = (example: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\w.:[\]-]+:\d{1,5}$/, `host:port, e.g. ${example}`)
      .optional(),
  );

const schema = z.object({
  FOF_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./storage")),
  /** file:… → SQLite (the embedded default, in FOF_DATA_DIR when unset); postgres://… or postgresql://… → PostgreSQL */
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, "must be a SQLite file: URL or a postgres:// URL")
      .optional(),
  ),
  /** PostgreSQL: connections per process (web server or worker) */
  FOF_DB_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(10)),
  /** how long a worker's claim on a query lasts before others may take it (must exceed the call timeout) */
  FOF_WORKER_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(3_600_000).default(300_000)),
  /** the most calls one worker process runs at once per model (a small host's own limit); the model's limit holds anyway */
  FOF_WORKER_MAX_CALLS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  /** structured logs on stderr (lib/log.ts); tests run silent unless set */
  FOF_LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional()),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  REPLICATE_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  FAIRFACE_MODEL_URL: z.preprocess(emptyToUndefined, optionalUrl),
  FAIRFACE_MODEL_SHA256: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "must be 64 hex digits")
      .optional(),
  ),
  /** a FairFace .onnx file on the server's disk, served to the Label page (instead of public/models/fairface.onnx) */
  FAIRFACE_MODEL_PATH: z.preprocess(emptyToUndefined, z.string().optional()),
  /**
   * who works runs: "on" = a worker process beside the web server under `npm start` (the web process itself under
   * `next dev` or scripts/serve.ts alone), "inline" = the web server's own process, "off" = `fof worker` processes
   */
  FOF_WORKER: z.preprocess(emptyToUndefined, z.enum(["on", "inline", "off"]).default("on")),
  /** `npm start`'s worker process also answers GET /metrics on this address (its provider calls, retries, labels) */
  FOF_WORKER_METRICS_LISTEN: listenAddress("127.0.0.1:9465"),
  /**
   * Set by `npm start` on both of its processes (not by operators): the worker serves its own counters on this Unix
   * socket, and the web server's /metrics reads and includes them (lib/server/process-metrics.ts)
   */
  FOF_WORKER_METRICS_SOCKET: z.preprocess(emptyToUndefined, z.string().min(1).max(200).optional()),
  /** server-side face labelling (fof label): onnxruntime-node's device and threads per session */
  FOF_LABEL_DEVICE: z.preprocess(emptyToUndefined, z.enum(["cpu", "cuda"]).default("cpu")),
  FOF_LABEL_THREADS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(1)),
  /**
   * how every labeller (Label page, review page, `fof label`, label workers) cuts faces for FairFace: "aligned" =
   * FairFace's own chips from five landmarks (needs the landmarker `npm install` places), "square" = square crops
   */
  FOF_FACE_CHIPS: z.preprocess(emptyToUndefined, z.enum(["aligned", "square"]).default("aligned")),
  /** how long a labeller holds its images before another may take them (a killed one's come back after this) */
  FOF_LABEL_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(3_600_000).default(180_000)),
  /**
   * whether workers (the server's own and `fof worker`) label the faces of runs launched with "label automatically":
   * off, on (beside calls) or only (a label-only worker)
   */
  FOF_WORKER_LABEL: z.preprocess(emptyToUndefined, z.enum(["off", "on", "only"]).default("off")),
  /**
   * also answer GET /metrics on this address (host:port, e.g. 127.0.0.1:9464), for a scraper kept off the public
   * port; the same token is asked for there
   */
  FOF_METRICS_LISTEN: listenAddress("127.0.0.1:9464"),
  /** more FairFace weights vouched for by checksum (comma-separated sha256), besides FAIRFACE_MODEL_SHA256 */
  FOF_FAIRFACE_SHA256: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[0-9a-f]{64}$/, "each entry must be 64 hex digits")).max(100))
      .optional(),
  ),
  /** the Ed25519 private key (PKCS#8 PEM file) that signs evidence bundles; made and kept in FOF_DATA_DIR when unset */
  FOF_EVIDENCE_KEY_FILE: z.preprocess(emptyToUndefined, z.string().max(4096).optional()),
  /** signs session cookies; made and kept in FOF_DATA_DIR when unset */
  BETTER_AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  /** the address people use (behind a TLS proxy: https://…); cookies are Secure when it is https */
  FOF_PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional()),
  /** more origins allowed to post to the app (comma-separated) */
  FOF_TRUSTED_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .optional(),
  ),
  /**
   * proxies whose X-Forwarded-For is believed (comma-separated addresses or CIDR ranges, e.g. Caddy on this host:
   * "127.0.0.1,::1"); anyone else's forwarding headers are ignored (lib/auth/client-address.ts)
   */
  FOF_TRUSTED_PROXIES: z.preprocess(emptyToUndefined, z.string().max(4000).optional()),
  /**
   * single sign-on over OpenID Connect (docs/operations.md "Single sign-on"): the issuer (its discovery document is
   * read from <issuer>/.well-known/openid-configuration), this app's client id (the secret: FOF_OIDC_CLIENT_SECRET)
   */
  FOF_OIDC_ISSUER: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional()),
  FOF_OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().max(400).optional()),
  /** the sign-in button's name, e.g. "Acme SSO" */
  FOF_OIDC_NAME: z.preprocess(emptyToUndefined, z.string().max(60).default("single sign-on")),
  /** scopes asked for (space- or comma-separated); openid is always asked */
  FOF_OIDC_SCOPES: z.preprocess(emptyToUndefined, z.string().max(1000).default("openid email profile")),
  /** email domains allowed to sign in (comma-separated, e.g. "example.org,lab.example.org"); unset: any */
  FOF_OIDC_ALLOWED_DOMAINS: z.preprocess(emptyToUndefined, z.string().max(4000).optional()),
  /** the claim carrying a person's groups (a dotted path such as realm_access.roles for Keycloak) */
  FOF_OIDC_GROUPS_CLAIM: z.preprocess(emptyToUndefined, z.string().max(200).default("groups")),
  /** groups → roles as JSON, e.g. {"fof-admins":"admin","ml-team":"runner"}; several matches: the first role in the role table */
  FOF_OIDC_ROLE_MAP: z.preprocess(emptyToUndefined, z.string().max(20_000).optional()),
  /** the role of a person whose groups map to none (a role name, or "none": refused) */
  FOF_OIDC_DEFAULT_ROLE: z.preprocess(emptyToUndefined, z.string().max(40).default("none")),
  /** just-in-time accounts: a person without an account gets one at their first sign-in (off: invitations only) */
  FOF_OIDC_JIT: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
  /**
   * whether a single sign-on identity may be joined to an existing account of the same address: "verified" (only when
   * the provider says the address is verified) or "off" (never: only accounts it created itself, or none)
   */
  FOF_OIDC_LINKING: z.preprocess(emptyToUndefined, z.enum(["verified", "off"]).default("verified")),
  /**
   * whether the groups re-map the role of an account that has a password (made by /setup, FOF_ADMIN_EMAIL, `fof user
   * add` or an invitation: the operator's way in when the provider is wrong): "off" (default: it keeps its role) or "on"
   */
  FOF_OIDC_REMAP_PASSWORD_ACCOUNTS: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("off")),
  /** email + password sign-in beside single sign-on (off only takes effect while single sign-on is configured) */
  FOF_PASSWORD_SIGN_IN: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
  /** create this admin on start when no user exists (CI, scripts) */
  FOF_ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email("must be an email address").optional()),
  /** how long a database call waits for another writer's lock before it fails (and is retried) */
  FOF_DB_BUSY_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(600_000).default(10_000)),
  /** face photos the built-in synthetic image model composes (comma-separated paths; ../shared test photos by default) */
  FOF_SYNTHETIC_FACES: z.preprocess(emptyToUndefined, z.string().max(4000).optional()),
  /**
   * worker threads for reads whose work grows with a run or a plan (scores, run summaries, content plans), off the web
   * server's event loop (lib/server/offload.ts)
   */
  FOF_READ_THREADS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(16).default(2)),
  /** the most queries (or images) one launch may plan, over all its models */
  /** the share of an annotator's own review queue served as gold faces outside an assignment (docs/operations.md) */
  FOF_REVIEW_GOLD_RATE: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(0.5).default(0.05)),
  FOF_MAX_QUERIES_PER_RUN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50_000_000).default(500_000)),
});

export type DatabaseProvider = "sqlite" | "postgresql";
export type Env = z.infer<typeof schema> & { dataDir: string; databaseUrl: string; databaseProvider: DatabaseProvider };

export function databaseProviderOf(url: string): DatabaseProvider {
  return url.startsWith("file:") ? "sqlite" : "postgresql";
}

class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
    throw new EnvError(`Invalid environment: ${problems.join("; ")}`);
  }
  const dataDir = path.resolve(parsed.data.FOF_DATA_DIR);
  const databaseUrl = parsed.data.DATABASE_URL ?? `file:${path.join(dataDir, "fof.db")}`;
  return { ...parsed.data, dataDir, databaseUrl, databaseProvider: databaseProviderOf(databaseUrl) };
}

let cached: Env | undefined;
export function env(): Env {
  return (cached ??= parseEnv(process.env));
}

export const SECRET_NAME = /^[A-Z][A-Z0-9_]{1,63}$/;

/** The official endpoints the two built-in credentials belong to. */
export const OPENAI_API_URL = "https://api.openai.com/v1";
export const REPLICATE_API_URL = "https://api.replicate.com/v1";

const httpUrl = z.url({ protocol: /^https?$/, message: "must be an absolute http(s) URL" });
const credentialsSchema = z.record(
  z.string().regex(SECRET_NAME, "credential names are env var names such as DEEPINFRA_API_KEY"),
  z.union([httpUrl, z.array(httpUrl).min(1).max(20)]),
);

/** A credential the operator allows: the env var that holds it and the base URLs it may be sent to. */
export interface DeclaredCredential {
  name: string;
  urls: string[];
}

/**
 * The credentials this server may send, each bound to its endpoints (an operator decision, never a user's):
 * OPENAI_API_KEY to OpenAI's API and OPENAI_BASE_URL, REPLICATE_API_TOKEN to Replicate's API and REPLICATE_BASE_URL,
 * and every entry of FOF_CREDENTIALS = {"NAME": "https://base/url" | ["https://…", …]} (which may also add URLs to
 * the built-in two). Read on each call so tests and operators can change it without a restart of this module.
 */
export function declaredCredentials(source: Record<string, string | undefined> = process.env): DeclaredCredential[] {
  const e = source === process.env ? env() : parseEnv(source);
  const map = new Map<string, Set<string>>([
    ["OPENAI_API_KEY", new Set([OPENAI_API_URL, ...(e.OPENAI_BASE_URL ? [e.OPENAI_BASE_URL] : [])])],
    ["REPLICATE_API_TOKEN", new Set([REPLICATE_API_URL, ...(e.REPLICATE_BASE_URL ? [e.REPLICATE_BASE_URL] : [])])],
  ]);
  const raw = source.FOF_CREDENTIALS?.trim();
  if (raw) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new EnvError('Invalid environment: FOF_CREDENTIALS must be a JSON object {"ENV_VAR": "https://base/url"}');
    }
    const parsed = credentialsSchema.safeParse(json);
    if (!parsed.success)
      throw new EnvError(`Invalid environment: FOF_CREDENTIALS ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
    for (const [name, urls] of Object.entries(parsed.data)) {
      const set = map.get(name) ?? new Set<string>();
      for (const u of Array.isArray(urls) ? urls : [urls]) set.add(u);
      map.set(name, set);
    }
  }
  return [...map].map(([name, urls]) => ({ name, urls: [...urls] }));
}

/** Whether a secret is set (for "key configured" badges) — never its value. */
export function hasSecret(name: string): boolean {
  return SECRET_NAME.test(name) && typeof process.env[name] === "string" && process.env[name]!.trim() !== "";
}

/** The secret's value, for provider clients on the server only. */
export function readSecret(name: string): string | undefined {
  if (!SECRET_NAME.test(name)) throw new EnvError(`"${name}" is not a valid environment variable name`);
  const v = process.env[name];
  return v && v.trim() !== "" ? v : undefined;
}

/** Checksums of FairFace weights an admin vouched for: labels from them are comparable with the papers'. */
/** FOF_FACE_CHIPS as the chip method labels record. */
export function faceChipMethod(e: Pick<Env, "FOF_FACE_CHIPS"> = env()): "dlib-5pt-800" | "square" {
  // "dlib-5pt-800": lib/faces/provenance.ts's ALIGNED_CHIP (FairFace's chips, cut as predict.py cuts them)
  return e.FOF_FACE_CHIPS === "square" ? "square" : "dlib-5pt-800";
}

export function verifiedFairFace(e: Pick<Env, "FAIRFACE_MODEL_SHA256" | "FOF_FAIRFACE_SHA256"> = env()): string[] {
  return [...(e.FAIRFACE_MODEL_SHA256 ? [e.FAIRFACE_MODEL_SHA256.toLowerCase()] : []), ...(e.FOF_FAIRFACE_SHA256 ?? [])];
}
