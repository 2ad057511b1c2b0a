import { db } from "@/lib/db";
import { updateFace } from "@/lib/features/review/detections";
import { jsonWrite, notFound } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";

/** Delete or restore a detection, or store the browser classifier's output for a hand-drawn face. */
export const PATCH = jsonWrite<{ id: string }>("faces.review", async (body, { params, viewer }) => {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id < 1) throw notFound("face");
  const face = await updateFace(db(), id, { ...(body as object), annotator: viewer!.id } as Parameters<typeof updateFace>[2]);
  const deleted = (body as { deleted?: unknown })?.deleted;
  if (typeof deleted === "boolean")
    await audit(db(), { ...actorOf(viewer), action: deleted ? "face.delete" : "face.restore", targetType: "face", targetId: String(id) });
  else {
    const classifier = (body as { classifier?: { model?: unknown; sha256?: unknown } })?.classifier;
    await audit(db(), {
      ...actorOf(viewer),
      action: "faces.classified",
      targetType: "face",
      targetId: String(id),
      details: { classifier: classifier?.model, sha256: classifier?.sha256 },
    });
  }
  return face;
});
