// An import's batches in a bundle (./imports.ts): each signed by the key, a statement of this run's import numbered
// in order from 1, and in the log by its proof. Part of the design check (./design-check.ts), platform-free. The
// images themselves are compared with the batches by the plan check (lib/features/evidence/plan-images.ts).
import type { BundleCrypto } from "./check-types";
import { envelopeSchema, IN_TOTO_PAYLOAD_TYPE } from "./envelope";
import { importStatementSchema, importsFileSchema, importSubjectHolds, IMPORTS_NAME, type ImportedImage } from "./imports";
import { payloadOf, provenInLog, signedPayload } from "./log-proof";

type Row = Record<string, unknown>;

/**
 * null: not an import (and no batches carried); a string: why the batches do not hold; `held`: what they show. Only
 * a run of preset "import" has batches (its images were made elsewhere: the batches are its plan).
 */
export async function checkImports(bytes: Uint8Array | undefined, run: Row, crypto: BundleCrypto, key: string): Promise<{ held: string } | string | null> {
  const imported = run.preset === "import";
  if (!imported) return bytes ? `${IMPORTS_NAME} is carried by a run that is not an import` : null;
  if (!bytes) return `${IMPORTS_NAME} is missing: which images were imported, signed as they were committed, cannot be shown`;
  let file;
  try {
    file = importsFileSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return `${IMPORTS_NAME} is not an imports file`;
  }
  if (!file.entries.length) return `${IMPORTS_NAME} lists no import`;
  let images = 0;
  for (const [i, e] of file.entries.entries()) {
    const at = `${IMPORTS_NAME}: import ${i + 1}`;
    const envelope = envelopeSchema.safeParse(safeJson(e.body));
    if (!envelope.success) return `${at} is not a DSSE envelope`;
    const statement = importStatementSchema.safeParse(await signedPayload(envelope.data, IN_TOTO_PAYLOAD_TYPE, crypto, key).catch(() => null));
    if (!statement.success) return `${at}: not an import statement signed by the key`;
    if (!importSubjectHolds(statement.data)) return `${at}: its subject is not the digest of its predicate`;
    const p = statement.data.predicate;
    if (p.run.id !== run.id) return `${at} is another run's (${p.run.id})`;
    if (p.batch !== i + 1) return `${at} is numbered ${p.batch}: the batches are not 1…${file.entries.length} in order`;
    const logged = await provenInLog(new TextEncoder().encode(e.body), e.proof, crypto, key);
    if (typeof logged === "string") return `${at}: ${logged}`;
    images += p.images.length;
  }
  const n = file.entries.length;
  return { held: `${images} image${images === 1 ? "" : "s"} imported in ${n} batch${n === 1 ? "" : "es"}, each signed and logged as it was committed` };
}

/** The images an imports file lists, read after its check held (no signature is verified here). */
export function importedImages(bytes: Uint8Array | undefined): ImportedImage[] | null {
  if (!bytes) return null;
  const file = importsFileSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
  return file.entries.flatMap((e) => importStatementSchema.parse(payloadOf(envelopeSchema.parse(JSON.parse(e.body)))).predicate.images);
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
