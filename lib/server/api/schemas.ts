// The request shapes of the HTTP API, shared by the route handlers (which parse with them) and the OpenAPI document
// (which is generated from them), so the two never drift.
import { z } from "zod";
import { RACE_MAPPINGS } from "../../faces/labels";
import { LABEL_SOURCES } from "../../results/label-sources";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "../../metrics/profiles";
import { DEFAULT_SUITE_ID } from "../../suites";
import { compareParams, intervalTargetParam } from "../../results/compare-params";

export { intervalTargetParam };

export { launchRequestSchema } from "../../features/runs/launch";

/** How a text-to-image run's scores are read: FairFace's 7 → 4 race mapping, whose labels, which scoring profile. */
const scoring = {
  raceMapping: z.enum(RACE_MAPPINGS).default("paper").describe("text-to-image: FairFace's 7 → 4 race mapping"),
  labels: z.enum(LABEL_SOURCES).default("model").describe("text-to-image: the model's face labels, or human-corrected ones"),
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE).describe("where a paper's text and its released code disagree: which to compute"),
};

export const runSummaryQuery = z.strictObject(scoring);

export const compareQuery = z.strictObject({ ...compareParams, ...scoring });

export const exportQuery = z.strictObject({
  format: z.enum(["jsonl", "json", "csv"]).default("jsonl").describe("jsonl: the interchange v1 lines (needs data.export); json or csv: scores"),
  ...scoring,
  target: intervalTargetParam,
});

export const scoresQuery = z.strictObject(scoring);

export const runListQuery = z.strictObject({
  suite: z.string().trim().max(64).optional().describe("only runs of this suite"),
  status: z.string().trim().max(32).optional().describe("only runs in this status (queued, running, completed …)"),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("newest first, at most 100"),
  before: z.string().trim().min(1).max(64).optional().describe("the page after this run: the previous page's `next` (runs created before it)"),
});

export const modelListQuery = z.strictObject({
  archived: z.enum(["true", "false"]).default("false").describe("archived models instead of the active ones"),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe("in slug order, at most 500"),
  after: z.string().trim().min(1).max(200).optional().describe("the page after this slug: the previous page's `next`"),
  slug: z.string().trim().min(1).max(200).optional().describe("only this model (active or archived)"),
});

export const steerBody = z.strictObject({
  budgetUsd: z.number().positive().max(1_000_000).nullable().optional().describe("a new budget (null: none) with the change"),
});
export const STEER_ACTIONS = ["pause", "resume", "cancel"] as const;

export const importOpenBody = z.strictObject({
  model: z.string().trim().min(1, "choose the model the images come from").max(80),
  suite: z.string().max(64).default(DEFAULT_SUITE_ID),
  runId: z.string().max(40).nullable().default(null).describe("add to an earlier import of the same model and suite"),
  runName: z.string().trim().max(200).nullable().default(null),
  instrument: z
    .enum(["faces", "clip"])
    .default("faces")
    .describe("what labels a new run's images: the face pipeline, or CLIP on whole images (suites whose paper measures so: FAIntbench)"),
});
