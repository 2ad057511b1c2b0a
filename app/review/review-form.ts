// What the review assignment actions share (app/review/actions.ts: faces, app/review/explanations/actions.ts:
// explanations — the one form, components/review/review-assignment-form.tsx): the reviewers chosen on the form must
// all be enabled accounts that may review the kind (never typed names), and a refusal is worded for the form.
import { z } from "zod";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/core/errors";
import { enabledUsersWhoCan } from "@/lib/auth/users";
import type { Permission } from "@/lib/auth/roles";

/** The chosen reviewers, or null when one of them may not review this kind (or is no enabled account). */
export async function chosenReviewers(form: FormData, permission: Permission): Promise<string[] | null> {
  const chosen = [...new Set(form.getAll("annotators").map(String))].slice(0, 200);
  const allowed = await enabledUsersWhoCan(db(), chosen, permission);
  return allowed.length === chosen.length ? allowed : null;
}

/** A validation or domain refusal as the form's message; anything else is a fault and is thrown on. */
export function refusal(e: unknown): { message: string } {
  if (e instanceof z.ZodError) return { message: e.issues.map((i) => `${i.path.join(".") || "form"}: ${i.message}`).join("; ") };
  if (e instanceof DomainError) return { message: e.message };
  throw e;
}
