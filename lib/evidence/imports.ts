// An import's images, signed as they are committed: each batch of images a user imports (made elsewhere: no query
// was planned or called for them) is an in-toto Statement of the project's import predicate — the run, the model,
// the batch's number and time, and every image by SHA-256 with the prompt it stands at — signed with the evidence
// key and appended to the transparency log in the transaction that stores the images. For an import the batches are
// the plan: a verifier requires the run's images to be exactly the union of its logged batches (an image swapped,
// added or dropped after the import is named). Platform-free: the server signs, `fof verify` and /verify read it.
import { z } from "zod";
import { canonicalJson, sha256Hex, STATEMENT_TYPE } from "./design";

const IMPORT_PREDICATE_TYPE = "https://fact-or-fair.dev/evidence/import/v1";
/** The bundle file that carries an import's signed batches with their log proofs. */
export const IMPORTS_NAME = "imports.json";
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const importedImageSchema = z.object({ sha256, test: z.string().max(64), statisticId: z.string().max(200), level: z.string().max(64) }).strict();
export type ImportedImage = z.infer<typeof importedImageSchema>;

const importPredicateSchema = z
  .object({
    run: z.object({ id: z.string().max(64) }).strict(),
    model: z.string().max(200),
    /** 1 for the import that made the run, then one more for each import added to it */
    batch: z.number().int().min(1),
    importedAt: z.string().max(40),
    images: z.array(importedImageSchema).max(100_000),
  })
  .strict();
export type ImportPredicate = z.infer<typeof importPredicateSchema>;

export const importStatementSchema = z
  .object({
    _type: z.literal(STATEMENT_TYPE),
    subject: z.array(z.object({ name: z.string().max(200), digest: z.object({ sha256 }).strict() }).strict()).length(1),
    predicateType: z.literal(IMPORT_PREDICATE_TYPE),
    predicate: importPredicateSchema,
  })
  .strict();
export type ImportStatement = z.infer<typeof importStatementSchema>;

export function importStatementFor(predicate: ImportPredicate): ImportStatement {
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: `run/${predicate.run.id}/import/${predicate.batch}`, digest: { sha256: sha256Hex(canonicalJson(predicate)) } }],
    predicateType: IMPORT_PREDICATE_TYPE,
    predicate,
  };
}

/** Whether a statement's subject is its predicate's digest. */
export const importSubjectHolds = (s: ImportStatement) => s.subject[0]!.digest.sha256 === sha256Hex(canonicalJson(s.predicate));

/** `imports.json`: every batch's envelope, in batch order, with its place in the log. */
export const importsFileSchema = z
  .object({
    entries: z
      .array(
        z
          .object({
            body: z.string().max(64 * 1024 * 1024),
            proof: z
              .object({
                index: z.number().int().min(0),
                size: z.number().int().min(1),
                leafHash: sha256,
                proof: z.array(sha256).max(64),
                checkpoint: z.unknown(),
              })
              .strict(),
          })
          .strict(),
      )
      .max(10_000),
  })
  .strict();

/** The images the batches list, as "sha256 test statistic level" keys (a multiset: count per key). */
export function importedKeys(images: Iterable<ImportedImage>): Map<string, number> {
  const out = new Map<string, number>();
  for (const im of images) {
    const k = imageKey(im);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}
export const imageKey = (im: ImportedImage) => `${im.sha256} ${im.test} ${im.statisticId} ${im.level}`;
