// Typed server environment, read nowhere else. Validation errors name the variable and the rule it breaks,
// never its value, so a mistyped key cannot leak into logs or error pages. Nothing here reaches the client:
// no variable is NEXT_PUBLIC_, and secrets are read on demand through readSecret().
import path from "node:path";
import { z } from "zod";

const optionalUrl = z.url({ message: "must be an absolute URL" }).optional();
const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const schema = z.object({
  FOF_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./storage")),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().startsWith("file:", "must be a SQLite file: URL").optional()),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  REPLICATE_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  FAIRFACE_MODEL_URL: z.preprocess(emptyToUndefined, optionalUrl),
  FAIRFACE_MODEL_SHA256: z.preprocess(emptyToUndefined, z.string().regex(/^[0-9a-f]{64}$/i, "must be 64 hex digits").optional()),
  /** a FairFace .onnx file on the server's disk, served to the Label page (instead of public/models/fairface.onnx) */
  FAIRFACE_MODEL_PATH: z.preprocess(emptyToUndefined, z.string().optional()),
  FOF_WORKER: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
});

export type Env = z.infer<typeof schema> & { dataDir: string; databaseUrl: string };

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
    throw new EnvError(`Invalid environment: ${problems.join("; ")}`);
  }
  const dataDir = path.resolve(parsed.data.FOF_DATA_DIR);
  const databaseUrl = parsed.data.DATABASE_URL ?? `file:${path.join(dataDir, "fof.db")}`;
  return { ...parsed.data, dataDir, databaseUrl };
}

let cached: Env | undefined;
export function env(): Env {
  return (cached ??= parseEnv(process.env));
}

/** Names of secrets the app knows about; per-model keys name their own variable (validated by SECRET_NAME). */
export const KNOWN_SECRETS = ["OPENAI_API_KEY", "REPLICATE_API_TOKEN"] as const;
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{1,63}$/;

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
