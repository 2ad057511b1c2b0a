// Which key a model's calls carry, decided on the server: a model names a declared credential (or gets its provider's
// built-in one), and the key is sent only when the model's effective base URL is one the operator bound that
// credential to. Anything else sends no key or fails with a message that names the rule, never a value.
import { declaredCredentials, env, OPENAI_API_URL, readSecret, REPLICATE_API_URL, type DeclaredCredential } from "../env";

export class CredentialError extends Error {
  constructor(
    message: string,
    readonly field: "apiKeyEnv" | "baseUrl" = "apiKeyEnv",
  ) {
    super(message);
    this.name = "CredentialError";
  }
}

export interface CredentialTarget {
  provider: string;
  baseUrl: string | null;
  /** the credential the model names (ModelConfig.apiKeyEnv), or null for its provider's default */
  apiKeyEnv: string | null;
}

/** The built-in credential of a provider: OpenAI's and Replicate's own; an OpenAI-compatible server has none. */
function defaultCredential(provider: string): string | null {
  if (provider === "openai") return "OPENAI_API_KEY";
  if (provider === "replicate") return "REPLICATE_API_TOKEN";
  return null;
}

/** Where a model's calls go: its base URL, else the provider's configured or official endpoint. */
function effectiveBaseUrl(m: Pick<CredentialTarget, "provider" | "baseUrl">): string | null {
  if (m.baseUrl) return m.baseUrl;
  if (m.provider === "openai") return env().OPENAI_BASE_URL ?? OPENAI_API_URL;
  if (m.provider === "replicate") return env().REPLICATE_BASE_URL ?? REPLICATE_API_URL;
  return null;
}

/**
 * A canonical form for comparing endpoints: scheme and host lower-cased, default port dropped, no trailing slash,
 * no query or fragment. URLs with user info are never equal to anything (they would carry a secret of their own).
 */
export function canonicalEndpoint(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  if (u.username || u.password) return null;
  const path = u.pathname.replace(/\/+$/, "");
  return `${u.protocol}//${u.host.toLowerCase()}${path}`;
}

/** Whether a credential may be sent to a URL: exactly one of its endpoints (canonically equal). */
function mayReceive(credential: DeclaredCredential, url: string | null): boolean {
  const target = url ? canonicalEndpoint(url) : null;
  return target !== null && credential.urls.some((u) => canonicalEndpoint(u) === target);
}

/**
 * Checks a model's credential choice against the server's declarations (at save time and again before each call).
 * Returns the credential name the model will use, or null when it sends no key.
 */
export function checkCredential(m: CredentialTarget, declared: DeclaredCredential[] = declaredCredentials()): string | null {
  if (m.provider === "baseline" || m.provider === "import") return null;
  const name = m.apiKeyEnv ?? defaultCredential(m.provider);
  if (!name) return null;
  const credential = declared.find((c) => c.name === name);
  if (!credential) throw new CredentialError(`credential ${name} is not declared on this server (the operator declares credentials in FOF_CREDENTIALS)`);
  const url = effectiveBaseUrl(m);
  if (!mayReceive(credential, url)) {
    const where = url ? (canonicalEndpoint(url) ?? "an invalid URL") : "no endpoint";
    throw new CredentialError(`credential ${name} may only be sent to ${credential.urls.join(", ")}, not to ${where}`, m.baseUrl ? "baseUrl" : "apiKeyEnv");
  }
  return name;
}

/** The key for a model's calls: undefined when it sends none; throws when a needed key is not allowed or not set. */
export function resolveKey(m: CredentialTarget): { name: string | null; key: string | undefined } {
  const name = checkCredential(m);
  if (!name) return { name: null, key: undefined };
  const key = readSecret(name);
  if (!key) throw new CredentialError(`${name} is not set on the server`);
  return { name, key };
}

/** What the Models and Launch pages show for a model's key: which credential, and why it cannot be used (if so). */
export function credentialStatus(m: CredentialTarget): { name: string | null; problem: string | null } {
  try {
    const name = checkCredential(m);
    if (name && !readSecret(name)) return { name, problem: `${name} is not set on the server` };
    return { name, problem: null };
  } catch (e) {
    if (e instanceof CredentialError) return { name: m.apiKeyEnv ?? defaultCredential(m.provider), problem: e.message };
    throw e;
  }
}
