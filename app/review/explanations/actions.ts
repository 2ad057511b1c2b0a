"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { createExplanationSample } from "@/lib/features/explanations/sample";
import { actionGuard } from "@/app/guard";
import { actorOf, audit } from "@/lib/auth/audit";
import { chosenReviewers, refusal } from "../review-form";

export interface SampleFormState {
  ok?: boolean;
  message?: string;
  href?: string;
}

/** Draws a stratified sample of a chain-of-thought run's explanations and deals it to the chosen reviewers. */
export async function createExplanationSampleAction(_prev: SampleFormState, form: FormData): Promise<SampleFormState> {
  const g = await actionGuard("review.manage");
  if ("message" in g) return { message: g.message };
  const reviewers = await chosenReviewers(form, "explanations.review");
  if (!reviewers) return { message: "Choose reviewers among the accounts that may review explanations." };
  try {
    const r = await createExplanationSample(db(), {
      name: String(form.get("name") ?? ""),
      runId: String(form.get("runId") ?? ""),
      annotators: reviewers,
      halfWidth: Number(form.get("halfWidthPoints") || 10) / 100,
      overlap: String(form.get("overlap") || "2"),
      goldRate: Number(form.get("goldPercent") || 0) / 100,
    });
    await audit(db(), {
      ...actorOf(g.viewer),
      action: "assignment.create",
      targetType: "assignment",
      targetId: r.id,
      details: { kind: "explanations", explanations: r.explanations, reviewers },
    });
    revalidatePath("/review/explanations");
    const gold =
      r.gold || r.goldShort
        ? ` ${r.gold} of them gold${r.goldShort ? ` (${r.goldShort} fewer than asked: gold is dealt in each reviewer's strata only, like their share — mark gold in more statistics and contexts)` : ""}.`
        : "";
    return {
      ok: true,
      message: `Sampled ${r.explanations} explanations, dealt as ${r.items} readings.${gold}`,
      href: `/review/explanations?assignmentId=${r.id}`,
    };
  } catch (e) {
    return refusal(e);
  }
}
