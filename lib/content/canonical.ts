// A content set's identity: its validated declaration as canonical JSON (keys sorted at every level, no $schema)
// and that text's SHA-256. Two folders that say the same thing — one with CSV tables, one all JSON — are one version.
import { createHash } from "node:crypto";
import type { ContentSetInput } from "./schema";

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  return v;
}

export function canonicalContent(set: ContentSetInput): { json: string; sha256: string } {
  const { $schema: _ignored, ...rest } = set;
  const json = JSON.stringify(sorted(rest));
  return { json, sha256: createHash("sha256").update(json).digest("hex") };
}
