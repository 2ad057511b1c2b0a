// The HTTP API of content sets (issue #57): list, read one version with its prompts for a seed, import (or check,
// with its diff, before importing), approve and retire. Thin calls of lib/features/content; the route files put each
// behind the one boundary with its permission. A refused file answers 400 with every problem named by file, row
// and field.
import { createHash } from "node:crypto";
import { z } from "zod";
import { db } from "../../db";
import { DomainError } from "../../core/errors";
import { ContentError, formatIssue } from "../../content/issues";
import { CONTENT_LIMITS } from "../../content/limits";
import { contentFromFiles } from "../../content/load";
import { contentPlan, contentPrompts } from "./content-reads";
import { PRESETS } from "../../suites/fact-or-fair/presets";
import type { Viewer } from "../../auth/guard";
import { getContentSet, importContentSet, listContentSets, setContentSetStatus, type ContentActor } from "../../features/content/content-sets";

/** The files a content set is made of (lib/content/load.ts); nothing else is accepted. */
const CONTENT_FILES = ["content.json", "statistics.csv", "scenarios.csv"] as const;
const PRESET_NAMES = ["smoke", "quick", "paper"] as const;

export const contentSetListQuery = z.strictObject({
  set: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    .max(CONTENT_LIMITS.idChars)
    .optional()
    .describe("one set's versions only"),
});

export const contentSetImportBody = z.strictObject({
  files: z
    .partialRecord(z.enum(CONTENT_FILES), z.string().max(CONTENT_LIMITS.fileBytes, `a file may hold at most ${CONTENT_LIMITS.fileBytes} characters`))
    .refine((f) => f["content.json"] !== undefined, "content.json is required")
    .describe("the set's files by name: content.json (required), statistics.csv and scenarios.csv (optional tables)"),
  dryRun: z.boolean().default(false).describe("validate and diff against the latest version, store nothing"),
  preset: z.enum(PRESET_NAMES).optional().describe("also check that every cell has enough scenarios for this preset"),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0)
    .describe("dryRun: the seed whose prompts to show"),
});

/** Prompts shown with a dry run: what the set would send for the seed, first ones. */
const DRY_RUN_PROMPTS = 60;

export const contentSetReadQuery = z.strictObject({
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0)
    .describe("the seed whose prompts to show"),
  preset: z.enum(PRESET_NAMES).optional().describe("include the plan (queries, tokens, expected half-widths) for this preset"),
  limit: z.coerce.number().int().min(1).max(2000).default(200).describe("prompts shown at most"),
});

/** Body of an import: up to every file at its cap, as JSON strings. */
export const CONTENT_IMPORT_MAX_BYTES = CONTENT_FILES.length * CONTENT_LIMITS.fileBytes * 2 + 64 * 1024;

const actor = (v: Viewer | null): ContentActor => {
  if (!v) throw new DomainError("unauthenticated", "sign in first");
  return { id: v.id, email: v.email, role: v.role, token: v.token ? { id: v.token.id, name: v.token.name } : null, address: v.address ?? null };
};

/** A refusal of the content itself: every problem, by file, row and field. */
function refused(e: unknown): never {
  if (e instanceof ContentError)
    throw new DomainError(
      "invalid",
      `the content set was refused (${e.issues.length} problem${e.issues.length === 1 ? "" : "s"}): ${e.issues.slice(0, 3).map(formatIssue).join("; ")}`,
      e.issues.map((i) => ({ name: `${i.file}${i.row !== null ? `:${i.row}` : ""} ${i.field}`, message: i.message })),
    );
  throw e;
}

export async function listContentSetsApi(query: Record<string, string>) {
  const q = contentSetListQuery.parse(query);
  return { versions: await listContentSets(db(), q.set) };
}

export async function importContentSetApi(body: unknown, viewer: Viewer | null) {
  const b = contentSetImportBody.parse(body);
  try {
    const files = b.files as Record<string, string>;
    const out = await importContentSet(db(), actor(viewer), files, { dryRun: b.dryRun, preset: b.preset });
    if (!b.dryRun) return out;
    // Before saving, every prompt the set would send (the first ones, and how many in all) for the seed — off the
    // event loop, keyed by the set's own bytes.
    const set = contentFromFiles(files).set;
    const sha = createHash("sha256").update(JSON.stringify(set)).digest("hex");
    return { ...out, prompts: await contentPrompts(`draft:${sha}`, set, b.seed, DRY_RUN_PROMPTS, viewer?.id ?? null) };
  } catch (e) {
    refused(e);
  }
}

/**
 * One version with its prompts for a seed and, with a preset, its plan: both computed off the event loop, cached by
 * the version, seed and preset, and limited per account (a viewer cannot stall the server: lib/server/offload.ts).
 */
export async function readContentSetApi(ref: string, query: Record<string, string>, viewer: Viewer | null) {
  const q = contentSetReadQuery.parse(query);
  const { version, set } = await getContentSet(db(), ref);
  const account = viewer?.id ?? null;
  const [prompts, plan] = await Promise.all([
    contentPrompts(version.sha256, set, q.seed, q.limit, account),
    q.preset ? contentPlan(version.sha256, set, q.preset, PRESETS[q.preset], 8, account) : null,
  ]);
  return { version, content: set, prompts, plan };
}

export async function setContentSetStatusApi(ref: string, action: "approve" | "retire", body: unknown, viewer: Viewer | null) {
  z.strictObject({}).parse(body ?? {});
  return { version: await setContentSetStatus(db(), actor(viewer), ref, action) };
}
