import { db } from "@/lib/db";
import { saveAnnotations } from "@/lib/features/review/queue";
import { jsonWrite } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";

/** One annotator's labels for one or more faces (appended, all or nothing); answers with the faces as they are now. */
// The annotator is the signed-in account: a body naming someone else is overridden, never trusted.
export const POST = jsonWrite("faces.review", async (body, { viewer }) => {
  const saved = await saveAnnotations(db(), { ...(body as object), annotator: viewer!.id } as Parameters<typeof saveAnnotations>[1]);
  await audit(db(), {
    ...actorOf(viewer),
    action: "face.label",
    targetType: "face",
    targetId: saved.faces.map((f) => f.id).join(","),
    details: { faces: saved.faces.length },
  });
  return saved;
});
