// A request line the app cannot read answers 400 before any page or route sees it: a path whose percent-encoding
// does not decode (`/runs/%ff`) made Next.js throw while decoding a dynamic segment, an anonymous 500.

/** Why a request target is unreadable, or null when it is fine. */
export function malformedTarget(url: string | undefined): string | null {
  if (!url) return "no request target";
  if (url.length > 8192) return "request target longer than 8 KiB";
  const path = url.split("?")[0];
  try {
    for (const segment of path.split("/")) decodeURIComponent(segment);
  } catch {
    return "malformed percent-encoding in the path";
  }
  return null;
}
