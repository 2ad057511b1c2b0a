// What either verifier reads at most, in one place: `fof verify` (streaming the archive from disk) and /verify (the
// archive whole in the visitor's browser) must refuse exactly the same bundles, so they share these numbers and apply
// them through the one archive reader (./zip.ts) from the directory, before anything is inflated. A file's size
// limit is the browser's (it holds every file whole); the small files — the ones read whole and parsed, not streamed
// as tables — are capped together, so whitespace padding one of them is refused by both (hostile re-test, 2026-12-07:
// 65 MiB of spaces in scores.json passed /verify while `fof verify` refused it).
import type { ArchiveLimits } from "./zip";
import { ENVELOPE_NAME, MANIFEST_NAME } from "./statement";
import { REPORT_NAME } from "./report-check";
import { DESIGN_NAME, LOG_PROOF_NAME } from "./design-check";
import { IMPORTS_NAME } from "./imports";
import { EXPLANATIONS_NAME } from "./completeness";

export const PUBLIC_KEY_NAME = "signer-public-key.pem";
export const SCORES_NAME = "scores.json";
export const SOFTWARE_NAME = "software.json";

/** The files read whole and parsed (the rest are table files, streamed row by row by `fof verify`). */
export const SMALL_FILES: ReadonlySet<string> = new Set([
  ENVELOPE_NAME,
  MANIFEST_NAME,
  PUBLIC_KEY_NAME,
  SCORES_NAME,
  SOFTWARE_NAME,
  REPORT_NAME,
  "run.json",
  "content.json",
  "models.jsonl",
  "run-models.jsonl",
  DESIGN_NAME,
  LOG_PROOF_NAME,
  IMPORTS_NAME,
  EXPLANATIONS_NAME,
]);

export const BUNDLE_LIMITS: ArchiveLimits = {
  maxFiles: 64,
  maxFileBytes: 512 * 1024 ** 2,
  small: { names: SMALL_FILES, maxBytes: 64 * 1024 ** 2 },
};
