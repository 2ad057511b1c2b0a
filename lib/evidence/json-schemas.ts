// The published JSON Schemas of what an evidence bundle and the transparency log hold (docs/schemas/evidence-*.json),
// generated from the zod schemas the verifiers parse with: someone writing their own verifier reads the same shapes.
// Checked current by a test (tests/evidence-schemas.test.ts); `npm run evidence:schemas` rewrites them.
import { z } from "zod";
import { manifestSchema, statementSchema } from "./statement";
import { checkpointSchema, designStatementSchema } from "./design";
import { envelopeSchema } from "./envelope";
import { importsFileSchema, importStatementSchema } from "./imports";

const of = (id: string, title: string, description: string, schema: z.ZodType) => ({
  $id: `https://fact-or-fair.dev/schemas/${id}.json`,
  title,
  description,
  ...z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" }),
});

export function evidenceJsonSchemas(): Record<string, Record<string, unknown>> {
  return {
    "evidence-manifest.schema.json": of(
      "evidence-manifest-v2",
      "Evidence bundle manifest",
      "manifest.json: every other file of the bundle with its SHA-256 and size (the Statement's subject is this file's SHA-256). v2 bundles carry design.dsse.json and log-proof.json.",
      manifestSchema,
    ),
    "evidence-statement.schema.json": of(
      "evidence-statement-v1",
      "Evidence bundle Statement (in-toto v1, predicate https://fact-or-fair.dev/evidence/run/v1)",
      "The payload of attestation.dsse.json: the run, when and by what software the bundle was made, how its scores were computed.",
      statementSchema,
    ),
    "evidence-design.schema.json": of(
      "evidence-design-v1",
      "Design statement (in-toto v1, predicate https://fact-or-fair.dev/evidence/design/v1)",
      "Signed at launch before any provider call, appended to the transparency log, carried by v2 bundles as design.dsse.json: what the run was set to be.",
      designStatementSchema,
    ),
    "evidence-import.schema.json": of(
      "evidence-import-v1",
      "Import batch statement (in-toto v1, predicate https://fact-or-fair.dev/evidence/import/v1)",
      "Signed and appended to the transparency log in the transaction that commits an import's images: every image by SHA-256 with the prompt it stands at. A bundle of an import carries every batch in imports.json.",
      importStatementSchema,
    ),
    "evidence-imports-file.schema.json": of(
      "evidence-imports-file-v1",
      "imports.json",
      "An import's batches in a bundle: each the exact bytes of the logged DSSE envelope (body) with its inclusion proof and a signed checkpoint.",
      importsFileSchema,
    ),
    "evidence-checkpoint.schema.json": of(
      "evidence-checkpoint-v1",
      "Transparency log checkpoint (payload type application/vnd.fact-or-fair.checkpoint+json)",
      "The log's size and RFC 9162 root hash at a time, signed with the evidence key in a DSSE envelope.",
      checkpointSchema,
    ),
    "dsse-envelope.schema.json": of(
      "dsse-envelope",
      "DSSE envelope",
      "The envelope every signed file is in (attestation, design, import batches, checkpoint).",
      envelopeSchema,
    ),
  };
}
