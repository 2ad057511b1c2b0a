"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { actionGuard } from "@/app/guard";
import { reviewItem } from "@/lib/suites/content-review-write";
import { DomainError } from "@/lib/core/errors";
import { ZodError } from "zod";

export interface ItemReviewState {
  message?: string;
  ok?: boolean;
}

/** Verify or dispute one content item (a reviewer's verdict, recorded with their name and an audit row). */
export async function reviewItemAction(_prev: ItemReviewState, form: FormData): Promise<ItemReviewState> {
  const g = await actionGuard("content.review");
  if ("message" in g) return { message: g.message };
  try {
    await reviewItem(
      db(),
      {
        suiteId: String(form.get("suiteId") ?? ""),
        itemId: String(form.get("itemId") ?? ""),
        state: String(form.get("state") ?? "") as "verified",
        note: String(form.get("note") ?? ""),
      },
      { id: g.viewer.id, name: g.viewer.name, token: g.viewer.token },
    );
  } catch (e) {
    if (e instanceof ZodError) return { message: e.issues[0]?.message ?? "invalid review" };
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
  revalidatePath(`/benchmark/suites/${String(form.get("suiteId"))}`);
  return { ok: true };
}
