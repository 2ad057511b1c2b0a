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

/** Path segments after which the next segment is a secret (compared after percent-decoding, case-insensitively). */
const SECRET_PATH_BEFORE = new Set(["join"]);
/** A path's segments: "/" followed by what runs to the next "/", "?", "#", space or quote. */
const SEGMENT = /\/([^/?#\s"'<>]*)/g;

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
  // Every segment after "join" (however written: /JOIN/, /%6Aoin/) to the end of that path: a router resolves
  // "/join/./T", "/join/x/../T" to the token, so no later segment of it is kept.
  let secretRest = false;
  let pathEnd = -1;
  let out = text.replace(SEGMENT, (whole, segment: string, at: number) => {
    if (at !== pathEnd) secretRest = false; // another path begins
    pathEnd = at + whole.length;
    if (segment === "") return whole; // "//" is one separator to a router
    if (secretRest) return `/${REDACTED}`;
    secretRest = SECRET_PATH_BEFORE.has(decode(segment).trim().toLowerCase());
    return whole;
  });
  // A parameter begins after "?" or "&" (or ";"), its name runs to "=", its value to the next separator. Its name is
  // compared decoded and reduced to letters and "_" ("Token", "tok%65n", "token%00", "token_" all read as token).
  out = out.replace(/([?&;])([^=&#;\s"'<>]{1,200})=([^&#;\s"'<>]*)/g, (whole, sep: string, name: string) => {
    const plain = decode(name)
      .toLowerCase()
      .replace(/[^a-z_]/g, "");
    return SECRET_PARAMS.has(plain) || SECRET_PARAMS.has(plain.replace(/_+$/, "")) ? `${sep}${name}=${REDACTED}` : whole;
  });
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
