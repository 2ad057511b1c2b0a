import { ProviderError } from "./types";

/** Parses Retry-After (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Removes anything that looks like a credential from a provider's error text. */
export function redact(text: string, secrets: Array<string | undefined> = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out.replace(/\b(sk|r8|rpl|key)[-_][A-Za-z0-9_-]{8,}\b/g, "[redacted]").replace(/Bearer\s+\S+/gi, "Bearer [redacted]").slice(0, 500);
}

/** Classifies an HTTP status the way every provider here needs. */
export function classifyStatus(status: number | undefined, message: string, retryAfter?: number): ProviderError {
  if (status === 429) return new ProviderError(message, "rate_limited", retryAfter, status);
  if (status === undefined || status === 408 || status === 409 || status >= 500) return new ProviderError(message, "retryable", retryAfter, status);
  return new ProviderError(message, "fatal", undefined, status);
}
