import { db } from "@/lib/db";
import { jsonWrite } from "@/lib/server/http";
import { saveReading } from "@/lib/features/explanations/readings";
import { actorOf, audit } from "@/lib/auth/audit";

/** The caller's reading of an explanation (appended; the reviewer is the signed-in account). */
export const POST = jsonWrite(
  "explanations.review",
  async (body, { viewer }) => {
    const saved = await saveReading(db(), viewer!.id, body as Parameters<typeof saveReading>[2]);
    await audit(db(), {
      ...actorOf(viewer),
      action: "explanation.read",
      targetType: "outcome",
      targetId: String((body as { outcomeId?: unknown }).outcomeId ?? ""),
      details: { tags: saved.tags },
    });
    return saved;
  },
  { status: 201, maxBytes: 16 * 1024 },
);
