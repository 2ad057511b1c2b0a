import { ProviderError } from "./types";

/** Parses Retry-After (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The longest excerpt of a provider's error text kept in an outcome's reason. */
export const MAX_ERROR_EXCERPT = 300;

/**
 * A provider's error text as it may be stored and shown: anything that looks like a credential removed, control
 * characters escaped (\uXXXX), whitespace collapsed, cut to a short excerpt — an error body is hostile data.
 */
export function redact(text: string, secrets: Array<string | undefined> = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  out = out.replace(/\b(sk|r8|rpl|key)[-_][A-Za-z0-9_-]{8,}\b/g, "[redacted]").replace(/Bearer\s+\S+/gi, "Bearer [redacted]");
  out = out.replace(/\s+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return out.length > MAX_ERROR_EXCERPT ? `${out.slice(0, MAX_ERROR_EXCERPT)}…` : out;
}

/** Classifies an HTTP status the way every provider here needs. */
export function classifyStatus(status: number | undefined, message: string, retryAfter?: number): ProviderError {
  if (status === 429) return new ProviderError(message, "rate_limited", retryAfter, status);
  if (status === undefined || status === 408 || status === 409 || status >= 500) return new ProviderError(message, "retryable", retryAfter, status);
  return new ProviderError(message, "fatal", undefined, status);
}
