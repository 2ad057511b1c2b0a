import { db } from "@/lib/db";
import { jsonWrite } from "@/lib/server/http";
import { markExplanationGold } from "@/lib/features/explanations/readings";
import { actorOf, audit } from "@/lib/auth/audit";

/** Marks an explanation as gold with its true tags (audited). */
export const POST = jsonWrite("annotators.manage", async (body, { viewer }) => {
  await markExplanationGold(db(), viewer!.id, body as Parameters<typeof markExplanationGold>[2]);
  await audit(db(), {
    ...actorOf(viewer),
    action: "explanation.gold",
    targetType: "outcome",
    targetId: String((body as { outcomeId?: unknown }).outcomeId ?? ""),
  });
  return { ok: true };
});
