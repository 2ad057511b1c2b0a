// A run's design statement and the transparency log's checkpoints, as formats (docs/evidence.md, docs/schemas):
// platform-free, so the server that signs them, `fof verify`, `fof log` and the browser's /verify read them alike.
//
// The design statement is an in-toto Statement (v1) of the project's own predicate type, signed (DSSE, Ed25519) at
// launch, before any provider call: what the run was set to be — content and its digest, the models' declared
// identities and settings, configuration, seed, preset, planned count, stopping rule, budget, launch time, the
// launcher's pseudonym and any answers of other runs it may take. Its subject is the run (a digest of the predicate's canonical JSON). An outsider who holds
// it before results exist can later check the bundle against it (compareDesign names every difference).
//
// A checkpoint is a signed statement of the log's size and root hash (RFC 9162) at a time; two checkpoints and a
// consistency proof show the later log only appended to the earlier one.
import { sha256 as sha256Bytes } from "@noble/hashes/sha2.js";
import { z } from "zod";
import { declaredSettings, stoppingRule } from "./declared";
import { toHex } from "./merkle";
import { byCodeUnits } from "../core/order";
import { instantMs } from "./instant";

const DESIGN_PREDICATE_TYPE = "https://fact-or-fair.dev/evidence/design/v1";
export const CHECKPOINT_PAYLOAD_TYPE = "application/vnd.fact-or-fair.checkpoint+json";
export const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const designPredicateSchema = z
  .object({
    run: z
      .object({
        id: z.string().max(64),
        name: z.string().max(400),
        suite: z.string().max(64),
        modality: z.string().max(10),
        preset: z.string().max(40),
        seed: z.number().int(),
        launchedAt: z.string().max(40),
      })
      .strict(),
    content: z.object({ version: z.string().max(200), sha256: z.string().max(100), contentSha256: sha256 }).strict(),
    models: z
      .array(z.object({ modelConfigId: z.string().max(64), slug: z.string().max(200), role: z.enum(["audited", "helper"]), settings: z.unknown() }).strict())
      .max(200),
    configuration: z.unknown(),
    plannedCount: z.number().int().min(0),
    budgetUsd: z.number().nullable(),
    /** an adaptive run's rule as set at launch (target, schedule, level): null for a run of fixed size */
    stopping: z.unknown().nullable(),
    launcher: z.string().max(64).nullable(),
    /**
     * answers of other runs the launch allowed it to take ({fromRun?, maxAgeHours?}); absent: only its own. Absent
     * rather than null when not asked, so designs signed before it existed keep their digest.
     */
    answerReuse: z
      .object({ fromRun: z.string().max(64).optional(), maxAgeHours: z.number().optional() })
      .strict()
      .optional(),
    /**
     * the scoring rules it is scored under (lib/results/scoring-rules.ts); absent on designs signed before they were
     * recorded, which keep their digest
     */
    rules: z
      .object({ scoring: z.string().max(40).optional(), quantile: z.string().max(20) })
      .strict()
      .optional(),
  })
  .strict();
export type DesignPredicate = z.infer<typeof designPredicateSchema>;

export const designStatementSchema = z
  .object({
    _type: z.literal(STATEMENT_TYPE),
    subject: z.array(z.object({ name: z.string().max(200), digest: z.object({ sha256 }).strict() }).strict()).length(1),
    predicateType: z.literal(DESIGN_PREDICATE_TYPE),
    predicate: designPredicateSchema,
  })
  .strict();
export type DesignStatement = z.infer<typeof designStatementSchema>;

/** JSON with object keys sorted at every level: one byte string per value (the subject's digest is taken over it). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export function designStatementFor(predicate: DesignPredicate, predicateSha256: string): DesignStatement {
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: `run/${predicate.run.id}`, digest: { sha256: predicateSha256 } }],
    predicateType: DESIGN_PREDICATE_TYPE,
    predicate,
  };
}

export const checkpointSchema = z
  .object({
    /** the log's origin: the workbench's public URL */
    origin: z.string().max(400),
    size: z.number().int().min(0),
    /** the RFC 9162 tree head, hex */
    rootHash: sha256,
    time: z.string().max(40),
  })
  .strict();
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** Where the held design and the bundle's differ: every field, named by its path ("configuration.contexts", …). */
export function compareDesign(held: DesignPredicate, carried: DesignPredicate): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (canonicalJson(a) === canonicalJson(b)) return;
    if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
      return;
    }
    const show = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v).slice(0, 120));
    out.push(`${at}: the design said ${show(a)}, the bundle says ${show(b)}`);
  };
  walk(held, carried, "");
  return out;
}

export const sha256Hex = (s: string) => toHex(sha256Bytes(new TextEncoder().encode(s)));

/** The launch as the design states it: a Date (the database's) or an instant (a bundle's, ./instant.ts); anything
 * else is stated as it is, so a design check names it rather than a reader's clock reading it as local time. */
function launchedAt(v: Date | string): string {
  if (v instanceof Date) return v.toISOString();
  const ms = instantMs(v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : `not an instant: ${String(v).slice(0, 40)}`;
}

/**
 * A run's design from its rows: at launch from the database (lib/features/ledger/design.ts), and by a verifier from
 * the rows a bundle carries — the same function, so the two compare field for field. `helperId`: the helper model's
 * config id, if the run has one; `launcher`: the launcher's pseudonym (a bundle does not carry it).
 */
export function designFromRows(r: {
  run: {
    id: string;
    name: string;
    suiteId: string;
    modality: string;
    preset: string;
    seed: number;
    createdAt: Date | string;
    configJson: string;
    plannedCount: number;
    budgetUsd: number | null;
    adaptiveJson: string | null;
    /** absent in bundles written before answers could be reused */
    reuseJson?: string | null;
    /** absent in bundles written before scoring rules were recorded */
    rulesJson?: string | null;
  };
  content: { version: string; sha256: string; contentJson: string };
  models: Array<{ id: string; slug: string }>;
  runModels: Array<{ modelConfigId: string; settingsJson: string }>;
  helperId?: string | null;
  launcher: string | null;
}): DesignPredicate {
  const slug = new Map(r.models.map((m) => [m.id, m.slug]));
  return {
    run: {
      id: r.run.id,
      name: r.run.name,
      suite: r.run.suiteId,
      modality: r.run.modality,
      preset: r.run.preset,
      seed: r.run.seed,
      launchedAt: launchedAt(r.run.createdAt),
    },
    content: { version: r.content.version, sha256: r.content.sha256, contentSha256: sha256Hex(r.content.contentJson) },
    models: [...r.runModels]
      .sort((a, b) => byCodeUnits(a.modelConfigId, b.modelConfigId))
      .map((m) => ({
        modelConfigId: m.modelConfigId,
        slug: slug.get(m.modelConfigId) ?? m.modelConfigId,
        role: m.modelConfigId === r.helperId ? ("helper" as const) : ("audited" as const),
        settings: declaredSettings(m.settingsJson),
      })),
    configuration: JSON.parse(r.run.configJson) as unknown,
    plannedCount: r.run.plannedCount,
    budgetUsd: r.run.budgetUsd,
    stopping: stoppingRule(r.run.adaptiveJson),
    launcher: r.launcher,
    ...(r.run.reuseJson ? { answerReuse: JSON.parse(r.run.reuseJson) as DesignPredicate["answerReuse"] } : {}),
    ...(r.run.rulesJson ? { rules: JSON.parse(r.run.rulesJson) as DesignPredicate["rules"] } : {}),
  };
}

/** The predicate's digest: the subject of its Statement. */
export const designDigest = (p: DesignPredicate) => sha256Hex(canonicalJson(p));
