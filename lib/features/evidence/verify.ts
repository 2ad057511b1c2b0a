// `fof verify <bundle> [--key <public key>]`: checks a bundle without the server or its database, streaming the
// archive twice in bounded memory. Pass one hashes every entry and keeps only the small ones: the signature (against
// the given key, else only the bundle's own key, which proves integrity but not origin), the Statement's subject
// against the manifest, every file's SHA-256 and size, no file missing or added. Pass two streams every table file (queries,
// outcomes, images, faces, labels …) into a scratch database of its own, checking the rows are whole as it goes;
// then the same scoring function the server ran (./scores.ts) recomputes every score, compared value by value.
import { createHash, createPublicKey, verify as verifySignature, type Hash } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { envelopeSchema, IN_TOTO_PAYLOAD_TYPE, keyIdOf, verifyEnvelope } from "../../evidence/dsse";
import { ENVELOPE_NAME, MANIFEST_NAME, manifestSchema, statementSchema } from "../../evidence/statement";
import { readKeyInput } from "../../evidence/key-input";
import { compareScores, type ScoreCheck } from "../../evidence/compare";
import { rulesProblem } from "../../results/scoring-rules";
import { BUNDLE_LIMITS, PUBLIC_KEY_NAME, SCORES_NAME, SMALL_FILES } from "../../evidence/limits";
import { reportCheck } from "../../evidence/report-check";
import { replanCheck } from "./plan-check";
import { insertBatch, insertHead, type Row } from "./tables";
import { scratchDatabase } from "./rescore";
import { evidenceScores } from "./scores";
import { scanZip } from "./scan";
import { recheckLooks } from "./looks";
import { explanationsVerdict, planVerdict, readingsVerdict, scoresVerdict, stoppingVerdict } from "../../evidence/verdicts";
import { recheckExplanations } from "./explanations";
import { rereadAnswers } from "./readings";
import { Completeness, EXPLANATIONS_NAME, requiredFiles, runReasoned, TABLE_FILE_NAMES, TABLE_FILES, type TableFileName } from "../../evidence/completeness";
import { checkDesign, DESIGN_NAME, LOG_PROOF_NAME } from "../../evidence/design-check";
import { importedImages } from "../../evidence/import-check";
import { IMPORTS_NAME } from "../../evidence/imports";
import { headProblems } from "../../evidence/instant";

/** node's crypto in the shape the platform-free checks take (lib/evidence/check.ts). */
const nodeCrypto = {
  sha256: async (b: Uint8Array) => createHash("sha256").update(b).digest("hex"),
  verify: async (message: Uint8Array, sig: Uint8Array, pem: string) => verifySignature(null, message, createPublicKey(pem), sig),
};

/** The archive itself at most (a ZIP without ZIP64); what it may hold is ../../evidence/limits.ts's, /verify's too. */
const ARCHIVE_BYTES = 4 * 1024 ** 3 - 1;
const BATCH = 2000;

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

/** Text as the browser's verifier decodes it (TextDecoder: a byte-order mark is not part of the text), so both read alike. */
const utf8 = (b: Uint8Array) => new TextDecoder().decode(b);

/** How many looks run.json records (0: a run of fixed size). */
const adaptiveLooks = (run: Row) => {
  try {
    return (JSON.parse(String(run.adaptiveJson)) as { looks?: unknown[] }).looks?.length ?? 0;
  } catch {
    return 0;
  }
};

export async function verifyBundle(file: string, opts: { publicKeyPem?: string; heldDesign?: Uint8Array } = {}): Promise<VerifyReport> {
  const checks: Check[] = [];
  const report: VerifyReport = { ok: false, run: null, signer: { keyid: null, trusted: false }, checks, scores: [] };
  const fail = (check: string, detail: string) => {
    checks.push({ check, ok: false, detail });
    return report;
  };
  const pass = (check: string, detail: string) => checks.push({ check, ok: true, detail });
  const limits = BUNDLE_LIMITS;

  const size = statSync(file).size;
  if (size > ARCHIVE_BYTES) return fail("archive", `${size} bytes: over the ${ARCHIVE_BYTES}-byte limit`);

  // Pass one: every entry hashed; the small ones kept.
  const hashes = new Map<string, { hash: Hash; bytes: number; done: boolean }>();
  const kept = new Map<string, Buffer[]>();
  try {
    await scanZip(
      file,
      {
        open: (name) => {
          if (hashes.has(name)) throw new Error(`${name} appears twice`);
          hashes.set(name, { hash: createHash("sha256"), bytes: 0, done: false });
          if (SMALL_FILES.has(name)) kept.set(name, []);
          return true;
        },
        data: (name, chunk, final) => {
          const h = hashes.get(name)!;
          h.hash.update(chunk);
          h.bytes += chunk.length;
          h.done = final;
          const k = kept.get(name);
          // (their sizes were held to BUNDLE_LIMITS from the directory, and the reader holds them to those sizes)
          if (k) k.push(Buffer.from(chunk));
        },
      },
      limits,
    );
  } catch (e) {
    return fail("archive", `refused: ${(e as Error).message}`);
  }
  const cut = [...hashes].filter(([, h]) => !h.done).map(([n]) => n);
  if (!hashes.size) return fail("archive", "not a zip archive (no entries)");
  if (cut.length) return fail("archive", `truncated: ${cut.join(", ")} ends early`);
  pass("archive", `${hashes.size} files`);
  const bytesOf = (name: string) => (kept.has(name) ? Buffer.concat(kept.get(name)!) : null);
  const json = <T>(name: string): T | null => {
    const b = bytesOf(name);
    try {
      return b ? (JSON.parse(utf8(b)) as T) : null;
    } catch {
      return null;
    }
  };

  // The signature over the Statement.
  const envelope = envelopeSchema.safeParse(json(ENVELOPE_NAME));
  if (!envelope.success || envelope.data.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return fail("signature", `${ENVELOPE_NAME} is missing or not a DSSE envelope of an in-toto Statement`);
  const embedded = bytesOf(PUBLIC_KEY_NAME) ? utf8(bytesOf(PUBLIC_KEY_NAME)!) : null;
  // the PEM, or the key address's JSON (as a browser shows it); anything else is not a key, whatever the bundle is
  const given = opts.publicKeyPem === undefined ? null : readKeyInput(opts.publicKeyPem);
  if (given && "problem" in given) return fail("key", given.problem);
  // the bundle's own key read as a given one is — one PEM public key block — as /verify reads it: node's
  // createPublicKey alone would also take a private key or a certificate, which the browser's WebCrypto does not
  const own = given || embedded === null ? null : readKeyInput(embedded);
  if (own && "problem" in own) return fail("signature", `${PUBLIC_KEY_NAME}: ${own.problem}`);
  let key;
  try {
    key = createPublicKey(given?.pem ?? own?.pem ?? "");
  } catch {
    return fail("signature", opts.publicKeyPem ? "the given key is not a public key (PEM)" : `${PUBLIC_KEY_NAME} is missing or unreadable: pass --key`);
  }
  if (key.asymmetricKeyType !== "ed25519") return fail("signature", "the key is not an Ed25519 public key");
  report.signer = { keyid: keyIdOf(key), trusted: Boolean(opts.publicKeyPem) };
  const keyPem = key.export({ type: "spki", format: "pem" }).toString();
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
  let statementJson: unknown = null;
  try {
    statementJson = JSON.parse(utf8(payload));
  } catch {
    // refused below
  }
  const statement = statementSchema.safeParse(statementJson);
  if (!statement.success) return fail("statement", "the signed payload is not this project's in-toto Statement");
  const manifestHash = hashes.get(MANIFEST_NAME);
  if (!manifestHash) return fail("manifest", `${MANIFEST_NAME} is missing`);
  if (statement.data.subject[0].digest.sha256 !== manifestHash.hash.copy().digest("hex"))
    return fail("manifest", `${MANIFEST_NAME} is not the one the Statement signs (SHA-256 differs)`);
  const manifest = manifestSchema.safeParse(json(MANIFEST_NAME));
  if (!manifest.success) return fail("manifest", `${MANIFEST_NAME} is not a manifest`);
  report.run = manifest.data.run;
  pass("statement", `${statement.data.predicateType}, run ${statement.data.predicate.run.id} (${statement.data.predicate.run.suite})`);

  const listed = new Set(manifest.data.files.map((f) => f.path));
  const bad: string[] = [];
  for (const f of manifest.data.files) {
    const h = hashes.get(f.path);
    if (!h) bad.push(`${f.path}: missing`);
    else if (h.bytes !== f.bytes || h.hash.copy().digest("hex") !== f.sha256) bad.push(`${f.path}: changed (SHA-256 differs from the manifest)`);
  }
  for (const name of hashes.keys()) if (!listed.has(name) && name !== MANIFEST_NAME && name !== ENVELOPE_NAME) bad.push(`${name}: not in the manifest (added)`);
  for (const name of requiredFiles(manifest.data.format)) if (!listed.has(name)) bad.push(`${name}: not in the bundle`);
  if (bad.length) return fail("files", bad.join("; "));
  pass("files", `${manifest.data.files.length} files, each SHA-256 as the manifest says`);

  // Pass two: every table file's rows into the scratch database, checked for wholeness as they go.
  const run = json<Row>("run.json")!;
  const lines = (name: string) =>
    utf8(bytesOf(name) ?? Buffer.alloc(0))
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
  let head: { models: Row[]; runModels: Row[] };
  try {
    head = { models: lines("models.jsonl"), runModels: lines("run-models.jsonl") };
  } catch (e) {
    return fail("rows", `the bundle's rows cannot be read back: ${(e as Error).message}`);
  }
  // the run's, content's and models' times before they go in (a time without its offset would be read as local)
  const heads = headProblems({ run, content: json<Row>("content.json"), ...head });
  if (heads.length) return fail("completeness", heads.join("; "));
  const scratch = mkdtempSync(path.join(os.tmpdir(), "fof-verify-"));
  const prisma = scratchDatabase(scratch);
  try {
    await insertHead(prisma, { content: json<Row>("content.json")!, run, ...head });
    const whole = new Completeness(statement.data.predicate.run.id, manifest.data.format);
    const pending = new Map<TableFileName, Row[]>(TABLE_FILES.map((t) => [t.file, []]));
    const rest: Record<string, string> = {};
    const decoders: Record<string, TextDecoder> = {};
    // in table order, so a row's references are in before it
    const flush = async (all = false) => {
      if (!all && ![...pending.values()].some((rows) => rows.length >= BATCH)) return;
      for (const t of TABLE_FILES) {
        const rows = pending.get(t.file)!;
        if (rows.length) await insertBatch(prisma, t.file, rows.splice(0));
      }
    };
    await scanZip(
      file,
      {
        open: (name) => TABLE_FILE_NAMES.has(name),
        data: (name, chunk, final) => {
          const n = name as TableFileName;
          const text = (rest[n] ?? "") + (decoders[n] ??= new TextDecoder()).decode(chunk, { stream: !final });
          const parts = text.split("\n");
          rest[n] = final ? "" : parts.pop()!;
          for (const p of parts) {
            if (!p) continue;
            const row = whole.add(n, JSON.parse(p) as Row);
            if (row) pending.get(n)!.push(row);
          }
        },
      },
      limits,
      () => flush(),
    );
    await flush(true);
    const problems = whole.finish(run);
    if (run.id !== manifest.data.run) problems.push("run.json is another run than the manifest's");
    if (problems.length) return fail("completeness", problems.join("; "));
    pass("completeness", whole.summary);

    // The design signed at launch: the run these rows describe, in the log; and the one the reader held, if given.
    const designed = await checkDesign(
      Object.fromEntries([DESIGN_NAME, LOG_PROOF_NAME, IMPORTS_NAME].map((n) => [n, bytesOf(n) ?? undefined])),
      { run, content: json<Row>("content.json")!, models: lines("models.jsonl"), runModels: lines("run-models.jsonl") },
      nodeCrypto,
      { key: keyPem, format: manifest.data.format, heldDesign: opts.heldDesign },
    );
    checks.push(designed);
    if (!designed.ok) return report;

    // The queries planned again from the signed content, configuration and seed: the rows are the planned ones.
    const planned = planVerdict(await replanCheck(prisma, String(run.id), { imported: importedImages(bytesOf(IMPORTS_NAME) ?? undefined) }));
    checks.push(planned);
    if (!planned.ok) return report;
    // Each stored reading re-derived from its raw answer, before the scores count them.
    const readings = readingsVerdict(await rereadAnswers(prisma, String(run.id)));
    checks.push(readings);
    if (!readings.ok) return report;
    // Re-scored from the rows with the same code and seed.
    const stated = json<{ scores: unknown; reviewedScores?: unknown; seed: number; resamples: number }>(SCORES_NAME)!;
    // under the rules the run was launched with (signed in its design), not rules the bundle picks for itself
    const ruled = rulesProblem(run.rulesJson, stated as { scoring?: unknown; quantile?: unknown });
    if (ruled) return fail("scores", ruled);
    try {
      report.scores = compareScores(stated, await evidenceScores(prisma, String(run.id), stated as { scoring?: unknown; quantile?: unknown }), {
        requireCounts: Boolean(run.rulesJson),
      });
    } catch (e) {
      return fail("scores", `could not be recomputed: ${(e as Error).message}`);
    }
    const scored = scoresVerdict(report.scores, stated);
    checks.push(scored);
    if (!scored.ok) return report;
    // a reasoning run's explanations (format v3): the prevalences, agreement and judge re-computed from the readings
    // (a run that did not reason states null: nothing to re-compute, and nothing is listed)
    if (listed.has(EXPLANATIONS_NAME) && (json(EXPLANATIONS_NAME) !== null || runReasoned(run))) {
      let explained;
      try {
        explained = await recheckExplanations(prisma, String(run.id), json(EXPLANATIONS_NAME));
      } catch (e) {
        return fail("explanations", `could not be recomputed: ${(e as Error).message}`);
      }
      report.scores.push(...explained);
      const verdict = explanationsVerdict(explained);
      checks.push(verdict);
      if (!verdict.ok) return report;
    }
    // the stopping rule last: taking the looks again changes the scratch database
    let stopping;
    try {
      stopping = await recheckLooks(prisma, String(run.id));
    } catch (e) {
      return fail("stopping", `the looks could not be taken again: ${(e as Error).message}`);
    }
    report.scores.push(...stopping.values);
    const stopped = stoppingVerdict(stopping, adaptiveLooks(run));
    checks.push(stopped);
    if (!stopped.ok) return report;
    // last, the page a reader opens: rendered again from the signed files, it must be the one carried
    const small = Object.fromEntries([...kept.keys()].map((n) => [n, bytesOf(n)!]));
    checks.push(await reportCheck(small, async (b) => createHash("sha256").update(b).digest("hex"), PUBLIC_KEY_NAME));
  } catch (e) {
    return fail("rows", `the bundle's rows cannot be read back: ${(e as Error).message}`);
  } finally {
    await prisma.$disconnect();
    rmSync(scratch, { recursive: true, force: true });
  }
  report.ok = checks.every((c) => c.ok);
  return report;
}
