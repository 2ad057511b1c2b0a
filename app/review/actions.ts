"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { createAssignment, ReviewError } from "@/lib/engine";
import { actionGuard } from "@/app/guard";
import { audit } from "@/lib/auth/audit";

export interface AssignmentFormState {
  ok?: boolean;
  message?: string;
  links?: Array<{ annotator: string; href: string }>;
}

/** Creates an assignment from the form: runs (checkboxes), annotators (comma or newline separated), sample and seed. */
export async function createAssignmentAction(_prev: AssignmentFormState, form: FormData): Promise<AssignmentFormState> {
  const g = await actionGuard("review.manage");
  if ("message" in g) return { message: g.message };
  const annotators = String(form.get("annotators") ?? "")
    .split(/[,\n]/)
    .map((a) => a.trim())
    .filter(Boolean);
  try {
    const r = await createAssignment(db(), {
      name: String(form.get("name") ?? ""),
      runIds: form.getAll("runIds").map(String),
      annotators,
      perModel: String(form.get("perModel") ?? "25"),
      overlap: String(form.get("overlap") || annotators.length),
      seed: String(form.get("seed") || "1"),
    });
    await audit(db(), { userId: g.viewer.id, action: "assignment.create", targetType: "assignment", targetId: r.id, details: { images: r.images, annotators } });
    revalidatePath("/review/agreement");
    return {
      ok: true,
      message: `Dealt ${r.images} images as ${r.items} assignments.`,
      links: [...new Set(annotators)].map((a) => ({ annotator: a, href: `/review?${new URLSearchParams({ assignmentId: r.id, annotator: a, state: "unreviewed" })}` })),
    };
  } catch (e) {
    if (e instanceof z.ZodError) return { message: e.issues.map((i) => `${i.path.join(".") || "form"}: ${i.message}`).join("; ") };
    if (e instanceof ReviewError) return { message: e.message };
    throw e;
  }
}
