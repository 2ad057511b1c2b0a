import { db } from "@/lib/db";
import { jsonRead, jsonWrite } from "@/lib/server/http";
import { createExplanationSample, listExplanationSamples, sampleSuggestion } from "@/lib/features/explanations/sample";
import { sampleBody, sampleListQuery } from "@/lib/server/api/explanations";
import { enabledUsersWhoCan } from "@/lib/auth/users";
import { actorOf, audit } from "@/lib/auth/audit";
import { DomainError } from "@/lib/core/errors";

/** The run's samples with progress, and what the asked precision (default ±0.10) costs in reviews per model. */
export const GET = jsonRead<{ id: string }>("review.manage", async (query, { params }) => {
  const q = sampleListQuery.parse(query);
  const [samples, suggestion] = await Promise.all([listExplanationSamples(db(), params.id), sampleSuggestion(db(), params.id, q.halfWidth ?? 0.1)]);
  return { samples, suggestion };
});

/** Draws a stratified sample and deals it to reviewers (accounts that may review explanations, by id). */
export const POST = jsonWrite<{ id: string }>(
  "review.manage",
  async (body, { params, viewer }) => {
    const b = sampleBody.parse(body);
    const reviewers = await enabledUsersWhoCan(db(), b.annotators, "explanations.review");
    if (reviewers.length !== new Set(b.annotators).size) throw new DomainError("invalid", "annotators: accounts (ids) that may review explanations");
    const r = await createExplanationSample(db(), { ...b, annotators: reviewers, runId: params.id });
    await audit(db(), {
      ...actorOf(viewer),
      action: "assignment.create",
      targetType: "assignment",
      targetId: r.id,
      details: { kind: "explanations", runId: params.id, explanations: r.explanations },
    });
    return r;
  },
  { status: 201 },
);
