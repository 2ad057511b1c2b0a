// A request line the app cannot read answers 400 before any page or route sees it: a path whose percent-encoding
// does not decode (`/runs/%ff`) made Next.js throw while decoding a dynamic segment, an anonymous 500; an id of
// thousands of characters is nobody's id. And a request whose headers never end is cut short.
import type { Server } from "node:http";

/** The longest request target, and the longest path segment (ids are 25–40 characters; names, slugs, tokens < 100). */
const TARGET_LIMITS = { maxTarget: 8192, maxSegment: 256 } as const;

/** Why a request target is unreadable, or null when it is fine. */
export function malformedTarget(url: string | undefined): string | null {
  if (!url) return "no request target";
  if (url.length > TARGET_LIMITS.maxTarget) return "request target longer than 8 KiB";
  const path = url.split("?")[0];
  for (const segment of path.split("/"))
    if (segment.length > TARGET_LIMITS.maxSegment) return `a path segment longer than ${TARGET_LIMITS.maxSegment} characters`;
  try {
    for (const segment of path.split("/")) decodeURIComponent(segment);
  } catch {
    return "malformed percent-encoding in the path";
  }
  return null;
}

/**
 * Time limits on a request's arrival. Headers normally arrive in milliseconds: a client whose header block never
 * ends (curl 7.88 drops a cookie past ~8 KiB of URL and sends an unterminated `Cookie:` line; a slowloris does it on
 * purpose) is answered 408 after `headersTimeoutMs`, checked every second rather than Node's default 60 s, checked
 * every 30 s. Bodies (image uploads) keep Node's five minutes.
 */
export function limitRequestTimes(server: Server, { headersTimeoutMs = 10_000 } = {}): void {
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = Math.max(server.requestTimeout, headersTimeoutMs);
}

/** How often the server looks for requests past those limits (an http.createServer option). */
export const CONNECTIONS_CHECK_MS = 1_000;
