import { db } from "@/lib/db";
import { updateFace } from "@/lib/engine";
import { errorResponse } from "@/lib/engine/http";

/** Delete or restore a detection, or store the browser classifier's output for a hand-drawn face. */
export async function PATCH(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id < 1) return Response.json({ error: "face not found" }, { status: 404 });
  try {
    return Response.json(await updateFace(db(), id, await req.json()));
  } catch (e) {
    return errorResponse(e);
  }
}
