// The browser verifier's checks on a dropped bundle, platform-free so they also run under Node (tests): the archive
// through the one reader `fof verify` uses (./zip.ts: canonical structure, CRC-32, sizes and encoding, limits from the
// directory before anything is inflated), then the checks that need no database (./check.ts), then — when they hold
// and a re-scorer is given — the re-scoring and the report, as `fof verify` orders them.
import { ArchiveError, archiveEntries, bytesSource, readEntries } from "./zip";
import { BUNDLE_LIMITS, PUBLIC_KEY_NAME } from "./limits";
import { checkBundleFiles, type BundleCheck, type BundleCrypto } from "./check";
import { reportCheck } from "./report-check";
import type { ScoreCheck } from "./compare";

export interface BytesVerdict {
  checks: BundleCheck[];
  run: string | null;
  trusted: boolean;
  scores: ScoreCheck[];
}

/** The files of a canonical archive, read whole (within the limits), or the archive check that refused it. */
async function unpackBundle(
  bytes: Uint8Array,
  limits = BUNDLE_LIMITS,
): Promise<{ files: Record<string, Uint8Array>; refused?: undefined } | { refused: BundleCheck }> {
  try {
    const src = bytesSource(bytes);
    const entries = await archiveEntries(src, limits);
    const files: Record<string, Uint8Array> = {};
    await readEntries(src, entries, limits, (e) => {
      const parts: Uint8Array[] = [];
      return (chunk, final) => {
        parts.push(chunk);
        if (!final) return;
        const all = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
        let at = 0;
        for (const p of parts) {
          all.set(p, at);
          at += p.length;
        }
        files[e.name] = all;
      };
    });
    return { files };
  } catch (err) {
    return {
      refused: {
        check: "archive",
        ok: false,
        detail: `refused: ${err instanceof ArchiveError ? err.message : `not a readable zip archive (${(err as Error).message})`}`,
      },
    };
  }
}

export async function verifyBundleBytes(
  bytes: Uint8Array,
  opts: {
    crypto: BundleCrypto;
    publicKeyPem?: string;
    /** a design statement the reader held (`fof design` / GET /api/v1/runs/:id/design): the bundle must be its run */
    heldDesign?: Uint8Array;
    /** the re-scoring (the browser: /verifier/rescore.js); without it the checks end before the scores */
    rescore?: (files: Record<string, Uint8Array>) => Promise<{ checks: BundleCheck[]; scores: ScoreCheck[] }>;
  },
): Promise<BytesVerdict> {
  const unpacked = await unpackBundle(bytes);
  if (unpacked.refused) return { checks: [unpacked.refused], run: null, trusted: false, scores: [] };
  const files = unpacked.files;
  const r = await checkBundleFiles(files, opts.crypto, { publicKeyPem: opts.publicKeyPem, embeddedKeyName: PUBLIC_KEY_NAME, heldDesign: opts.heldDesign });
  const checks = [{ check: "archive", ok: true, detail: `${Object.keys(files).length} files` }, ...r.checks];
  if (!checks.every((c) => c.ok) || !opts.rescore) return { ...r, checks, scores: [] };
  const done = await opts.rescore(files);
  // last, as `fof verify`: the page a reader opens, rendered again from the signed files
  if (done.checks.every((c) => c.ok)) done.checks.push(await reportCheck(files, opts.crypto.sha256, PUBLIC_KEY_NAME));
  return { ...r, checks: [...checks, ...done.checks], scores: done.scores };
}
