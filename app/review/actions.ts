"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { createAssignment } from "@/lib/features/review/assignments";
import { actionGuard } from "@/app/guard";
import { actorOf, audit } from "@/lib/auth/audit";
import { chosenReviewers, refusal } from "./review-form";

export interface AssignmentFormState {
  ok?: boolean;
  message?: string;
  links?: Array<{ annotator: string; href: string }>;
}

/** Creates an assignment from the form: runs (checkboxes), annotators (accounts), sample size, overlap, gold (the seed is the runs' own). */
export async function createAssignmentAction(_prev: AssignmentFormState, form: FormData): Promise<AssignmentFormState> {
  const g = await actionGuard("review.manage");
  if ("message" in g) return { message: g.message };
  // Annotators are accounts that may review faces, chosen on the form (never typed names).
  const annotators = await chosenReviewers(form, "faces.review");
  if (!annotators) return { message: "Choose annotators among the accounts that may review faces." };
  try {
    const r = await createAssignment(db(), {
      name: String(form.get("name") ?? ""),
      runIds: form.getAll("runIds").map(String),
      annotators,
      perModel: String(form.get("perModel") ?? "25"),
      overlap: String(form.get("overlap") || annotators.length),
      // a percentage on the form; blank: none
      goldRate: Number(form.get("goldPercent") || 0) / 100,
    });
    await audit(db(), {
      ...actorOf(g.viewer),
      action: "assignment.create",
      targetType: "assignment",
      targetId: r.id,
      details: { images: r.images, annotators },
    });
    revalidatePath("/review/agreement");
    return {
      ok: true,
      message: `Dealt ${r.images} images as ${r.items} assignments.`,
      links: annotators.map((a) => ({ annotator: a, href: `/review?${new URLSearchParams({ assignmentId: r.id, state: "unreviewed" })}` })),
    };
  } catch (e) {
    return refusal(e);
  }
}
