// `fof verify <bundle> [--key <public key>]`: checks a bundle without the server or its database — the signature
// (against the given key, else only the bundle's own key, which proves integrity but not origin), the Statement's
// subject against the manifest, every file's SHA-256 and size, no file missing or added, every query with its one
// outcome — then re-scores: the bundle's rows go into a scratch database of its own and the same scoring function
// the server ran (./scores.ts) recomputes every score with the same seed and resamples, compared leaf by leaf.
import { createHash, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { envelopeSchema, IN_TOTO_PAYLOAD_TYPE, keyIdOf, verifyEnvelope } from "../../evidence/dsse";
import { ENVELOPE_NAME, MANIFEST_NAME, manifestSchema, statementSchema } from "../../evidence/statement";
import { compareScores, type ScoreCheck } from "../../evidence/compare";
import { PUBLIC_KEY_NAME, SCORES_NAME } from "./bundle";
import { TABLE_FILES, type Row, type TableFile } from "./tables";
import { rescore } from "./rescore";

/** What a verifier reads at most: the archive, and any one file unpacked (checked before it is decoded). */
const VERIFY_LIMITS = { archiveBytes: 2 * 1024 ** 3, fileBytes: 1024 ** 3, files: 64 };

interface Check {
  check: string;
  ok: boolean;
  detail: string;
}

export interface VerifyReport {
  ok: boolean;
  run: string | null;
  signer: { keyid: string | null; trusted: boolean };
  checks: Check[];
  scores: ScoreCheck[];
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

export async function verifyBundle(file: string, opts: { publicKeyPem?: string } = {}): Promise<VerifyReport> {
  const checks: Check[] = [];
  const report: VerifyReport = { ok: false, run: null, signer: { keyid: null, trusted: false }, checks, scores: [] };
  const fail = (check: string, detail: string) => {
    checks.push({ check, ok: false, detail });
    return report;
  };
  const pass = (check: string, detail: string) => checks.push({ check, ok: true, detail });

  const size = statSync(file).size;
  if (size > VERIFY_LIMITS.archiveBytes) return fail("archive", `${size} bytes: over the ${VERIFY_LIMITS.archiveBytes}-byte limit`);
  let entries: Record<string, Uint8Array>;
  const oversized: string[] = [];
  let count = 0;
  try {
    entries = unzipSync(readFileSync(file), {
      // sizes are read from the archive's directory before anything is inflated
      filter: (f) => {
        count++;
        if (f.originalSize > VERIFY_LIMITS.fileBytes) oversized.push(f.name);
        return count <= VERIFY_LIMITS.files && f.originalSize <= VERIFY_LIMITS.fileBytes;
      },
    });
  } catch (e) {
    return fail("archive", `not a readable zip archive (truncated or corrupt): ${(e as Error).message}`);
  }
  if (count > VERIFY_LIMITS.files) return fail("archive", `${count} entries: over the limit of ${VERIFY_LIMITS.files}`);
  if (oversized.length) return fail("archive", `${oversized.join(", ")}: over the ${VERIFY_LIMITS.fileBytes}-byte limit per file`);
  pass("archive", `${Object.keys(entries).length} files`);

  // The signature over the Statement.
  const rawEnvelope = entries[ENVELOPE_NAME];
  if (!rawEnvelope) return fail("signature", `${ENVELOPE_NAME} is missing`);
  const envelope = envelopeSchema.safeParse(JSON.parse(Buffer.from(rawEnvelope).toString("utf8")));
  if (!envelope.success || envelope.data.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return fail("signature", `${ENVELOPE_NAME} is not a DSSE envelope of an in-toto Statement`);
  const embedded = entries[PUBLIC_KEY_NAME] ? Buffer.from(entries[PUBLIC_KEY_NAME]).toString("utf8") : null;
  let key;
  try {
    key = createPublicKey(opts.publicKeyPem ?? embedded ?? "");
  } catch {
    return fail("signature", opts.publicKeyPem ? "the given key is not a public key (PEM)" : `${PUBLIC_KEY_NAME} is missing or unreadable: pass --key`);
  }
  report.signer = { keyid: keyIdOf(key), trusted: Boolean(opts.publicKeyPem) };
  const payload = verifyEnvelope(envelope.data, key);
  if (!payload)
    return fail(
      "signature",
      opts.publicKeyPem ? "does not verify with the given key (signed by another key, or changed)" : "does not verify with the bundle's own key",
    );
  pass(
    "signature",
    opts.publicKeyPem
      ? `Ed25519, key ${report.signer.keyid}`
      : `Ed25519 by the bundle's own key ${report.signer.keyid} — integrity only: pass --key to check who signed`,
  );

  // The Statement's subject is the manifest; the manifest names every other file.
  const statement = statementSchema.safeParse(JSON.parse(payload.toString("utf8")));
  if (!statement.success) return fail("statement", "the signed payload is not this project's in-toto Statement");
  const manifestBytes = entries[MANIFEST_NAME];
  if (!manifestBytes) return fail("manifest", `${MANIFEST_NAME} is missing`);
  if (statement.data.subject[0].digest.sha256 !== sha(manifestBytes))
    return fail("manifest", `${MANIFEST_NAME} is not the one the Statement signs (SHA-256 differs)`);
  const manifest = manifestSchema.safeParse(JSON.parse(Buffer.from(manifestBytes).toString("utf8")));
  if (!manifest.success) return fail("manifest", `${MANIFEST_NAME} is not a manifest`);
  report.run = manifest.data.run;
  pass("statement", `${statement.data.predicateType}, run ${statement.data.predicate.run.id} (${statement.data.predicate.run.suite})`);

  const listed = new Set(manifest.data.files.map((f) => f.path));
  const bad: string[] = [];
  for (const f of manifest.data.files) {
    const b = entries[f.path];
    if (!b) bad.push(`${f.path}: missing`);
    else if (b.length !== f.bytes || sha(b) !== f.sha256) bad.push(`${f.path}: changed (SHA-256 differs from the manifest)`);
  }
  for (const name of Object.keys(entries))
    if (!listed.has(name) && name !== MANIFEST_NAME && name !== ENVELOPE_NAME) bad.push(`${name}: not in the manifest (added)`);
  if (bad.length) return fail("files", bad.join("; "));
  pass("files", `${manifest.data.files.length} files, each SHA-256 as the manifest says`);

  // Nothing left out: every planned query, each finished one with exactly one outcome.
  const rows = {} as Record<TableFile, Row[]>;
  for (const name of TABLE_FILES) {
    const text = Buffer.from(entries[name] ?? new Uint8Array()).toString("utf8");
    rows[name] = name.endsWith(".json")
      ? [JSON.parse(text) as Row]
      : text
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Row);
  }
  const run = rows["run.json"][0];
  const queries = rows["queries.jsonl"];
  const outcomeOf = new Map<number, number>();
  for (const o of rows["outcomes.jsonl"]) outcomeOf.set(Number(o.queryId), (outcomeOf.get(Number(o.queryId)) ?? 0) + 1);
  const ids = new Set(queries.map((q) => Number(q.id)));
  const problems: string[] = [];
  if (run.id !== manifest.data.run || run.id !== statement.data.predicate.run.id) problems.push("run.json is another run than the Statement's");
  if (ids.size !== queries.length) problems.push("a query appears twice");
  if (Number(run.plannedCount) !== queries.length) problems.push(`the run planned ${run.plannedCount} queries; the bundle has ${queries.length}`);
  for (const q of queries) {
    const n = outcomeOf.get(Number(q.id)) ?? 0;
    const done = q.status === "answered" || q.status === "refused" || q.status === "failed";
    if (done && n !== 1) problems.push(`query ${q.id} (${q.status}) has ${n} outcomes`);
    if (!done && n) problems.push(`query ${q.id} (${q.status}) has an outcome`);
  }
  for (const id of outcomeOf.keys()) if (!ids.has(id)) problems.push(`an outcome of query ${id}, which the bundle does not have`);
  if (problems.length) return fail("completeness", problems.slice(0, 20).join("; ") + (problems.length > 20 ? `; and ${problems.length - 20} more` : ""));
  pass("completeness", `${queries.length} queries, ${rows["outcomes.jsonl"].length} outcomes, one per finished query`);

  // Re-scored from the rows with the same code and seed.
  const stated = JSON.parse(Buffer.from(entries[SCORES_NAME] ?? new Uint8Array()).toString("utf8")) as { scores: unknown; seed: number; resamples: number };
  const scratch = mkdtempSync(path.join(os.tmpdir(), "fof-verify-"));
  try {
    const recomputed = await rescore(rows, String(run.id), scratch);
    report.scores = compareScores(stated, recomputed);
  } catch (e) {
    return fail("scores", `could not be recomputed: ${(e as Error).message}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const wrong = report.scores.filter((s) => !s.equal);
  if (wrong.length)
    return fail(
      "scores",
      `${wrong.length} of ${report.scores.length} values do not follow from the data: ${wrong
        .slice(0, 5)
        .map((w) => w.path)
        .join("; ")}`,
    );
  pass("scores", `${report.scores.length} values recomputed from the answers (seed ${stated.seed}, ${stated.resamples} resamples): all equal`);
  report.ok = checks.every((c) => c.ok);
  return report;
}
