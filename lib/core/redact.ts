// Secrets that travel in URLs, removed before a URL is written anywhere an operator's tools read (trace spans, log
// lines): an invitation or reset link's token (/join/<token>), the setup token (?token=), single sign-on callbacks'
// code and state, and any query parameter whose name says it is a secret. Applied to every string of a span —
// Next.js's own request spans put the whole request target in http.target — so a value is caught wherever it sits.
// Client-safe (no I/O).

/** Query parameter names whose values are secrets (compared after percent-decoding, case-insensitively). */
const SECRET_PARAMS = new Set([
  "token",
  "code",
  "state",
  "key",
  "apikey",
  "api_key",
  "secret",
  "client_secret",
  "password",
  "access_token",
  "id_token",
  "refresh_token",
  "session_state",
  "signature",
  "sig",
  "otp",
  "ticket",
  "nonce",
  "code_verifier",
]);

/** Path segments that are secrets: what follows these prefixes, up to the next "/", "?" or "#". */
const SECRET_PATH = /(\/join\/)[^/?#\s"'<>]+/g;

export const REDACTED = "[redacted]";

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
};

/**
 * The text with every secret URL part replaced by "[redacted]": the join link's token, and the value of every query
 * parameter named like a secret (token, code, state, key, …). Everything else is kept as it was.
 */
export function redactUrls(text: string): string {
  if (!text) return text;
  let out = text.replace(SECRET_PATH, `$1${REDACTED}`);
  // A parameter begins after "?" or "&" (or ";"), its name runs to "=", its value to the next separator.
  out = out.replace(/([?&;])([^=&#;\s"'<>]{1,200})=([^&#;\s"'<>]*)/g, (whole, sep: string, name: string) =>
    SECRET_PARAMS.has(decode(name).trim().toLowerCase()) ? `${sep}${name}=${REDACTED}` : whole,
  );
  return out;
}

/** A span attribute's value with every string in it redacted (arrays element by element). */
function redactValue<T>(value: T): T {
  if (typeof value === "string") return redactUrls(value) as T;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? redactUrls(v) : v)) as T;
  return value;
}

/** Attributes with every string value redacted (a new object; keys kept). */
export function redactAttributes<A extends Record<string, unknown>>(attributes: A): A {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) out[k] = redactValue(v);
  return out as A;
}
