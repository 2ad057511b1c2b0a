import { db } from "@/lib/db";
import { updateFace } from "@/lib/engine";
import { jsonWrite, notFound } from "@/lib/engine/http";

/** Delete or restore a detection, or store the browser classifier's output for a hand-drawn face. */
export const PATCH = jsonWrite<{ id: string }>("faces.review", async (body, { params }) => {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id < 1) throw notFound("face");
  return updateFace(db(), id, body as Parameters<typeof updateFace>[2]);
});
