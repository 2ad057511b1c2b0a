// The in-toto Statement (v1) a bundle's envelope carries: its one subject is the bundle's manifest (whose SHA-256
// binds every other file), its predicate the project's own type — what the run was and what made the bundle.
// docs/evidence.md documents the predicate.
import { z } from "zod";

const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
/** The project's predicate type: a FACT-OR-FAIR workbench run's evidence, format v1. */
const PREDICATE_TYPE = "https://fact-or-fair.dev/evidence/run/v1";
export const MANIFEST_NAME = "manifest.json";
export const ENVELOPE_NAME = "attestation.dsse.json";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const predicateSchema = z
  .object({
    run: z.object({ id: z.string().max(64), suite: z.string().max(64), suiteVersion: z.string().max(200), status: z.string().max(40) }).strict(),
    createdAt: z.string().max(40),
    software: z.object({ name: z.string().max(100), version: z.string().max(40), commit: z.string().max(64).nullable() }).strict(),
    scores: z
      .object({ file: z.string().max(100), method: z.string().max(400), target: z.string().max(40), seed: z.number().int(), resamples: z.number().int() })
      .strict(),
  })
  .strict();
export type EvidencePredicate = z.infer<typeof predicateSchema>;

export const statementSchema = z
  .object({
    _type: z.literal(STATEMENT_TYPE),
    subject: z.array(z.object({ name: z.string().max(200), digest: z.object({ sha256 }).strict() }).strict()).length(1),
    predicateType: z.literal(PREDICATE_TYPE),
    predicate: predicateSchema,
  })
  .strict();
export type Statement = z.infer<typeof statementSchema>;

export const manifestSchema = z
  .object({
    /** v2: carries the design statement signed at launch and its log proof (lib/evidence/design-check.ts) */
    format: z.enum(["fof-evidence/v1", "fof-evidence/v2", "fof-evidence/v3"]),
    run: z.string().max(64),
    files: z
      .array(z.object({ path: z.string().max(200), sha256, bytes: z.number().int().min(0) }).strict())
      .min(1)
      .max(100),
  })
  .strict();
export type Manifest = z.infer<typeof manifestSchema>;

export function statementFor(manifestSha256: string, predicate: EvidencePredicate): Statement {
  return { _type: STATEMENT_TYPE, subject: [{ name: MANIFEST_NAME, digest: { sha256: manifestSha256 } }], predicateType: PREDICATE_TYPE, predicate };
}
