// /api/v1 routes of explanation review (issue #67): the sample, the reviewer's queue and readings, gold, the judge,
// the results and the explanations behind them, and the export. The handlers parse with these schemas.
import { z } from "zod";
import type { ApiRoute } from "./route-types";
import { EXPLANATION_TAGS } from "../../explanations/tags";
import { explanationSampleSchema } from "../../features/explanations/sample";
import { goldSchema, queueSchema, saveReadingSchema } from "../../features/explanations/readings";
import { startJudgeSchema } from "../../features/explanations/judge-pass";

export const explanationResultsQuery = z.strictObject({ passId: z.string().min(1).max(40).optional() });
export const sampleListQuery = z.strictObject({ halfWidth: z.coerce.number().min(0.02).max(0.5).optional() });
export const sampleBody = explanationSampleSchema.omit({ runId: true }).strict();
export const judgeBody = startJudgeSchema.omit({ runId: true }).strict();
export const cancelJudgeQuery = z.strictObject({ passId: z.string().min(1).max(40) });
export const behindQuery = z.strictObject({
  model: z.string().min(1).max(120).optional(),
  statisticId: z.string().min(1).max(80).optional(),
  context: z.string().min(1).max(40).optional(),
  attribute: z.enum(["gender", "race"]).optional(),
  chosen: z.string().min(1).max(60).optional(),
  tag: z.enum(EXPLANATION_TAGS).optional(),
  source: z.enum(["people", "judge"]).default("people"),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
});
export const explanationExportQuery = z.strictObject({ format: z.enum(["jsonl", "csv"]).default("jsonl") });

export const EXPLANATION_ROUTES: readonly ApiRoute[] = [
  {
    method: "get",
    path: "/api/v1/runs/{id}/explanations",
    access: "results.read",
    summary: "How often a chain-of-thought run's explanations show each cognitive error",
    description:
      "Per model and per model × statistic, × context and × statistic × context: each tag's prevalence from the people's stratified sample (95 % interval) and from the judge's tags corrected for its measured misreadings (or why not); Krippendorff's alpha per tag; each reviewer's accuracy on gold; the judge's identity, rubric version and accuracy; the errors beside the choices; model differences.",
    query: explanationResultsQuery,
    ok: { status: 200, description: "{ explanations, sample, agreement, reviewers, judge, rows, choices, comparisons }" },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/explanations/items",
    access: "data.export",
    summary: "The explanations behind a number: reviewed (or judged) ones of a cell, quoted, with their tagged spans",
    query: behindQuery,
    ok: {
      status: 200,
      description: "{ total, offset, items: [{ outcomeId, model, statisticId, context, prompt, options, chosen, explanation, readings, judge }] }",
    },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/explanations/samples",
    access: "review.manage",
    summary: "The run's explanation review samples with each reviewer's progress, and what a precision costs",
    query: sampleListQuery,
    ok: { status: 200, description: "{ samples, suggestion: [{ model, explanations, strata, sample }] }" },
  },
  {
    method: "post",
    path: "/api/v1/runs/{id}/explanations/samples",
    access: "review.manage",
    summary: "Draw a stratified sample of the run's explanations and deal it to reviewers",
    body: sampleBody,
    ok: {
      status: 201,
      description: "{ id, explanations, items, gold, goldShort } (goldShort: gold asked for but not dealt, for want of gold in a reviewer's strata)",
    },
  },
  {
    method: "post",
    path: "/api/v1/runs/{id}/explanations/judge",
    access: "runs.manage",
    summary: "Start a judge pass: a registered chat model tags every explanation with the rubric (spends within the caller's limit)",
    body: judgeBody,
    ok: { status: 202, description: "{ id, total, budgetUsd }" },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/explanations/judge",
    access: "results.read",
    summary: "The run's judge passes: status, progress, cost",
    ok: { status: 200, description: "{ passes: [{ id, judge, status, total, judged, costUsd, budgetUsd, error }] }" },
  },
  {
    method: "put",
    path: "/api/v1/runs/{id}/explanations/judge",
    access: "runs.manage",
    summary: "Cancel a judge pass under way (`?passId=`)",
    query: cancelJudgeQuery,
    body: z.strictObject({}).describe("an empty JSON object (every write sends JSON)"),
    ok: { status: 200, description: "{ cancelled: true }" },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/explanations/export",
    access: "data.export",
    summary: "Every reading and judgment of the run's explanations (JSONL or CSV): tags, spans, reviewers as pseudonyms, the judge",
    query: explanationExportQuery,
    ok: { status: 200, description: "one row per reading or judgment", contentTypes: ["application/x-ndjson", "text/csv"] },
  },
  {
    method: "get",
    path: "/api/v1/explanations/queue",
    access: "explanations.review",
    summary: "The caller's explanations in a review assignment (blind: only their own readings)",
    query: queueSchema,
    ok: { status: 200, description: "{ items, left, assigned, offset }" },
  },
  {
    method: "post",
    path: "/api/v1/explanations/readings",
    access: "explanations.review",
    summary: "The caller's reading of an explanation: the errors it shows with their spans ([] = none), an optional note",
    body: saveReadingSchema,
    ok: { status: 201, description: "{ id, tags }" },
  },
  {
    method: "post",
    path: "/api/v1/explanations/gold",
    access: "annotators.manage",
    summary: "Mark an explanation as gold with its true tags (served blind to measure reviewers)",
    body: goldSchema,
    ok: { status: 200, description: "{ ok: true }" },
  },
];
