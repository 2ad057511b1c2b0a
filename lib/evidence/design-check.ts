// A bundle against the design signed at its launch (lib/evidence/design.ts), platform-free so `fof verify` and the
// browser's /verify run it alike: the design statement the bundle carries must be signed by the same key, be the run
// the bundle's rows describe — content and its digest, models and their settings, configuration, seed, preset,
// stopping rule — and be in the log (its inclusion proof against a signed checkpoint). With a design the reader held
// before any result existed (`--design`), the carried one must be that one: every difference is named.
import type { BundleCheck, BundleCrypto } from "./check-types";
import { envelopeSchema, IN_TOTO_PAYLOAD_TYPE } from "./envelope";
import { compareDesign, designDigest, designFromRows, designStatementSchema, type DesignPredicate } from "./design";
import { checkImports } from "./import-check";
import { IMPORTS_NAME } from "./imports";
import { provenInLog, signedPayload } from "./log-proof";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

export const DESIGN_NAME = "design.dsse.json";
export const LOG_PROOF_NAME = "log-proof.json";

type Row = Record<string, unknown>;
/** A signed design statement's predicate (an envelope, or `fof design`'s output { design, log }), or why not. */
async function designIn(bytes: Uint8Array, crypto: BundleCrypto, key: string): Promise<DesignPredicate | string> {
  let raw: unknown;
  try {
    raw = JSON.parse(decode(bytes));
  } catch {
    return "not JSON";
  }
  const envelope = envelopeSchema.safeParse((raw as { design?: unknown })?.design ?? raw);
  if (!envelope.success) return "not a DSSE envelope";
  const payload = await signedPayload(envelope.data, IN_TOTO_PAYLOAD_TYPE, crypto, key).catch(() => null);
  if (payload === null) return "its signature does not verify with the key (another signer, or changed)";
  const statement = designStatementSchema.safeParse(payload);
  if (!statement.success) return "not a design statement";
  if (statement.data.subject[0].digest.sha256 !== designDigest(statement.data.predicate)) return "its subject is not the digest of its design";
  return statement.data.predicate;
}

export async function checkDesign(
  files: Record<string, Uint8Array | undefined>,
  rows: { run: Row; content: Row; models: Row[]; runModels: Row[] },
  crypto: BundleCrypto,
  opts: { key: string; format: string; heldDesign?: Uint8Array },
): Promise<BundleCheck> {
  const fail = (detail: string): BundleCheck => ({ check: "design", ok: false, detail });
  const carriedBytes = files[DESIGN_NAME];
  if (!carriedBytes) {
    if (opts.heldDesign) return fail("the bundle carries no design statement, but you hold one: it cannot be checked against it");
    if (opts.format !== "fof-evidence/v1") return fail(`${DESIGN_NAME} is missing`);
    return {
      check: "design",
      ok: true,
      detail:
        "none carried (a format-v1 bundle): nothing shows this run's design was fixed before its results. Runs launched since the workbench logs designs carry one — if this run should, ask for its design (GET /api/v1/runs/:id/design) and verify with --design",
    };
  }
  const carried = await designIn(carriedBytes, crypto, opts.key);
  if (typeof carried === "string") return fail(`${DESIGN_NAME}: ${carried}`);
  // What the bundle's rows say the run was, next to what was signed at launch. Planned count and budget may change
  // later (a cancel, a raised budget): stated, not refused; everything else must be as signed.
  const derived = designFromRows({
    run: rows.run as Parameters<typeof designFromRows>[0]["run"],
    content: rows.content as Parameters<typeof designFromRows>[0]["content"],
    models: rows.models.map((m) => ({ id: String(m.id), slug: String(m.slug) })),
    runModels: rows.runModels.map((m) => ({ modelConfigId: String(m.modelConfigId), settingsJson: String(m.settingsJson) })),
    helperId: carried.models.find((m) => m.role === "helper")?.modelConfigId ?? null,
    launcher: carried.launcher,
  });
  const notes: string[] = [];
  // The planned count may fall only as a run's rules say it does: a cancel (or a failure) while planning keeps what was
  // written, an adaptive run's stop keeps what its last look counted. The plan check proves the rows kept are that
  // prefix, or those waves (lib/features/evidence/plan-check.ts); the stopping check, the stop. Nothing else may.
  if (derived.plannedCount !== carried.plannedCount) {
    const stopped = (() => {
      try {
        return Boolean((JSON.parse(String(rows.run.adaptiveJson ?? "null")) as { outcome?: unknown } | null)?.outcome);
      } catch {
        return false;
      }
    })();
    const cut = rows.run.status === "cancelled" || rows.run.status === "failed";
    const explained = derived.plannedCount < carried.plannedCount && (cut || stopped);
    if (!explained)
      return fail(
        `the bundle is not the run designed at launch: plannedCount: the design said ${carried.plannedCount}, the bundle says ${derived.plannedCount} (a ${String(rows.run.status)} run${stopped ? "" : " that no stopping rule stopped"})`,
      );
    notes.push(
      `planned ${carried.plannedCount} at launch, ${derived.plannedCount} kept (${cut ? `${String(rows.run.status)} while planning` : "stopped by its rule"})`,
    );
  }
  if (derived.budgetUsd !== carried.budgetUsd) notes.push(`budget $${carried.budgetUsd ?? "none"} at launch, $${derived.budgetUsd ?? "none"} now`);
  const differ = compareDesign(carried, { ...derived, plannedCount: carried.plannedCount, budgetUsd: carried.budgetUsd });
  if (differ.length) return fail(`the bundle is not the run designed at launch: ${differ.slice(0, 10).join("; ")}`);
  // In the log: the leaf is the carried statement's bytes, proven against a checkpoint signed by the same key.
  const proofBytes = files[LOG_PROOF_NAME];
  if (!proofBytes) return fail(`${LOG_PROOF_NAME} is missing: the design's place in the log cannot be shown`);
  let proof: Parameters<typeof provenInLog>[1];
  try {
    proof = JSON.parse(decode(proofBytes));
  } catch {
    return fail(`${LOG_PROOF_NAME} is not JSON`);
  }
  const logged = await provenInLog(carriedBytes, proof, crypto, opts.key);
  if (typeof logged === "string") return fail(logged.startsWith("not proven") ? `the design is ${logged}` : logged);
  let detail = `signed at launch (${carried.run.launchedAt}), the run the rows describe, entry ${logged.index} of the log of ${logged.size} (checkpoint ${logged.time})`;
  // An import's batches: signed and logged as they were committed (./import-check.ts).
  const imports = await checkImports(files[IMPORTS_NAME], rows.run, crypto, opts.key);
  if (typeof imports === "string") return fail(imports);
  if (imports) detail += `; ${imports.held}`;
  if (opts.heldDesign) {
    const held = await designIn(opts.heldDesign, crypto, opts.key);
    if (typeof held === "string") return fail(`the design you hold: ${held}`);
    const against = compareDesign(held, carried);
    if (against.length) return fail(`the bundle is not the run of the design you hold: ${against.slice(0, 10).join("; ")}`);
    detail += "; the very design you held";
  }
  return { check: "design", ok: true, detail: notes.length ? `${detail} (${notes.join("; ")})` : detail };
}
